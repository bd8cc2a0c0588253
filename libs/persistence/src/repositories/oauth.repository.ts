import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import type { Permission } from '@app/domain';
import { AccessTokenLookup } from '../cache/access-token.lookup.js';
import {
  OAuthApprovedHostEntity,
  OAuthClientEntity,
  OAuthCodeEntity,
  OAuthGrantEntity,
  OAuthTokenEntity,
} from '../entities/oauth.entity.js';
import {
  connectedClients,
  insertCode,
  insertGrant,
  markClientAuthorized,
  purgeExpiredCodes,
  purgeExpiredTokens,
  purgeRevokedGrants,
  purgeUnapprovedClients,
  recordApprovedHost,
  redeemCode,
  redeemRefreshToken,
  revokeClientGrants,
  revokeGrant,
  touchGrant,
  upsertDocumentClient,
} from '../statements/oauth.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

/** How long a registered client may wait for its first approval before it is purged. */
export const UNAPPROVED_CLIENT_TTL_HOURS = 24;

export type NewOAuthClient = Omit<OAuthClientEntity, 'createdAt' | 'lastAuthorizedAt'>;
export type NewOAuthGrant = Pick<OAuthGrantEntity, 'id' | 'userId' | 'clientId' | 'scopes' | 'resource'>;
export type NewOAuthCode = Omit<OAuthCodeEntity, 'usedAt'>;
/** A client of a client ID metadata document, as its document describes it (always public). */
export type DocumentClient = Pick<OAuthClientEntity, 'id' | 'name' | 'redirectUris' | 'metadata'>;

