import { Injectable } from '@nestjs/common';
import { AuthGuard, PassportStrategy } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import { Strategy } from 'passport-custom';
import type { Principal } from './principal.js';
import { SessionCookie } from './session-cookie.js';

/** The credential of `Authorization: Bearer <credential>`, trimmed; null when none is sent. */
export function bearerToken(request: Pick<FastifyRequest, 'headers'>): string | null {
  const authorization = request.headers.authorization;
  const match = typeof authorization === 'string' ? /^Bearer\s+(.+)$/i.exec(authorization.trim()) : null;
  return match ? match[1].trim() : null;
}

/** The key from `x-api-key`, or from `Authorization: Bearer <key>`; null when neither is sent. */
export function extractApiKey(request: FastifyRequest): string | null {
  const header = request.headers['x-api-key'];
  if (typeof header === 'string') return header.trim();
  return bearerToken(request);
}

@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, 'session') {
  constructor(private readonly cookie: SessionCookie) {
    super();
  }

  /** Resolves to false (not an error) without a valid session, so the guard picks the message. */
  async validate(request: FastifyRequest): Promise<Principal | false> {
    return (await this.cookie.read(request)) ?? false;
  }
}

@Injectable()
export class SessionAuthGuard extends AuthGuard('session') {
  override handleRequest<T>(error: unknown, principal: T): T {
    if (error) throw asError(error);
    return principal;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
