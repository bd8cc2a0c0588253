import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, IsNull, type Repository } from 'typeorm';
import { isUuid, type Permission } from '@app/domain';
import { ApiKeyLookup } from '../cache/api-key.lookup.js';
import { ApiKeyEntity } from '../entities/api-key.entity.js';
import { touchApiKey } from '../statements/api-keys.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

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

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly lookup: ApiKeyLookup,
    private readonly sql: PreparedSql,
  ) {
    this.keys = dataSource.getRepository(ApiKeyEntity);
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
    await this.lookup.invalidate(id);
    return this.findActive(userId, id);
  }

  async revoke(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const result = await this.keys.update({ id, userId, revokedAt: IsNull() }, { revokedAt: new Date() });
    if (!result.affected) return false;
    await this.lookup.invalidate(id);
    return true;
  }

  /** Records use at most once a minute per key, so a hot key does not write on every request. */
  async touchLastUsed(id: string): Promise<void> {
    await this.sql.query(touchApiKey, { id });
  }
}
