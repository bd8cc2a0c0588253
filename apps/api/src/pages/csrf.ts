import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ForbiddenError } from '@app/domain';

const CSRF_COOKIE = 'tj_csrf';

/**
 * CSRF protection of the HTML forms (sign-in, consent): a token in a hidden field that must match
 * a per-browser cookie, keyed with the session secret and bound to the form's purpose; and a
 * cross-site Origin or Sec-Fetch-Site is refused outright.
 */
@Injectable()
export class CsrfTokens {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The token for a form, setting the browser's CSRF cookie when it has none. */
  issue(request: FastifyRequest, reply: FastifyReply, purpose: string): string {
    let nonce = this.nonce(request);
    if (!nonce) {
      nonce = randomBytes(24).toString('base64url');
      reply.setCookie(CSRF_COOKIE, nonce, {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: this.config.nodeEnv === 'production',
        signed: true,
      });
    }
    return this.sign(nonce, purpose);
  }

  verify(request: FastifyRequest, purpose: string, token: string | undefined): void {
    if (request.headers['sec-fetch-site'] === 'cross-site')
      throw new ForbiddenError('cross-site request refused');
    const origin = request.headers.origin;
    if (origin && origin !== 'null' && origin !== `${request.protocol}://${request.host}`) {
      throw new ForbiddenError('cross-site request refused');
    }
    const nonce = this.nonce(request);
    const expected = nonce ? Buffer.from(this.sign(nonce, purpose)) : null;
    const given = Buffer.from(token ?? '');
    if (!expected || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      throw new ForbiddenError('form expired or forged: reload the page and try again');
    }
  }

  private nonce(request: FastifyRequest): string | null {
    const raw = request.cookies?.[CSRF_COOKIE];
    if (!raw) return null;
    const unsigned = request.unsignCookie(raw);
    return unsigned.valid ? unsigned.value : null;
  }

  private sign(nonce: string, purpose: string): string {
    return createHmac('sha256', this.config.sessionSecret)
      .update(`csrf:${purpose}:${nonce}`)
      .digest('base64url');
  }
}
