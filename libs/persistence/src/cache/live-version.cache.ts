import { Injectable } from '@nestjs/common';
import { isUuid, type PackDocument } from '@app/domain';
import { PreparedSql } from '../prepared-sql.js';
import { CacheInvalidation, HOT_PATH_CACHE } from './cache-invalidation.service.js';
import type { InvalidatedCache } from './invalidated-cache.js';

export type LiveVersionLookup =
  | { found: true; packId: string; versionId: string; document: PackDocument }
  | { found: false; reason: 'pack_not_found' | 'no_live_version' };

const FOUND_ONLY = { keep: (lookup: LiveVersionLookup) => lookup.found };

/**
 * The hot path of judging: a pack's live version id and document, read on every judgment. Only found
 * ones are kept (published documents never change), by `userId:packId`; PackRepository invalidates
 * an entry in the same method as every write that changes a live version or deletes a pack.
 */
@Injectable()
export class LiveVersionCache {
  private readonly cache: InvalidatedCache<LiveVersionLookup>;

  constructor(
    private readonly invalidation: CacheInvalidation,
    private readonly sql: PreparedSql,
  ) {
    this.cache = invalidation.register('live-versions', HOT_PATH_CACHE);
  }

  find(userId: string, packId: string): Promise<LiveVersionLookup> {
    if (!isUuid(packId)) return Promise.resolve({ found: false, reason: 'pack_not_found' });
    return this.cache.get(`${userId}:${packId}`, () => this.load(userId, packId), FOUND_ONLY);
  }

  /** After a write to the pack's live version (or its deletion) committed: drops it in every process. */
  invalidate(userId: string, packId: string): Promise<void> {
    return this.invalidation.invalidate(this.cache, `${userId}:${packId}`);
  }

  private async load(userId: string, packId: string): Promise<LiveVersionLookup> {
    const rows = (await this.sql.query(
      `SELECT p.live_version_id, l.document
         FROM packs p LEFT JOIN pack_versions l ON l.id = p.live_version_id
        WHERE p.user_id = $1 AND p.id = $2 AND p.deleted_at IS NULL`,
      [userId, packId],
    )) as Array<{ live_version_id: string | null; document: PackDocument | null }>;
    if (!rows[0]) return { found: false, reason: 'pack_not_found' };
    const { live_version_id: versionId, document } = rows[0];
    if (!versionId || !document) return { found: false, reason: 'no_live_version' };
    return { found: true, packId, versionId, document };
  }
}
