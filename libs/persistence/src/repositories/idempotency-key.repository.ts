import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export type IdempotencySurface = 'judge' | 'mcp' | 'inbound';

/** What a key stands for once done: an evaluation (judge, mcp) or an inbound event (inbound). */
export type ClaimResult = { claimed: true } | { claimed: false; resultId: string | null; ageMs: number };

const RESULT_COLUMN: Record<IdempotencySurface, 'evaluation_id' | 'event_id'> = {
  judge: 'evaluation_id',
  mcp: 'evaluation_id',
  inbound: 'event_id',
};

/** Idempotency keys, per user and per surface, so the same string on two routes never collides. */
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
      `SELECT ${RESULT_COLUMN[surface]} AS result_id, (extract(epoch FROM now() - created_at) * 1000)::float8 AS age_ms
         FROM idempotency_keys WHERE user_id = $1 AND surface = $2 AND key = $3`,
      [userId, surface, key],
    );
    // Released between our insert and select: the caller simply tries again.
    if (!rows[0]) return { claimed: false, resultId: null, ageMs: 0 };
    return { claimed: false, resultId: rows[0].result_id, ageMs: rows[0].age_ms };
  }

  async complete(userId: string, surface: IdempotencySurface, key: string, resultId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE idempotency_keys SET ${RESULT_COLUMN[surface]} = $4 WHERE user_id = $1 AND surface = $2 AND key = $3`,
      [userId, surface, key, resultId],
    );
  }

  /** Gives the key up (the call failed in a way that must be retryable), or drops a stale claim. */
  async release(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    onlyIfPendingForMs?: number,
  ): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE user_id = $1 AND surface = $2 AND key = $3
          AND ($4::float8 IS NULL OR (evaluation_id IS NULL AND created_at < now() - make_interval(secs => $4::float8 / 1000)))`,
      [userId, surface, key, onlyIfPendingForMs ?? null],
    );
  }

  async deleteExpired(): Promise<number> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM idempotency_keys WHERE expires_at < now()`,
    );
    return affected;
  }
}
