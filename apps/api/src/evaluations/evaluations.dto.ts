import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsIn, isISO8601, IsString, MaxLength, ValidateBy } from 'class-validator';
import { EVALUATION_STATUSES, type EvaluationSource, type EvaluationStatus } from '@app/domain';
import { Omittable } from '../errors/validation-rules.js';
import { SourceFilter } from '../reviews/source-filter.js';

export const EVALUATION_ORDERS = ['newest', 'oldest'] as const;

/** A full date-time with its offset: a date alone or a local time would depend on the server's zone. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** An optional ISO 8601 date-time bound on `createdAt`, checked as a real date (no 30 February). */
function DateTimeBound(name: 'from' | 'to', description: string): PropertyDecorator {
  const message = `${name} must be an ISO 8601 date-time with a time zone, like 2026-01-31T00:00:00Z`;
  return applyDecorators(
    ApiPropertyOptional({ format: 'date-time', example: '2026-01-31T00:00:00Z', description }),
    Omittable(),
    ValidateBy({
      name: 'isDateTime',
      validator: {
        validate: (value) =>
          typeof value === 'string' && DATE_TIME.test(value) && isISO8601(value, { strict: true }),
        defaultMessage: () => message,
      },
    }),
  );
}

/** The filters of the evaluation list (without its cursor and order). */
export class EvaluationFiltersQueryDto {
  @ApiPropertyOptional({ format: 'uuid', description: 'Only the evaluations of this pack (any version).' })
  @Omittable()
  @IsString()
  packId?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: 'Only the evaluations judged with this pack version. Not a uuid: nothing matches.',
  })
  @Omittable()
  @IsString()
  packVersionId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the evaluations of this simulation.' })
  @Omittable()
  @IsString()
  simulationId?: string;

  @ApiPropertyOptional({ enum: EVALUATION_STATUSES })
  @Omittable()
  @IsIn(EVALUATION_STATUSES)
  status?: EvaluationStatus;

  @SourceFilter('Only evaluations of these sources.')
  source?: EvaluationSource[];

  @DateTimeBound('from', 'Only evaluations created at or after this time (inclusive).')
  from?: string;

  @DateTimeBound(
    'to',
    'Only evaluations created before this time (exclusive). `from` later than `to` is 400; equal, an empty list.',
  )
  to?: string;

  @ApiPropertyOptional({
    maxLength: 200,
    example: 'refund',
    description:
      "Search: an evaluation matches when its ticket's `externalId` starts with the text as given (case-sensitive; " +
      'an exact id matches too), or when its subject (as stored, redacted) holds every word of the text, the last ' +
      'word as a prefix (`refu` finds "refund"), case-insensitive. Words are runs of letters and digits; other ' +
      'characters only separate them (no pattern syntax). Blank: no search.',
  })
  @Omittable()
  @IsString()
  @MaxLength(200)
  q?: string;
}

export class ListEvaluationsQueryDto extends EvaluationFiltersQueryDto {
  @ApiPropertyOptional({
    enum: EVALUATION_ORDERS,
    default: 'newest',
    description:
      'By creation time: `newest` first (the default) or `oldest` first. A cursor is valid only with the order it was issued for.',
  })
  @Omittable()
  @IsIn(EVALUATION_ORDERS, { message: 'order must be newest or oldest' })
  order?: (typeof EVALUATION_ORDERS)[number];

  @ApiPropertyOptional({ description: 'The `nextCursor` of the previous page.' })
  @Omittable()
  @IsString()
  @MaxLength(512)
  cursor?: string;
}

/**
 * GET /api/evaluations/export: the list's filters, whatever they are, without its cursor (an export
 * holds every page), so a filter added to the list is an export filter too.
 */
export class ExportEvaluationsQueryDto extends OmitType(ListEvaluationsQueryDto, ['cursor'] as const) {}
