import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import type { Permission } from '@app/domain';
import { AccessTokenLookup } from '../cache/access-token.lookup.js';
import {
  OAuthClientEntity,
  OAuthCodeEntity,
  OAuthGrantEntity,
  OAuthTokenEntity,
} from '../entities/oauth.entity.js';

export type NewOAuthClient = Omit<OAuthClientEntity, 'createdAt'>;
export type NewOAuthGrant = Pick<OAuthGrantEntity, 'id' | 'userId' | 'clientId' | 'scopes' | 'resource'>;
export type NewOAuthCode = Omit<OAuthCodeEntity, 'usedAt'>;
export interface NewOAuthToken {
  tokenHash: string;
  kind: 'access' | 'refresh';
  scopes: Permission[];
  expiresAt: Date;
}

/** What a one-time credential (a code or a refresh token) turned out to be when it was presented. */
export type Redemption<T> =
  | { outcome: 'redeemed'; value: T; grant: OAuthGrantEntity }
  | { outcome: 'reused'; grantId: string }
  | { outcome: 'unknown' };

export interface ConnectedClientRow {
  clientId: string;
  name: string;
  scopes: Permission[];
  connectedAt: Date;
  lastUsedAt: Date | null;
}

/**
 * Clients, grants, codes and tokens of the OAuth authorization server. Each one-time step (a code
 * exchanged, a refresh token rotated) is one conditional UPDATE, so of two racing uses one wins
 * and the other is seen as reuse.
 */
