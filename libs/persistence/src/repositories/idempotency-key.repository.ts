import { Injectable } from '@nestjs/common';
import {
  idempotencyResultKind,
  type ClaimRelease,
  type IdempotencyClaim,
  type IdempotencySurface,
} from '@app/domain';
import {
  claimKey,
  completeClaim,
  deleteExpiredKey,
  deleteExpiredKeys,
  findClaim,
  releaseOwnedClaim,
  releaseStaleClaim,
} from '../statements/idempotency.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

export type { IdempotencySurface } from '@app/domain';

/** The claim for this call, or the claim another call holds (its result is null while pending). */
export type ClaimResult = { claimed: true } | ({ claimed: false } & IdempotencyClaim);

/**
 * Idempotency keys, per user and per surface. The rules (which result a claim waits for, which
 * claim a release may delete) come from `IdempotencyRules` in the domain; this stores their result.
 */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(private readonly sql: PreparedSql) {}

  /** Claims the key for a first call, or reports the existing claim (expired claims are dropped first). */
  async claim(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    ttlHours: number,
  ): Promise<ClaimResult> {
    await this.sql.query(deleteExpiredKey, { userId, surface, key });
    if (await this.sql.first(claimKey, { userId, surface, key, ttlHours })) return { claimed: true };
    const claim = await this.sql.first(findClaim, { userId, surface, key });
    // Released between our insert and select: the caller simply tries again.
    if (!claim) return { claimed: false, resultId: null, ageMs: 0 };
    const resultId = idempotencyResultKind(surface) === 'event' ? claim.eventId : claim.evaluationId;
    return { claimed: false, resultId, ageMs: claim.ageMs };
  }

  async complete(userId: string, surface: IdempotencySurface, key: string, resultId: string): Promise<void> {
    const statement = completeClaim[idempotencyResultKind(surface)];
    await this.sql.query(statement, { userId, surface, key, resultId });
  }

  /** Deletes the claim if `release` allows it: always for its owner, only while pending for a takeover. */
  async release(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    release: ClaimRelease,
  ): Promise<void> {
    if (release.kind === 'owned') await this.sql.query(releaseOwnedClaim, { userId, surface, key });
    else {
      const statement = releaseStaleClaim[release.result];
      await this.sql.query(statement, { userId, surface, key, olderThanMs: release.olderThanMs });
    }
  }

  deleteExpired(): Promise<number> {
    return this.sql.affected(deleteExpiredKeys, {});
  }
}
