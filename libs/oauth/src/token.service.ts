import { Injectable } from '@nestjs/common';
import type { Permission } from '@app/domain';
import {
  AccessTokenLookup,
  OAuthRepository,
  type OAuthClientEntity,
  type OAuthGrantEntity,
} from '@app/persistence';
import { hashCredential, newCredential } from './credentials.js';
import { OAuthError } from './oauth-error.js';
import { verifiesChallenge } from './pkce.js';
import { parseScopes } from './scopes.js';

export const ACCESS_TOKEN_TTL_SECONDS = 3600;
export const REFRESH_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

/** The token endpoint's answer (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export type TokenRequest = Partial<
  Record<
    'grant_type' | 'code' | 'redirect_uri' | 'code_verifier' | 'refresh_token' | 'scope' | 'resource',
    string
  >
>;

/** Who an access token speaks for, once verified. */
export interface VerifiedAccessToken {
  userId: string;
  clientId: string;
  grantId: string;
  scopes: readonly Permission[];
  expiresAt: Date;
}

export type AccessTokenCheck = { ok: true; token: VerifiedAccessToken } | { ok: false; reason: string };

const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

/**
 * The token endpoint (authorization code with PKCE, rotating refresh tokens), revocation (RFC
 * 7009) and access-token verification for the MCP endpoint. Reusing a code or a refresh token
 * revokes its whole grant: whoever replays it, thief or victim, leaves nothing usable behind.
 */
@Injectable()
export class TokenService {
  /** When this process last recorded each grant's use: at most one write a minute per grant. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly repository: OAuthRepository,
    private readonly accessTokens: AccessTokenLookup,
  ) {}

  private touch(grantId: string): void {
    const now = Date.now();
    if (now - (this.touched.get(grantId) ?? 0) < 60_000) return;
    if (this.touched.size > 10_000) this.touched.clear();
    this.touched.set(grantId, now);
    void this.repository.touchGrant(grantId).catch(() => undefined);
  }

  async exchange(client: OAuthClientEntity, request: TokenRequest): Promise<TokenResponse> {
    switch (request.grant_type) {
      case 'authorization_code':
        return this.exchangeCode(client, request);
      case 'refresh_token':
        return this.refresh(client, request);
      case undefined:
        throw new OAuthError('invalid_request', 'grant_type is required');
      default:
        throw new OAuthError(
          'unsupported_grant_type',
          'grant_type must be authorization_code or refresh_token',
        );
    }
  }

  private async exchangeCode(client: OAuthClientEntity, request: TokenRequest): Promise<TokenResponse> {
    if (!request.code || !request.code_verifier) {
      throw new OAuthError('invalid_request', 'code and code_verifier are required');
    }
    const redemption = await this.repository.redeemCode(hashCredential(request.code));
    if (redemption.outcome === 'reused') {
      await this.repository.revokeGrant(redemption.grantId);
      throw invalidGrant('the authorization code was already used; what it issued is revoked');
    }
    if (redemption.outcome === 'unknown') throw invalidGrant('unknown authorization code');
    const { value: code, grant } = redemption;
    if (grant.revokedAt || code.expiresAt.getTime() < Date.now())
      throw invalidGrant('the authorization code expired');
    if (grant.clientId !== client.id)
      throw invalidGrant('the authorization code was issued to another client');
    if (request.redirect_uri !== undefined && request.redirect_uri !== code.redirectUri) {
      throw invalidGrant('redirect_uri does not match the authorization request');
    }
    if (!verifiesChallenge(request.code_verifier, code.codeChallenge)) {
      throw invalidGrant('code_verifier does not match the code challenge');
    }
    checkResource(request, grant);
    return this.issue(grant, grant.scopes);
  }

  private async refresh(client: OAuthClientEntity, request: TokenRequest): Promise<TokenResponse> {
    if (!request.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is required');
    const tokenHash = hashCredential(request.refresh_token);
    // Scope and resource are checked before the token is used up: a refusal for them leaves the
    // token good for a plain retry, which would otherwise look like reuse and revoke the grant.
    const presented = await this.repository.findRefreshToken(tokenHash);
    const redeemable =
      presented &&
      !presented.used &&
      !presented.grant.revokedAt &&
      presented.grant.clientId === client.id &&
      presented.expiresAt.getTime() >= Date.now();
    if (redeemable) {
      checkResource(request, presented.grant);
      narrowedScopes(request, presented.scopes);
    }
    const redemption = await this.repository.redeemRefreshToken(tokenHash);
    if (redemption.outcome === 'reused') {
      await this.repository.revokeGrant(redemption.grantId);
      throw invalidGrant('the refresh token was already used; its grant is revoked');
    }
    if (redemption.outcome === 'unknown') throw invalidGrant('unknown refresh token');
    const { grant, value } = redemption;
    if (grant.revokedAt) throw invalidGrant('the grant was revoked');
    if (value.expiresAt.getTime() < Date.now()) throw invalidGrant('the refresh token expired');
    if (grant.clientId !== client.id) {
      await this.repository.revokeGrant(grant.id);
      throw invalidGrant('the refresh token was issued to another client');
    }
    checkResource(request, grant);
    return this.issue(grant, narrowedScopes(request, value.scopes));
  }

  private async issue(grant: OAuthGrantEntity, scopes: Permission[]): Promise<TokenResponse> {
    const access = newCredential('tj_at_');
    const refresh = newCredential('tj_rt_');
    const now = Date.now();
    await this.repository.issueTokens(grant.id, [
      {
        tokenHash: hashCredential(access),
        kind: 'access',
        scopes,
        expiresAt: new Date(now + ACCESS_TOKEN_TTL_SECONDS * 1000),
      },
      {
        tokenHash: hashCredential(refresh),
        kind: 'refresh',
        scopes,
        expiresAt: new Date(now + REFRESH_TOKEN_TTL_SECONDS * 1000),
      },
    ]);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_SECONDS,
      refresh_token: refresh,
      scope: scopes.join(' '),
    };
  }

  /** RFC 7009: revoking a refresh token ends its grant; an access token ends alone. Unknown tokens are fine. */
  async revoke(client: OAuthClientEntity, token: string | undefined): Promise<void> {
    if (!token) throw new OAuthError('invalid_request', 'token is required');
    const hash = hashCredential(token);
    const found = await this.repository.findTokenGrant(hash);
    if (!found) return;
    const grant = await this.repository.findGrant(found.grantId);
    if (!grant || grant.clientId !== client.id) return;
    if (found.kind === 'refresh') await this.repository.revokeGrant(found.grantId);
    else await this.repository.deleteToken(hash, found.grantId);
  }

