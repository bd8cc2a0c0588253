import { Injectable } from '@nestjs/common';
import { isUuid, type AuditSettings, type PackDocument } from '@app/domain';
import { CacheInvalidation, type InvalidatedCache } from '@app/cache';
import { findLiveVersion } from '../statements/packs.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { HOT_PATH_CACHE } from './hot-path-cache.js';

export type LiveVersionLookup =
  | { found: true; packId: string; versionId: string; document: PackDocument; audit: AuditSettings }
  | { found: false; reason: 'pack_not_found' | 'no_live_version' };

const FOUND_ONLY = { keep: (lookup: LiveVersionLookup) => lookup.found };

/**
 * The hot path of judging: a pack's live version id and document, and its audit settings, read on
 * every judgment. Only found ones are kept (published documents never change), by `userId:packId`;
 * PackRepository invalidates an entry in the same method as every write that changes a live
 * version or the audit settings, or deletes a pack.
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
    const row = await this.sql.first(findLiveVersion, { userId, packId });
    if (!row) return { found: false, reason: 'pack_not_found' };
    const { liveVersionId: versionId, document, auditRate: rate, auditStrategy: strategy } = row;
    if (!versionId || !document) return { found: false, reason: 'no_live_version' };
    return { found: true, packId, versionId, document, audit: { rate, strategy } };
  }
}
