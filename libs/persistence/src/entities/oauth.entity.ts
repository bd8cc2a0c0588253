import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';
import type { Permission } from '@app/domain';

/** A client registered by dynamic client registration (RFC 7591); public unless it chose a secret. */
@Entity('oauth_clients')
export class OAuthClientEntity {
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  name: string;

  @Column('text', { name: 'redirect_uris', array: true })
  redirectUris: string[];

  @Column('text', { name: 'token_endpoint_auth_method' })
  tokenEndpointAuthMethod: 'none' | 'client_secret_post' | 'client_secret_basic';

  @Column('text', { name: 'secret_hash', nullable: true })
  secretHash: string | null;

  /** The registered metadata as answered to the client (without the secret). */
  @Column('jsonb')
  metadata: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When a user last approved the client; null: never, and purged a day after registration. */
  @Column('timestamptz', { name: 'last_authorized_at', nullable: true })
  lastAuthorizedAt: Date | null;
}

/** One user's approval of one client: every code and token issued from it dies with it. */
@Entity('oauth_grants')
export class OAuthGrantEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'user_id' })
  userId: string;

  @Column('text', { name: 'client_id' })
  clientId: string;

  @Column('text', { array: true })
  scopes: Permission[];

  @Column('text')
  resource: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column('timestamptz', { name: 'last_used_at', nullable: true })
  lastUsedAt: Date | null;

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;
}

/** A one-time authorization code, bound to its grant, redirect URI and PKCE challenge. */
@Entity('oauth_codes')
export class OAuthCodeEntity {
  @PrimaryColumn('text', { name: 'code_hash' })
  codeHash: string;

  @Column('uuid', { name: 'grant_id' })
  grantId: string;

  @Column('text', { name: 'redirect_uri' })
  redirectUri: string;

  @Column('text', { name: 'code_challenge' })
  codeChallenge: string;

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;
}

/** An access or refresh token; a refresh token is used once (rotation). */
@Entity('oauth_tokens')
export class OAuthTokenEntity {
  @PrimaryColumn('text', { name: 'token_hash' })
  tokenHash: string;

  @Column('uuid', { name: 'grant_id' })
  grantId: string;

  @Column('text')
  kind: 'access' | 'refresh';

  /** The grant's scopes, or fewer when a refresh narrowed them. */
  @Column('text', { array: true })
  scopes: Permission[];

  @Column('timestamptz', { name: 'expires_at' })
  expiresAt: Date;

  @Column('timestamptz', { name: 'used_at', nullable: true })
  usedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}

/** A host a user has approved an OAuth client from: one not here is marked new on the consent page. */
@Entity('oauth_approved_hosts')
export class OAuthApprovedHostEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('text')
  host: string;

  @CreateDateColumn({ name: 'first_approved_at', type: 'timestamptz' })
  firstApprovedAt: Date;
}
