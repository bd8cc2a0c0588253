import type { Permission } from '@app/domain';
import { defineStatement } from './statement.js';

/** Marks a code used; a row only for its first use (of two racing uses, one wins). */
export const redeemCode = defineStatement<
  { codeHash: string },
  { grantId: string; redirectUri: string; codeChallenge: string; expiresAt: Date; usedAt: Date }
>({
  name: 'oauth.redeemCode',
  sql: `
    UPDATE oauth_codes SET used_at = now() WHERE code_hash = :codeHash AND used_at IS NULL
    RETURNING grant_id AS "grantId", redirect_uri AS "redirectUri", code_challenge AS "codeChallenge",
              expires_at AS "expiresAt", used_at AS "usedAt"`,
});

/** Marks a refresh token used (rotation); a row only for its first use. */
export const redeemRefreshToken = defineStatement<
  { tokenHash: string },
  { grantId: string; expiresAt: Date; scopes: Permission[] }
>({
  name: 'oauth.redeemRefreshToken',
  sql: `
    UPDATE oauth_tokens SET used_at = now() WHERE token_hash = :tokenHash AND kind = 'refresh' AND used_at IS NULL
    RETURNING grant_id AS "grantId", expires_at AS "expiresAt", scopes`,
});

/** Records use at most once a minute per grant. */
export const touchGrant = defineStatement<{ grantId: string }>({
  name: 'oauth.touchGrant',
  sql: `
    UPDATE oauth_grants SET last_used_at = now()
     WHERE id = :grantId AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
});

/** The clients a user has live grants for, one row per client, newest connection first. */
export const connectedClients = defineStatement<
  { userId: string },
  { clientId: string; name: string; scopes: Permission[]; connectedAt: Date; lastUsedAt: Date | null }
>({
  name: 'oauth.connectedClients',
  sql: `
    SELECT c.id AS "clientId", c.name,
           array(SELECT DISTINCT s FROM oauth_grants g2, unnest(g2.scopes) s
                  WHERE g2.user_id = :userId AND g2.client_id = c.id AND g2.revoked_at IS NULL ORDER BY s) AS scopes,
           min(g.created_at) AS "connectedAt", max(g.last_used_at) AS "lastUsedAt"
      FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id
     WHERE g.user_id = :userId AND g.revoked_at IS NULL
     GROUP BY c.id, c.name
     ORDER BY min(g.created_at) DESC`,
});

/** Revokes every live grant of one client for one user; the ids revoked. */
export const revokeClientGrants = defineStatement<{ userId: string; clientId: string }, { id: string }>({
  name: 'oauth.revokeClientGrants',
  sql: `
    UPDATE oauth_grants SET revoked_at = now()
     WHERE user_id = :userId AND client_id = :clientId AND revoked_at IS NULL RETURNING id`,
});

/** A new grant (one user's approval of one client); its first code goes with it. */
export const insertGrant = defineStatement<{
  id: string;
  userId: string;
  clientId: string;
  scopes: Permission[];
  resource: string;
}>({
  name: 'oauth.insertGrant',
  sql: `
    INSERT INTO oauth_grants (id, user_id, client_id, scopes, resource)
    VALUES (:id, :userId, :clientId, :scopes, :resource)`,
});

export const insertCode = defineStatement<{
  codeHash: string;
  grantId: string;
  redirectUri: string;
  codeChallenge: string;
  expiresAt: Date;
}>({
  name: 'oauth.insertCode',
  sql: `
    INSERT INTO oauth_codes (code_hash, grant_id, redirect_uri, code_challenge, expires_at)
    VALUES (:codeHash, :grantId, :redirectUri, :codeChallenge, :expiresAt)`,
});

/**
 * A client of a metadata document as last fetched, stored when a user approves it (its grants need
 * the row); approved again, the row takes the document's newer name, redirect URIs and metadata.
 */
export const upsertDocumentClient = defineStatement<{
  id: string;
  name: string;
  redirectUris: string[];
  metadata: Record<string, unknown>;
}>({
  name: 'oauth.upsertDocumentClient',
  json: ['metadata'],
  sql: `
    INSERT INTO oauth_clients (id, name, redirect_uris, token_endpoint_auth_method, secret_hash, metadata)
    VALUES (:id, :name, :redirectUris, 'none', NULL, :metadata::jsonb)
    ON CONFLICT (id) DO UPDATE
       SET name = excluded.name, redirect_uris = excluded.redirect_uris, metadata = excluded.metadata`,
});

/** The host of an approval, the first time this user approves a client from it. */
export const recordApprovedHost = defineStatement<{ userId: string; host: string }>({
  name: 'oauth.recordApprovedHost',
  sql: `
    INSERT INTO oauth_approved_hosts (user_id, host) VALUES (:userId, :host)
    ON CONFLICT (user_id, host) DO NOTHING`,
});

/** A client someone approved is kept by the purge of unapproved clients. */
export const markClientAuthorized = defineStatement<{ clientId: string }>({
  name: 'oauth.markClientAuthorized',
  sql: `UPDATE oauth_clients SET last_authorized_at = now() WHERE id = :clientId`,
});

export const revokeGrant = defineStatement<{ grantId: string }>({
  name: 'oauth.revokeGrant',
  sql: `UPDATE oauth_grants SET revoked_at = now() WHERE id = :grantId AND revoked_at IS NULL`,
});

export const purgeExpiredCodes = defineStatement({
  name: 'oauth.purgeExpiredCodes',
  sql: `DELETE FROM oauth_codes WHERE expires_at < now() - interval '1 day'`,
});

export const purgeExpiredTokens = defineStatement({
  name: 'oauth.purgeExpiredTokens',
  sql: `DELETE FROM oauth_tokens WHERE expires_at < now() - interval '1 day'`,
});

export const purgeRevokedGrants = defineStatement({
  name: 'oauth.purgeRevokedGrants',
  sql: `DELETE FROM oauth_grants WHERE revoked_at < now() - interval '1 day'`,
});

/** Clients never approved, `hours` after registration. */
export const purgeUnapprovedClients = defineStatement<{ hours: number }>({
  name: 'oauth.purgeUnapprovedClients',
  sql: `
    DELETE FROM oauth_clients
     WHERE last_authorized_at IS NULL AND created_at < now() - make_interval(hours => :hours)`,
});
