import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import {
  idempotencyResultColumn,
  type ClaimRelease,
  type IdempotencyClaim,
  type IdempotencyResultColumn,
  type IdempotencySurface,
} from '@app/domain';
import { IdempotencyKeyEntity } from '../entities/idempotency-key.entity.js';
import { claimKey, deleteExpiredKey, findClaim } from '../statements/idempotency.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

export type { IdempotencySurface } from '@app/domain';

/** The claim for this call, or the claim another call holds (its result is null while pending). */
export type ClaimResult = { claimed: true } | ({ claimed: false } & IdempotencyClaim);

/** The entity property behind each result column the domain names. */
const RESULT_PROPERTY = {
  evaluation_id: 'evaluationId',
  event_id: 'eventId',
} as const satisfies Record<IdempotencyResultColumn, keyof IdempotencyKeyEntity>;

/**
 * Idempotency keys, per user and per surface. The rules (which column marks a claim done, which
 * claim a release may delete) come from `IdempotencyRules` in the domain; this stores their result.
 */
@Injectable()
export class IdempotencyKeyRepository {
  private readonly keys: Repository<IdempotencyKeyEntity>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly sql: PreparedSql,
  ) {
    this.keys = dataSource.getRepository(IdempotencyKeyEntity);
  }

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
    const resultId = claim[RESULT_PROPERTY[idempotencyResultColumn(surface)]];
    return { claimed: false, resultId, ageMs: claim.ageMs };
  }

  async complete(userId: string, surface: IdempotencySurface, key: string, resultId: string): Promise<void> {
    const property = RESULT_PROPERTY[idempotencyResultColumn(surface)];
    await this.keys.update({ userId, surface, key }, { [property]: resultId });
  }

  /** Deletes the claim if `release` allows it: always for its owner, only while pending for a takeover. */
  async release(
    userId: string,
    surface: IdempotencySurface,
    key: string,
    release: ClaimRelease,
  ): Promise<void> {
    const query = this.keys.createQueryBuilder().delete().where({ userId, surface, key });
    if (release.kind === 'stale') {
      query
        .andWhere(`${release.resultColumn} IS NULL`)
        .andWhere('created_at < now() - make_interval(secs => :olderThanMs::float8 / 1000)', {
          olderThanMs: release.olderThanMs,
        });
    }
    await query.execute();
  }

  async deleteExpired(): Promise<number> {
    const result = await this.keys.createQueryBuilder().delete().where('expires_at < now()').execute();
    return result.affected ?? 0;
  }
}
