import { Injectable } from '@nestjs/common';
import type { ClaimRelease, IdempotencyResultKind, IdempotencySurface, StoredClaim } from '@app/domain';
import { idempotencyStatements as statements, PreparedSql } from '@app/persistence';

/** The claim for this call, or the claim another call holds as stored (null if it is gone meanwhile). */
export type ClaimResult = { claimed: true } | { claimed: false; stored: StoredClaim | null };

/**
 * Idempotency keys, per user and per surface: the persistence steps of `IdempotencyService`, through
 * the named statements `idempotency.*` (in libs/persistence, snapshotted with the others). What a
 * found claim means, which claim a release may delete and how long a key lasts are the domain's
 * (`IdempotencyRules`, `claimAsFound`); this stores and reads, mapping a result's kind to its column.
 */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(private readonly sql: PreparedSql) {}

  /** Claims the key for a first call, or reads the existing claim (expired claims are dropped first). */
  async claim(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    ttlHours: number,
  ): Promise<ClaimResult> {
    await this.sql.query(statements.deleteExpiredKey, { userId, surface, key });
    if (await this.sql.first(statements.claimKey, { userId, surface, key, ttlHours }))
      return { claimed: true };
    const claim = await this.sql.first(statements.findClaim, { userId, surface, key });
    if (!claim) return { claimed: false, stored: null };
    const results = { evaluation: claim.evaluationId, event: claim.eventId };
    return { claimed: false, stored: { results, ageMs: claim.ageMs } };
  }

  /** Stores what the key stands for, in the column of its kind. */
  async complete(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    result: { kind: IdempotencyResultKind; id: string },
  ): Promise<void> {
    const statement = statements.completeClaim[result.kind];
    await this.sql.query(statement, { userId, surface, key, resultId: result.id });
  }

  /** Deletes the claim if `release` allows it: always for its owner, only while pending for a takeover. */
  async release(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    release: ClaimRelease,
  ): Promise<void> {
    if (release.kind === 'owned')
      await this.sql.query(statements.releaseOwnedClaim, { userId, surface, key });
    else {
      const statement = statements.releaseStaleClaim[release.result];
      await this.sql.query(statement, { userId, surface, key, olderThanMs: release.olderThanMs });
    }
  }

  /** Every expired key (the worker's hourly cleanup). */
  deleteExpired(): Promise<number> {
    return this.sql.affected(statements.deleteExpiredKeys, {});
  }
}
