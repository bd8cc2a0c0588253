import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

export type RawBodyRequest = FastifyRequest & { rawBody?: string };

/** The request body exactly as received (JSON requests keep it for signature checks). */
export const RawBody = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): string =>
    ctx.switchToHttp().getRequest<RawBodyRequest>().rawBody ?? '',
);
