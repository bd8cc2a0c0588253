import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { Permission } from '@app/domain';
import { CacheInvalidation, type InvalidatedCache } from '@app/cache';
import { OAuthGrantEntity, OAuthTokenEntity } from '../entities/oauth.entity.js';
import { HOT_PATH_CACHE } from './hot-path-cache.js';

export interface ActiveAccessToken {
  grant: OAuthGrantEntity;
  scopes: Permission[];
  expiresAt: Date;
}

const LIVE_TOKENS = {
  tagOf: (token: ActiveAccessToken | null) => token!.grant.id,
  keep: (token: ActiveAccessToken | null) => token !== null,
};

/**
 * OAuth access tokens of live grants by token hash, tagged by grant, checked on every MCP request.
 * Unknown tokens are not kept, so issuing needs no invalidation; OAuthRepository invalidates a grant
 * in the same method as every write that revokes it or deletes one of its tokens.
 */
@Injectable()
export class AccessTokenLookup {
  private readonly cache: InvalidatedCache<ActiveAccessToken | null>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly invalidation: CacheInvalidation,
  ) {
    this.cache = invalidation.register('oauth-access-tokens', HOT_PATH_CACHE);
  }

  findActive(tokenHash: string): Promise<ActiveAccessToken | null> {
    return this.cache.get(tokenHash, () => this.load(tokenHash), LIVE_TOKENS);
  }

  /** After a write to the grant or one of its tokens committed: drops its tokens in every process. */
  invalidateGrant(grantId: string): Promise<void> {
    return this.invalidation.invalidate(this.cache, grantId);
  }

  private async load(tokenHash: string): Promise<ActiveAccessToken | null> {
    const token = await this.dataSource
      .getRepository(OAuthTokenEntity)
      .findOneBy({ tokenHash, kind: 'access' });
    if (!token) return null;
    const grant = await this.dataSource.getRepository(OAuthGrantEntity).findOneBy({ id: token.grantId });
    return grant && !grant.revokedAt ? { grant, scopes: token.scopes, expiresAt: token.expiresAt } : null;
  }
}
