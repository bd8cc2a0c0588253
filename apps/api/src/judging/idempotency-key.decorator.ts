import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '@app/domain';

const HEADER = 'idempotency-key';

/** The optional Idempotency-Key header: 1 to 128 characters, else 400 with an issue on the header. */
export function parseIdempotencyKey(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined;
  const key = Array.isArray(value) ? value.join(', ') : value;
  if (key.length < 1 || key.length > 128) {
    throw new ValidationError([
      { path: `headers.${HEADER}`, message: 'Idempotency-Key must be 1 to 128 characters' },
    ]);
  }
  return key;
}

export const IdempotencyKey = createParamDecorator((_: unknown, ctx: ExecutionContext): string | undefined =>
  parseIdempotencyKey(ctx.switchToHttp().getRequest<FastifyRequest>().headers[HEADER]),
);
