import { Injectable } from '@nestjs/common';
import { IdempotencyKeyRepository } from '@app/judging';
import { OAuthRepository, SessionRepository } from '@app/persistence';

export interface CleanupResult {
  sessions: number;
  idempotencyKeys: number;
  /** Codes and tokens expired for a day, grants revoked for a day. */
  oauthExpired: number;
  /** OAuth clients no user approved within a day of registration. */
  oauthClients: number;
}

/** The hourly cleanup: every table that grows with expired or abandoned rows is cut back to live data. */
@Injectable()
export class Cleanup {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly idempotencyKeys: IdempotencyKeyRepository,
    private readonly oauth: OAuthRepository,
  ) {}

  async run(): Promise<CleanupResult> {
    return {
      sessions: await this.sessions.deleteExpired(),
      idempotencyKeys: await this.idempotencyKeys.deleteExpired(),
      oauthExpired: await this.oauth.purgeExpired(),
      oauthClients: await this.oauth.purgeUnapprovedClients(),
    };
  }
}
