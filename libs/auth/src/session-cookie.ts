import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type {} from '@fastify/cookie';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SESSION_COOKIE, type Principal } from './principal.js';
import { SessionService } from './session.service.js';

/** The signed, HttpOnly session cookie: set at sign-in, read by pages, cleared at sign-out. */
@Injectable()
export class SessionCookie {
  constructor(
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The cookie's token when its signature holds, else null. */
  token(request: FastifyRequest): string | null {
    const raw = request.cookies?.[SESSION_COOKIE];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid && unsigned.value ? unsigned.value : null;
  }

  /** The signed-in user of a request, for routes that decide themselves what to do without one. */
  async read(request: FastifyRequest): Promise<Principal | null> {
    const token = this.token(request);
    return token ? this.sessions.resolve(token) : null;
  }

  async start(userId: string, reply: FastifyReply): Promise<void> {
    const session = await this.sessions.start(userId);
    reply.setCookie(SESSION_COOKIE, session.token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.nodeEnv === 'production',
      signed: true,
      expires: session.expiresAt,
    });
  }

  async end(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = this.token(request);
    if (token) await this.sessions.end(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
  }
}
