import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayNotEmpty, IsArray, IsIn } from 'class-validator';
import { EVALUATION_SOURCES } from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';

/**
 * A `source` query value as one list: the parameter repeated (`?source=api&source=webhook`, which
 * arrives as an array), comma-separated (`?source=api,webhook`), or both; duplicates dropped, the
 * first occurrence's order kept. A value that is not text is handed on as it came, for the rules
 * to refuse.
 */
export function sourceList(value: unknown): unknown {
  const parts: unknown[] = Array.isArray(value) ? value : [value];
  if (!parts.every((part): part is string => typeof part === 'string')) return value;
  return [...new Set(parts.flatMap((part) => part.split(',')))];
}

const SOURCES_TEXT = EVALUATION_SOURCES.join(', ');

/**
 * The optional `source` filter of a list or figures: one or several evaluation sources, repeated or
 * comma-separated; an unknown or empty value is 400 `invalid request` naming `source`.
 */
export function SourceFilter(what: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      enum: EVALUATION_SOURCES,
      isArray: true,
      description:
        `${what} Several sources: repeat the parameter (\`?source=api&source=webhook\`) or separate them with commas ` +
        '(`?source=api,webhook`). Left out: every source (the default). Live traffic is `api`, `webhook` and `mcp`; ' +
        '`playground` and `simulation` are experiments.',
    }),
    Omittable(),
    Transform(({ value }) => sourceList(value)),
    IsArray({ message: 'source must be text: one source, or several' }),
    ArrayNotEmpty({ message: 'source must name at least one source' }),
    IsIn(EVALUATION_SOURCES, { each: true, message: `each source must be one of: ${SOURCES_TEXT}` }),
  );
}