@Injectable()
export class OAuthRepository {
  private readonly clients: Repository<OAuthClientEntity>;
  private readonly grants: Repository<OAuthGrantEntity>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accessTokens: AccessTokenLookup,
  ) {
    this.clients = dataSource.getRepository(OAuthClientEntity);
    this.grants = dataSource.getRepository(OAuthGrantEntity);
  }

  async createClient(client: NewOAuthClient): Promise<OAuthClientEntity> {
    return this.clients.save(this.clients.create(client));
  }

  findClient(id: string): Promise<OAuthClientEntity | null> {
    return this.clients.findOneBy({ id });
  }

  /** A new grant and its first code, together or not at all. */
  async createGrant(grant: NewOAuthGrant, code: NewOAuthCode): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      await tx.getRepository(OAuthGrantEntity).insert({ ...grant, lastUsedAt: null, revokedAt: null });
      await tx.getRepository(OAuthCodeEntity).insert({ ...code, usedAt: null });
    });
  }

  /** Marks a code used; a code used before reports its grant, so the caller can revoke it. */
  async redeemCode(codeHash: string): Promise<Redemption<OAuthCodeEntity>> {
    // TypeORM answers an UPDATE on Postgres with [rows, affected].
    const [rows]: [
      Array<{ grant_id: string; redirect_uri: string; code_challenge: string; expires_at: Date }>,
      number,
    ] = await this.dataSource.query(
      `UPDATE oauth_codes SET used_at = now() WHERE code_hash = $1 AND used_at IS NULL
         RETURNING grant_id, redirect_uri, code_challenge, expires_at`,
      [codeHash],
    );
    if (!rows.length) return this.reuseOf('oauth_codes', 'code_hash', codeHash);
    const [row] = rows;
    const grant = await this.grants.findOneBy({ id: row.grant_id });
    if (!grant) return { outcome: 'unknown' };
    const code: OAuthCodeEntity = {
      codeHash,
      grantId: row.grant_id,
      redirectUri: row.redirect_uri,
      codeChallenge: row.code_challenge,
      expiresAt: row.expires_at,
      usedAt: new Date(),
    };
    return { outcome: 'redeemed', value: code, grant };
  }

  /** Marks a refresh token used (rotation); one used before reports its grant. */
  async redeemRefreshToken(
    tokenHash: string,
  ): Promise<Redemption<{ expiresAt: Date; scopes: Permission[] }>> {
    const [rows]: [Array<{ grant_id: string; expires_at: Date; scopes: Permission[] }>, number] =
      await this.dataSource.query(
        `UPDATE oauth_tokens SET used_at = now() WHERE token_hash = $1 AND kind = 'refresh' AND used_at IS NULL
       RETURNING grant_id, expires_at, scopes`,
        [tokenHash],
      );
    if (!rows.length) return this.reuseOf('oauth_tokens', 'token_hash', tokenHash, `AND kind = 'refresh'`);
    const grant = await this.grants.findOneBy({ id: rows[0].grant_id });
    if (!grant) return { outcome: 'unknown' };
    return { outcome: 'redeemed', value: { expiresAt: rows[0].expires_at, scopes: rows[0].scopes }, grant };
  }

  private async reuseOf<T>(
    table: 'oauth_codes' | 'oauth_tokens',
    column: 'code_hash' | 'token_hash',
    hash: string,
    extra = '',
  ): Promise<Redemption<T>> {
    const rows: Array<{ grant_id: string }> = await this.dataSource.query(
      `SELECT grant_id FROM ${table} WHERE ${column} = $1 ${extra}`,
      [hash],
    );
    return rows.length ? { outcome: 'reused', grantId: rows[0].grant_id } : { outcome: 'unknown' };
  }

  async issueTokens(grantId: string, tokens: NewOAuthToken[]): Promise<void> {
    await this.dataSource
      .getRepository(OAuthTokenEntity)
      .insert(tokens.map((token) => ({ ...token, grantId, usedAt: null })));
  }

  findGrant(id: string): Promise<OAuthGrantEntity | null> {
    return this.grants.findOneBy({ id });
  }

  /** The grant a token (of either kind) belongs to, for revocation by token. */
  async findTokenGrant(tokenHash: string): Promise<{ grantId: string; kind: 'access' | 'refresh' } | null> {
    const token = await this.dataSource.getRepository(OAuthTokenEntity).findOneBy({ tokenHash });
    return token ? { grantId: token.grantId, kind: token.kind } : null;
  }

  async deleteToken(tokenHash: string, grantId: string): Promise<void> {
    await this.dataSource.getRepository(OAuthTokenEntity).delete({ tokenHash });
    await this.accessTokens.invalidateGrant(grantId);
  }

  /** Revokes a whole family: the grant, and with it every code and token issued from it. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE oauth_grants SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`,
      [grantId],
    );
    await this.accessTokens.invalidateGrant(grantId);
  }

  /** Records use at most once a minute per grant. */
  async touchGrant(grantId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE oauth_grants SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [grantId],
    );
  }

  /** The clients a user has live grants for, one row per client. */
  async listConnectedClients(userId: string): Promise<ConnectedClientRow[]> {
    const rows: Array<{
      client_id: string;
      name: string;
      scopes: Permission[];
      connected_at: Date;
      last_used_at: Date | null;
    }> = await this.dataSource.query(
      `SELECT c.id AS client_id, c.name,
              array(SELECT DISTINCT s FROM oauth_grants g2, unnest(g2.scopes) s
                     WHERE g2.user_id = $1 AND g2.client_id = c.id AND g2.revoked_at IS NULL ORDER BY s) AS scopes,
              min(g.created_at) AS connected_at, max(g.last_used_at) AS last_used_at
         FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
        WHERE g.user_id = $1 AND g.revoked_at IS NULL
        GROUP BY c.id, c.name
        ORDER BY min(g.created_at) DESC`,
      [userId],
    );
    return rows.map((row) => ({
      clientId: row.client_id,
      name: row.name,
      scopes: row.scopes,
      connectedAt: row.connected_at,
      lastUsedAt: row.last_used_at,
    }));
  }

  /** Revokes every grant of one client for one user; the ids revoked (empty: nothing was connected). */
  async revokeClientGrants(userId: string, clientId: string): Promise<string[]> {
    const [rows]: [Array<{ id: string }>, number] = await this.dataSource.query(
      `UPDATE oauth_grants SET revoked_at = now()
        WHERE user_id = $1 AND client_id = $2 AND revoked_at IS NULL RETURNING id`,
      [userId, clientId],
    );
    for (const row of rows) await this.accessTokens.invalidateGrant(row.id);
    return rows.map((row) => row.id);
  }

  /** Drops codes and tokens expired for a day, and grants revoked for a day. */
  async purgeExpired(): Promise<void> {
    await this.dataSource.query(`DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`);
    await this.dataSource.query(`DELETE FROM oauth_tokens WHERE expires_at < now() - interval '1 day'`);
    await this.dataSource.query(`DELETE FROM oauth_grants WHERE revoked_at < now() - interval '1 day'`);
  }
}
