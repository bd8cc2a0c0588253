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

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
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
    .addSecurity('api-key', { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'API key' })
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'The same API key as a bearer token' },
      'bearer',
    )
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE }, 'session')
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