  /** Checks a bearer token for the MCP endpoint: known, live, unexpired, and issued for `resource`. */
  async verify(token: string, resource: string): Promise<AccessTokenCheck> {
    if (!token.startsWith('tj_at_')) return { ok: false, reason: 'not an access token of this server' };
    const found = await this.accessTokens.findActive(hashCredential(token));
    if (!found) return { ok: false, reason: 'unknown or revoked access token' };
    if (found.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'the access token expired' };
    if (found.grant.resource !== resource)
      return { ok: false, reason: 'the access token is for another resource' };
    this.touch(found.grant.id);
    return {
      ok: true,
      token: {
        userId: found.grant.userId,
        clientId: found.grant.clientId,
        grantId: found.grant.id,
        scopes: found.scopes,
        expiresAt: found.expiresAt,
      },
    };
  }
}

/** A refresh may narrow the scopes, never widen them (RFC 6749 §6); none asked: the same as before. */
function narrowedScopes(request: TokenRequest, approved: Permission[]): Permission[] {
  const scopes = request.scope === undefined ? approved : parseScopes(request.scope);
  if (scopes.some((scope) => !approved.includes(scope))) {
    throw new OAuthError('invalid_scope', 'a refresh cannot add scopes the user did not approve');
  }
  return scopes;
}

/** RFC 8707 at the token endpoint: a `resource` sent must be the one the grant is for. */
function checkResource(request: TokenRequest, grant: OAuthGrantEntity): void {
  if (request.resource !== undefined && request.resource !== grant.resource) {
    throw new OAuthError('invalid_target', `resource must be ${grant.resource}`);
  }
}
