import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import {
  ApiBadRequestResponse,
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public, SessionCookie } from '@app/auth';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  AuthorizationPageError,
  AuthorizationService,
  ClientRegistrationService,
  publicOrigin,
  TokenService,
  type RegisteredClient,
  type TokenResponse,
} from '@app/oauth';
import { sendPage, text } from '../pages/html.js';
import { authorizationParams, toQuery } from './authorization-params.js';
import { clientCredentials } from './client-credentials.js';
import { ACCEPTS_FORM, oauthForm } from './form-body.js';
import { OAuthExceptionFilter } from './oauth-exception.filter.js';
import {
  CLIENT_METADATA_SCHEMA,
  OAUTH_ERROR_SCHEMA,
  REVOCATION_REQUEST_SCHEMA,
  TOKEN_REQUEST_SCHEMA,
  TOKEN_RESPONSE_SCHEMA,
} from './oauth-schemas.js';

/**
 * The OAuth 2.1 authorization server of the MCP interface: dynamic client registration, the
 * authorization endpoint (which hands over to /login and /consent), the token endpoint and
 * revocation. Errors have the OAuth body. See docs/mcp.md.
 */
@ApiTags('oauth')
@Controller('oauth')
@Public()
@UseFilters(OAuthExceptionFilter)
export class OAuthController {
  constructor(
    private readonly registration: ClientRegistrationService,
    private readonly authorization: AuthorizationService,
    private readonly tokens: TokenService,
    private readonly sessionCookie: SessionCookie,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('register')
  @HttpCode(201)
  @ApiBody({ schema: CLIENT_METADATA_SCHEMA })
  @ApiCreatedResponse({
    description:
      'The registered client: `client_id` (and `client_secret`, once, for confidential clients) and the metadata kept.',
  })
  @ApiBadRequestResponse({
    description:
      'OAuth error body: `invalid_redirect_uri`, or `invalid_client_metadata` (also for control or format characters, such as bidi overrides or zero-width characters, in a displayed string like `client_name`)',
    schema: OAUTH_ERROR_SCHEMA,
  })
  @ApiTooManyRequestsResponse({
    description:
      'OAuth error body `temporarily_unavailable`, with `Retry-After`: more than 20 registrations from this IP in an hour, or more than `OAUTH_REGISTRATIONS_PER_HOUR` from all addresses',
    schema: OAUTH_ERROR_SCHEMA,
  })
  @ApiOperation({
    summary: 'Dynamic client registration (RFC 7591)',
    description:
      'Open to anyone, 20 registrations per client IP per hour and `OAUTH_REGISTRATIONS_PER_HOUR` (500 by default) from all addresses together. A client no user approves within 24 hours is deleted. Redirect URIs: https, http on a loopback host, or a private-use scheme in reverse-domain form. `token_endpoint_auth_method` `none` registers a public client (PKCE only); otherwise a `client_secret` is returned once.',
  })
  async register(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RegisteredClient> {
    void reply.header('cache-control', 'no-store');
    return this.registration.register(body, request.ip);
  }

  @Get('authorize')
  @ApiExcludeEndpoint()
  async authorize(@Query() query: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    try {
      const params = authorizationParams(query);
      await this.authorization.check(params, publicOrigin(this.config, request));
      const consent = `/consent?${toQuery(params)}`;
      const signedIn = await this.sessionCookie.read(request);
      return reply.redirect(signedIn ? consent : `/login?next=${encodeURIComponent(consent)}`, 302);
    } catch (error) {
      if (!(error instanceof AuthorizationPageError)) throw error;
      return sendPage(
        reply,
        400,
        'Cannot connect',
        `<h1>Cannot connect this application</h1><p class="error" role="alert">${text(error.description)}</p>`,
      );
    }
  }

  @Post('token')
  @HttpCode(200)
  @RouteConfig(ACCEPTS_FORM)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ schema: TOKEN_REQUEST_SCHEMA })
  @ApiOkResponse({ schema: TOKEN_RESPONSE_SCHEMA })
  @ApiBadRequestResponse({
    description:
      'OAuth error body: `invalid_request`, `invalid_grant`, `invalid_scope`, `invalid_target`, `unsupported_grant_type`',
    schema: OAUTH_ERROR_SCHEMA,
  })
  @ApiUnauthorizedResponse({ description: 'OAuth error body: `invalid_client`', schema: OAUTH_ERROR_SCHEMA })
  @ApiOperation({
    summary: 'Token endpoint: authorization_code (PKCE S256) and refresh_token grants',
    description:
      'Form-encoded only (`application/x-www-form-urlencoded`; any other body is `invalid_request`). A confidential client authenticates only with the `token_endpoint_auth_method` it registered (`client_secret_basic` or `client_secret_post`; the other way is `invalid_client`). Access tokens last an hour and are bound to `{origin}/mcp`; refresh tokens rotate on every use, and reusing one (or a code) revokes everything issued from that approval.',
  })
  async token(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<TokenResponse> {
    void reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
    const fields = oauthForm(request);
    const client = await this.registration.authenticate(clientCredentials(request, fields));
    return this.tokens.exchange(client, fields);
  }

  @Post('revoke')
  @HttpCode(200)
  @RouteConfig(ACCEPTS_FORM)
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ schema: REVOCATION_REQUEST_SCHEMA })
  @ApiOkResponse({
    description: 'Revoked, or unknown (RFC 7009 answers both alike).',
    schema: { type: 'object' },
  })
  @ApiUnauthorizedResponse({ description: 'OAuth error body: `invalid_client`', schema: OAUTH_ERROR_SCHEMA })
  @ApiBadRequestResponse({
    description: 'OAuth error body: `invalid_request` (no token, or a body that is not a form)',
    schema: OAUTH_ERROR_SCHEMA,
  })
  @ApiOperation({
    summary: 'Token revocation (RFC 7009): a refresh token ends its whole approval',
    description:
      'Form-encoded only; a confidential client authenticates the way it registered, as at the token endpoint.',
  })
  async revoke(@Req() request: FastifyRequest): Promise<Record<string, never>> {
    const fields = oauthForm(request);
    const client = await this.registration.authenticate(clientCredentials(request, fields));
    await this.tokens.revoke(client, fields.token);
    return {};
  }
}
