import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { SESSION_COOKIE } from '@app/auth';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { MAX_JSON_DEPTH } from './errors/well-formed-input.js';
import { NO_FRAMING_HEADERS } from './no-framing.js';
import { OAUTH_SCOPES } from '@app/oauth';
import { McpSchemas } from './mcp/mcp-schemas.js';
import { McpTools } from './mcp/mcp-tools.js';
import { MCP_SCHEMA_MODELS } from './mcp/mcp-tool-args.dto.js';

export const API_VERSION = '0.1.0';

/**
 * Every operation's tag, in the order Swagger UI lists them: the API users' routes first, then the
 * signed-in app's, then sign-in, OAuth, MCP and health. One lower-case name per area (a test
 * checks that every operation has exactly one of these).
 */
export const OPENAPI_TAGS: Array<[name: string, description: string]> = [
  ['judging', 'Judge a ticket against a pack (API key only)'],
  ['evaluations', 'Stored judgments'],
  ['packs', 'Question packs, drafts, publishing and versions'],
  ['reviews', 'The review queue, labels, stats and calibration'],
  ['alerts', 'Quality alerts on packs and their rules'],
  ['datasets', 'Datasets of redacted tickets'],
  ['simulations', 'Runs of a dataset against a pack version'],
  ['shadow runs', "A candidate pack version judging a sample of a pack's live traffic beside the live one"],
  ['webhooks', 'The completion endpoint, inbound tickets and deliveries'],
  ['keys', 'API keys (signed-in session only)'],
  ['playground', 'Judging from the web app (signed-in session only)'],
  ['mcp clients', 'MCP clients connected with OAuth (signed-in session only)'],
  ['auth', 'Sign-up, sign-in and sessions'],
  ['oauth', 'The OAuth 2.1 authorization server of the MCP endpoint'],
  ['mcp', 'The Model Context Protocol endpoint'],
  ['health', 'Liveness and readiness'],
];

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder();
  for (const [name, description] of OPENAPI_TAGS) builder.addTag(name, description);
  const config = builder
    .setTitle('Ticket Judging Service')
    .setDescription(
      [
        'Judges customer-support tickets with a language model against configurable question packs.',
        '',
        'Authentication: product routes under `/api` take an API key in `x-api-key` or `Authorization: Bearer <key>`,',
        'or a signed-in session cookie (`' +
          SESSION_COOKIE +
          '`); a request that carries a key is judged by the key alone.',
        'Key-only routes refuse a session. Each route names its permission in `x-permission`; a credential without it gets',
        '403 `missing permission {resource}:{action}`. Keys are managed by signed-in users under `/app/keys`.',
        '',
        'Errors always have the body `{error}`; schema failures add `issues` (`[{path, message}]`). This holds for every',
        'refusal, including those made before routing: 400 `invalid request` for a URL with bad percent-encoding or an',
        'HTTP request that cannot be parsed, 431 `request header fields too large`, 413 `request body too large`.',
        '',
        'Input rules, checked before validation: JSON bodies may nest at most ' +
          MAX_JSON_DEPTH +
          ' levels; no string, key or',
        'query value may hold NUL (`\\u0000`) or an unpaired UTF-16 surrogate (400 `invalid request`, the issue naming',
        'the path); no key may be named like a built-in object property (`constructor`, `toString`, `__proto__`, …).',
        'Optional fields are left out when unused: `null` is refused for every optional field (issue',
        '`<field> must not be null`). Unknown fields are refused, not dropped.',
        'Each API key may make `API_RATE_LIMIT_PER_DAY` requests per 24 hours (default 1000); keyed responses carry the',
        'IETF `RateLimit-Policy` and `RateLimit` headers, and a 429 carries `Retry-After`.',
      ].join('\n'),
    )
    .setVersion(API_VERSION)
    // Swagger UI's Authorize lists the schemes in this order: what an API user needs (a key) first.
    .addSecurity('api-key', {
      type: 'apiKey',
      in: 'header',
      name: 'x-api-key',
      description:
        'An API key (`tj_live_…`, created under Integrations in the web app or at POST /app/keys): all you need to try the `/api` routes here',
    })
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description: 'The same API key as a bearer token (use one of the two)',
      },
      'bearer',
    )
    .addCookieAuth(
      SESSION_COOKIE,
      {
        type: 'apiKey',
        in: 'cookie',
        name: SESSION_COOKIE,
        description:
          "The web app's session cookie, set by signing in (this page sends it when you are signed in in this browser); the only credential of `/app` routes",
      },
      'session',
    )
    .addOAuth2(
      {
        type: 'oauth2',
        description:
          'OAuth 2.1 access tokens for the MCP endpoint (authorization code with PKCE S256); see docs/mcp.md',
        flows: {
          authorizationCode: {
            authorizationUrl: '/oauth/authorize',
            tokenUrl: '/oauth/token',
            refreshUrl: '/oauth/token',
            scopes: Object.fromEntries(OAUTH_SCOPES.map((scope) => [scope, `The ${scope} permission`])),
          },
        },
      },
      'oauth2',
    )
    .build();
  // The MCP tools' argument and answer schemas come from this document too (see mcp-schemas.ts).
  return SwaggerModule.createDocument(app, config, { extraModels: MCP_SCHEMA_MODELS });
}

/**
 * Swagger UI at /docs and the document at /docs/openapi.json; the MCP tools take their schemas from
 * it. Nothing under /docs may be framed by another site (Swagger UI has buttons that send requests).
 */
export function setupOpenApi(app: NestFastifyApplication): void {
  const document = buildOpenApiDocument(app);
  app.get(McpSchemas).load(document, app.get(McpTools).all);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (request, reply, payload, done) => {
      const route = request.routeOptions.url;
      if (route === '/docs' || route?.startsWith('/docs/')) void reply.headers(NO_FRAMING_HEADERS);
      done(null, payload);
    });
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
