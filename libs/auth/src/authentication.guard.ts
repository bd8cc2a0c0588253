import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  BearerChallengeError,
  ForbiddenError,
  MissingPermissionError,
  RateLimitedError,
  UnauthenticatedError,
} from '@app/domain';
import { bearerChallenge, mcpResource, OAUTH_SCOPES, publicOrigin, TokenService } from '@app/oauth';
import { DailyRateLimiter, type RateLimitState } from './daily-rate-limiter.service.js';
import { ApiKeyService } from './api-key.service.js';
import { AUTH_METADATA, type AuthMetadata } from './authenticated.decorator.js';
import type { Principal } from './principal.js';
import { bearerToken, extractApiKey, SessionAuthGuard } from './strategies.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The one global guard. Every route declares @Authenticated or @Public; a request that carries an
 * API key is judged by the key alone (never by the session), key-only routes refuse sessions, and
 * the route's permission is checked last.
 */
@Injectable()
export class AuthenticationGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly apiKeys: ApiKeyService,
    private readonly sessionGuard: SessionAuthGuard,
    private readonly rateLimiter: DailyRateLimiter,
    private readonly oauthTokens: TokenService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<AuthMetadata | undefined>(AUTH_METADATA, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!requirement)
      throw new Error(`${context.getClass().name}.${context.getHandler().name} declares no authentication`);
    if (requirement.public) return true;

    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: Principal | false }>();
    const principal = await this.authenticate(
      context,
      request,
      http.getResponse<FastifyReply>(),
      requirement,
    );
    if (principal.kind === 'session') assertSameOrigin(request);
    if (requirement.permission && !principal.permissions.includes(requirement.permission)) {
      throw new MissingPermissionError(requirement.permission);
    }
    return true;
  }

  private async authenticate(
    context: ExecutionContext,
    request: FastifyRequest & { user?: Principal | false },
    reply: FastifyReply,
    requirement: AuthMetadata,
  ): Promise<Principal> {
    if (requirement.oauth) return (request.user = await this.authenticateBearer(request));
    const secret = requirement.sessionOnly ? null : extractApiKey(request);
    if (secret !== null) {
      // Keys are checked here directly rather than through a Passport strategy: this runs on every
      // keyed request, and Passport's per-request plumbing showed in the judge route's CPU profile.
      // Sessions still go through the Passport session strategy.
      const principal = secret ? await this.apiKeys.authenticate(secret) : null;
      if (!principal || principal.kind !== 'apiKey') throw new UnauthenticatedError('invalid API key');
      request.user = principal;
      await this.countRequest(principal.keyId, reply);
      return principal;
    }
    if (requirement.keyOnly) throw new UnauthenticatedError('API key required');
    await this.sessionGuard.canActivate(context);
    if (!request.user) {
      throw new UnauthenticatedError(requirement.sessionOnly ? 'sign in required' : 'API key required');
    }
    return request.user;
  }

  /**
   * An OAuth access token for this origin's MCP resource, from `Authorization: Bearer` only. No
   * token (an API key header or a cookie counts as none) gets the bare challenge; a bearer value
   * that is not a live token of ours for this resource gets `error="invalid_token"` (RFC 6750).
   * Both carry `scope`: the scopes to ask for (all six, as a session holds), which MCP clients take
   * first when choosing what to request (the MCP specification's scope selection strategy).
   */
  private async authenticateBearer(request: FastifyRequest): Promise<Principal> {
    const origin = publicOrigin(this.config, request);
    const token = bearerToken(request);
    if (!token)
      throw new BearerChallengeError('access token required', bearerChallenge(origin, OAUTH_SCOPES));
    const check = await this.oauthTokens.verify(token, mcpResource(origin));
    if (!check.ok) {
      throw new BearerChallengeError(
        'invalid access token',
        bearerChallenge(origin, OAUTH_SCOPES, { code: 'invalid_token', description: check.reason }),
      );
    }
    const { userId, clientId, grantId, scopes } = check.token;
    return { kind: 'oauth', userId, clientId, grantId, permissions: scopes };
  }

  private async countRequest(keyId: string, reply: FastifyReply): Promise<void> {
    try {
      setRateLimitHeaders(reply, await this.rateLimiter.consume({ apiKey: keyId }));
    } catch (error) {
      if (error instanceof RateLimitedError) {
        setRateLimitHeaders(reply, this.rateLimiter.state(0, error.retryAfterSeconds * 1000));
      }
      throw error;
    }
  }
}

/** IETF draft-ietf-httpapi-ratelimit-headers: the policy (quota, window) and the current state. */
function setRateLimitHeaders(reply: FastifyReply, state: RateLimitState): void {
  reply.header('RateLimit-Policy', `"daily";q=${state.limit};w=${state.windowSeconds}`);
  reply.header('RateLimit', `"daily";r=${state.remaining};t=${state.resetSeconds}`);
}

/**
 * Session-authenticated writes must come from this origin. Bodies are JSON only (other content
 * types get 415), which a cross-site form cannot send; Origin and Sec-Fetch-Site close the rest.
 */
function assertSameOrigin(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers['sec-fetch-site'] === 'cross-site')
    throw new ForbiddenError('cross-site request refused');
  const origin = request.headers.origin;
  if (origin && origin !== `${request.protocol}://${request.host}`)
    throw new ForbiddenError('cross-site request refused');
}
