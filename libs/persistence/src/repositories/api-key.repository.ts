import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, type Repository } from 'typeorm';
import { isUuid, type Permission } from '@app/domain';
import { CacheInvalidation, HOT_PATH_CACHE } from '../cache/cache-invalidation.service.js';
import type { InvalidatedCache } from '../cache/invalidated-cache.js';
import { ApiKeyEntity } from '../entities/api-key.entity.js';

export interface NewApiKey {
  name: string;
  prefix: string;
  secretHash: string;
  permissions: Permission[];
}

/** API keys, scoped by owner for everything a user can do with them. */
@Injectable()
export class ApiKeyRepository {
  private readonly keys: Repository<ApiKeyEntity>;
  /** Active keys by secret hash, tagged by key id: rotate and revoke drop them in every process. */
  private readonly bySecretHash: InvalidatedCache<ApiKeyEntity | null>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.keys = dataSource.getRepository(ApiKeyEntity);
    this.bySecretHash = invalidation.register('api-keys', HOT_PATH_CACHE);
  }

  create(userId: string, key: NewApiKey): Promise<ApiKeyEntity> {
    return this.keys.save(
      this.keys.create({ id: randomUUID(), userId, ...key, lastUsedAt: null, revokedAt: null }),
    );
  }

  listActive(userId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { userId, revokedAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  findActive(userId: string, id: string): Promise<ApiKeyEntity | null> {
    return isUuid(id) ? this.keys.findOneBy({ id, userId, revokedAt: IsNull() }) : Promise.resolve(null);
  }

  /** Credential look-up: the only query not scoped by owner, since the owner is what it finds. */
  findActiveBySecretHash(secretHash: string): Promise<ApiKeyEntity | null> {
    return this.bySecretHash.get(secretHash, () => this.keys.findOneBy({ secretHash, revokedAt: IsNull() }), {
      tagOf: (key) => key!.id,
      keep: (key) => key !== null,
    });
  }

  /** Replaces the secret of an active key; returns the updated key or null when not found. */
  async replaceSecret(
    userId: string,
    id: string,
    prefix: string,
    secretHash: string,
  ): Promise<ApiKeyEntity | null> {
    if (!isUuid(id)) return null;
    const result = await this.keys.update({ id, userId, revokedAt: IsNull() }, { prefix, secretHash });
    if (!result.affected) return null;
    await this.invalidation.invalidate(this.bySecretHash, id);
    return this.findActive(userId, id);
  }

  async revoke(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.keys.update({ id, userId, revokedAt: IsNull() }, { revokedAt: new Date() });
    if (!result.affected) return false;
    await this.invalidation.invalidate(this.bySecretHash, id);
    return true;
  }

  /** Records use at most once a minute per key, so a hot key does not write on every request. */
  async touchLastUsed(id: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE api_keys SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [id],
    );
  }
}
