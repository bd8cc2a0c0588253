import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, IsNull, type Repository } from 'typeorm';
import { CacheInvalidation, type InvalidatedCache } from '@app/cache';
import { ApiKeyEntity } from '../entities/api-key.entity.js';
import { HOT_PATH_CACHE } from './hot-path-cache.js';

const ACTIVE_KEYS = {
  tagOf: (key: ApiKeyEntity | null) => key!.id,
  keep: (key: ApiKeyEntity | null) => key !== null,
};

/**
 * The credential look-up of every API request: active keys by secret hash, tagged by key id. Unknown
 * hashes are not kept, so a new key needs no invalidation; ApiKeyRepository invalidates a key in the
 * same method as every write that replaces its secret or revokes it.
 */
@Injectable()
export class ApiKeyLookup {
  private readonly keys: Repository<ApiKeyEntity>;
  private readonly cache: InvalidatedCache<ApiKeyEntity | null>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.keys = dataSource.getRepository(ApiKeyEntity);
    this.cache = invalidation.register('api-keys', HOT_PATH_CACHE);
  }

  /** The only key query not scoped by owner, since the owner is what it finds. */
  findActive(secretHash: string): Promise<ApiKeyEntity | null> {
    return this.cache.get(
      secretHash,
      () => this.keys.findOneBy({ secretHash, revokedAt: IsNull() }),
      ACTIVE_KEYS,
    );
  }

  /** After a write to the key committed: drops it, under every secret hash, in every process. */
  invalidate(keyId: string): Promise<void> {
    return this.invalidation.invalidate(this.cache, keyId);
  }
}
