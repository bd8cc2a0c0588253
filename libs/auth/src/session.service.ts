import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { hashSecret, PERMISSIONS } from '@app/domain';
import { SessionRepository } from '@app/persistence';
import type { Principal } from './principal.js';

export interface NewSession {
  token: string;
  expiresAt: Date;
}

/** Server-side sessions: the cookie holds a random token, the database its SHA-256. */
@Injectable()
export class SessionService {
  constructor(
    private readonly sessions: SessionRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async start(userId: string): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + this.config.sessionTtlHours * 3600 * 1000);
    await this.sessions.create(userId, hashSecret(token), expiresAt);
    return { token, expiresAt };
  }

  async resolve(token: string): Promise<Principal | null> {
    const session = await this.sessions.findLive(hashSecret(token));
    return session ? { kind: 'session', userId: session.userId, permissions: PERMISSIONS } : null;
  }

  async end(token: string): Promise<void> {
    await this.sessions.deleteByTokenHash(hashSecret(token));
  }
}
