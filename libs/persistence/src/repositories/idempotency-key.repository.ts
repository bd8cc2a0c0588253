import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  idempotencyResultColumn,
  type ClaimRelease,
  type IdempotencyClaim,
  type IdempotencySurface,
} from '@app/domain';

export type { IdempotencySurface } from '@app/domain';

/** The key claimed for this call, or the claim another call holds (its result is null while pending). */
export type ClaimResult = { claimed: true } | ({ claimed: false } & IdempotencyClaim);

/**
 * Idempotency keys, per user and per surface. The rules (which column marks a claim done, which
 * claim a release may delete) come from `IdempotencyRules` in the domain; this stores their result.
 */
@Injectable()
export class IdempotencyKeyRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Claims the key for a first call, or reports the existing claim (expired claims are dropped first). */
  async claim(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    ttlHours: number,
  ): Promise<ClaimResult> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE user_id = $1 AND surface = $2 AND key = $3 AND expires_at < now()`,
      [userId, surface, key],
    );
    const inserted: unknown[] = await this.dataSource.query(
      `INSERT INTO idempotency_keys (user_id, surface, key, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(hours => $4))
       ON CONFLICT DO NOTHING RETURNING 1`,
      [userId, surface, key, ttlHours],
    );
    if (inserted.length) return { claimed: true };
    const rows: Array<{ result_id: string | null; age_ms: number }> = await this.dataSource.query(
      `SELECT ${idempotencyResultColumn(surface)} AS result_id, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms
         FROM idempotency_keys WHERE user_id = $1 AND surface = $2 AND key = $3`,
      [userId, surface, key],
    );
    // Released between our insert and select: the caller simply tries again.
    if (!rows[0]) return { claimed: false, resultId: null, ageMs: 0 };
    return { claimed: false, resultId: rows[0].result_id, ageMs: rows[0].age_ms };
  }

  async complete(userId: string, surface: IdempotencySurface, key: string, resultId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET ${idempotencyResultColumn(surface)} = $4 WHERE user_id = $1 AND surface = $2 AND key = $3`,
      [userId, surface, key, resultId],
    );
  }

  /** Deletes the claim if `release` allows it: always for its owner, only while pending for a takeover. */
  async release(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    release: ClaimRelease,
  ): Promise<void> {
    if (release.kind === 'owned') {
      await this.dataSource.query(
        `DELETE FROM idempotency_keys WHERE user_id = $1 AND surface = $2 AND key = $3`,
        [userId, surface, key],
      );
      return;
    }
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE user_id = $1 AND surface = $2 AND key = $3
          AND ${release.resultColumn} IS NULL AND created_at < now() - make_interval(secs => $4::float8 / 1000)`,
      [userId, surface, key, release.olderThanMs],
    );
  }

  async deleteExpired(): Promise<number> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE expires_at < now()`,
    );
    return affected;
  }
}