/** What else an approval records: the host it was from, and a document client's row. */
export interface ApprovalRecord {
  host: string;
  documentClient?: DocumentClient;
}
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
  private readonly codes: Repository<OAuthCodeEntity>;
  private readonly tokens: Repository<OAuthTokenEntity>;
  private readonly approvedHosts: Repository<OAuthApprovedHostEntity>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly accessTokens: AccessTokenLookup,
    private readonly sql: PreparedSql,
  ) {
    this.clients = dataSource.getRepository(OAuthClientEntity);
    this.grants = dataSource.getRepository(OAuthGrantEntity);
    this.codes = dataSource.getRepository(OAuthCodeEntity);
    this.tokens = dataSource.getRepository(OAuthTokenEntity);
    this.approvedHosts = dataSource.getRepository(OAuthApprovedHostEntity);
  }

  async createClient(client: NewOAuthClient): Promise<OAuthClientEntity> {
    return this.clients.save(this.clients.create({ ...client, lastAuthorizedAt: null }));
  }

  findClient(id: string): Promise<OAuthClientEntity | null> {
    return this.clients.findOneBy({ id });
  }

  /**
   * A new grant and its first code, together or not at all, with the approval's host; a document
   * client's row is stored (or refreshed) first, as the grant refers to it.
   */
  async createGrant(grant: NewOAuthGrant, code: NewOAuthCode, approval: ApprovalRecord): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      if (approval.documentClient) await this.sql.query(upsertDocumentClient, approval.documentClient, tx);
      await this.sql.query(insertGrant, grant, tx);
      await this.sql.query(recordApprovedHost, { userId: grant.userId, host: approval.host }, tx);
      await this.sql.query(insertCode, code, tx);
      await this.sql.query(markClientAuthorized, { clientId: grant.clientId }, tx);
    });
  }

  /** Whether the user has ever approved a client from this host. */
  hasApprovedHost(userId: string, host: string): Promise<boolean> {
    return this.approvedHosts.existsBy({ userId, host });
  }

  /** Marks a code used; a code used before reports its grant, so the caller can revoke it. */
  async redeemCode(codeHash: string): Promise<Redemption<OAuthCodeEntity>> {
    const redeemed = await this.sql.first(redeemCode, { codeHash });
    if (!redeemed) return this.reuseOf(await this.codes.findOneBy({ codeHash }));
    const grant = await this.grants.findOneBy({ id: redeemed.grantId });
    if (!grant) return { outcome: 'unknown' };
    return { outcome: 'redeemed', value: { codeHash, ...redeemed }, grant };
  }

  /** A refresh token as it stands, without using it up (for checks that must not cost the client its token). */
  async findRefreshToken(
    tokenHash: string,
  ): Promise<{ scopes: Permission[]; expiresAt: Date; used: boolean; grant: OAuthGrantEntity } | null> {
    const token = await this.tokens.findOneBy({ tokenHash, kind: 'refresh' });
    const grant = token ? await this.grants.findOneBy({ id: token.grantId }) : null;
    if (!token || !grant) return null;
    return { scopes: token.scopes, expiresAt: token.expiresAt, used: token.usedAt !== null, grant };
  }

  /** Marks a refresh token used (rotation); one used before reports its grant. */
  async redeemRefreshToken(
    tokenHash: string,
  ): Promise<Redemption<{ expiresAt: Date; scopes: Permission[] }>> {
    const redeemed = await this.sql.first(redeemRefreshToken, { tokenHash });
    if (!redeemed) return this.reuseOf(await this.tokens.findOneBy({ tokenHash, kind: 'refresh' }));
    const grant = await this.grants.findOneBy({ id: redeemed.grantId });
    if (!grant) return { outcome: 'unknown' };
    return { outcome: 'redeemed', value: { expiresAt: redeemed.expiresAt, scopes: redeemed.scopes }, grant };
  }

  /** A one-time credential that was not redeemed now: used before (its grant), or never issued. */
  private reuseOf<T>(credential: { grantId: string } | null): Redemption<T> {
    return credential ? { outcome: 'reused', grantId: credential.grantId } : { outcome: 'unknown' };
  }

  async issueTokens(grantId: string, tokens: NewOAuthToken[]): Promise<void> {
    await this.tokens.insert(tokens.map((token) => ({ ...token, grantId, usedAt: null })));
  }

  findGrant(id: string): Promise<OAuthGrantEntity | null> {
    return this.grants.findOneBy({ id });
  }

  /** The grant a token (of either kind) belongs to, for revocation by token. */
  async findTokenGrant(tokenHash: string): Promise<{ grantId: string; kind: 'access' | 'refresh' } | null> {
    const token = await this.tokens.findOneBy({ tokenHash });
    return token ? { grantId: token.grantId, kind: token.kind } : null;
  }

  async deleteToken(tokenHash: string, grantId: string): Promise<void> {
    await this.tokens.delete({ tokenHash });
    await this.accessTokens.invalidateGrant(grantId);
  }

  /** Revokes a whole family: the grant, and with it every code and token issued from it. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.sql.query(revokeGrant, { grantId });
    await this.accessTokens.invalidateGrant(grantId);
  }

  /** Records use at most once a minute per grant. */
  async touchGrant(grantId: string): Promise<void> {
    await this.sql.query(touchGrant, { grantId });
  }

  /** The clients a user has live grants for, one row per client. */
  listConnectedClients(userId: string): Promise<ConnectedClientRow[]> {
    return this.sql.rows(connectedClients, { userId });
  }

  /** Revokes every grant of one client for one user; the ids revoked (empty: nothing was connected). */
  async revokeClientGrants(userId: string, clientId: string): Promise<string[]> {
    const rows = await this.sql.rows(revokeClientGrants, { userId, clientId });
    for (const row of rows) await this.accessTokens.invalidateGrant(row.id);
    return rows.map((row) => row.id);
  }

  /** Drops codes and tokens expired for a day, and grants revoked for a day; how many rows went. */
  async purgeExpired(): Promise<number> {
    const deleted = await Promise.all([
      this.sql.affected(purgeExpiredCodes, {}),
      this.sql.affected(purgeExpiredTokens, {}),
    ]);
    const grants = await this.sql.affected(purgeRevokedGrants, {});
    return [...deleted, grants].reduce((sum, count) => sum + count, 0);
  }

  /**
   * Drops clients no user ever approved, `UNAPPROVED_CLIENT_TTL_HOURS` after registration: open
   * registration must not grow the table for good. A client someone approved stays.
   */
  async purgeUnapprovedClients(): Promise<number> {
    return this.sql.affected(purgeUnapprovedClients, { hours: UNAPPROVED_CLIENT_TTL_HOURS });
  }
}
