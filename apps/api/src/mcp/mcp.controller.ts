import {
  Controller,
  Delete,
  Get,
  Inject,
  Logger,
  Post,
  Req,
  Res,
  type OnModuleDestroy,
} from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  createMcpHandler,
  isLegacyRequest,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticated, bearerToken, CurrentPrincipal, type Principal } from '@app/auth';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { publicOrigin } from '@app/oauth';
import { JSON_RPC, jsonRpcError, refuseMalformedBody } from './json-rpc.js';
import { insufficientScopeChallenge, requiredScope } from './mcp-scopes.js';
import { McpServerFactory } from './mcp-server.factory.js';
import { McpTools } from './mcp-tools.js';

/** How the principal the guard authenticated reaches the server factory of the 2026 handler. */
interface PrincipalAuthInfo extends AuthInfo {
  extra: { principal: Principal };
}

/**
 * The MCP endpoint (Streamable HTTP, stateless, JSON answers), for both revisions: a 2026-07-28
 * request (it carries the per-request `_meta` envelope) goes to the SDK's createMcpHandler, which
 * answers `server/discover` and checks the envelope and the Mcp-* headers; a 2025-era request
 * (initialize, then one message per POST, or a batch where its revision has them) is served as
 * before, by a server and a JSON transport of its own. OAuth access tokens only; the guard answers
 * 401 with the discovery challenge.
 */
@ApiTags('mcp')
@Controller('mcp')
@Authenticated({ oauth: true })
export class McpController implements OnModuleDestroy {
  private readonly logger = new Logger('Mcp');
  private readonly modern = createMcpHandler(
    ({ authInfo }) => this.servers.create((authInfo as PrincipalAuthInfo).extra.principal),
    {
      legacy: 'reject',
      onerror: (error) => this.logger.warn({ err: error }, 'MCP request refused'),
    },
  );

  constructor(
    private readonly servers: McpServerFactory,
    private readonly tools: McpTools,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleDestroy(): Promise<void> {
    await this.modern.close();
  }

  @Post()
  @ApiOperation({
    summary: 'MCP over Streamable HTTP (JSON-RPC); OAuth 2.1 access token required',
    description:
      'Revisions 2026-07-28 (stateless, per-request metadata, server/discover) and 2025-11-25 (initialize, no session). See docs/mcp.md for the tools, scopes and the sign-in flow. A foreign Origin is refused with 403.',
  })
  async handle(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    // DNS rebinding: a browser page of another origin must not reach a local MCP server.
    const origin = publicOrigin(this.config, request);
    if (request.headers.origin !== undefined && request.headers.origin !== origin) {
      return reply.status(403).send(jsonRpcError(JSON_RPC.serverError, 'Forbidden: Origin not allowed'));
    }
    const version = request.headers['mcp-protocol-version'];
    const malformed = refuseMalformedBody(request.body, typeof version === 'string' ? version : undefined);
    if (malformed) return reply.status(400).send(malformed);
    // A call the token's scopes do not cover is refused before it runs, with the scope to ask for.
    const needed = requiredScope(request.body, this.tools.all);
    if (needed && !principal.permissions.includes(needed)) {
      const { id } = request.body as { id?: unknown };
      return reply
        .status(403)
        .header('www-authenticate', insufficientScopeChallenge(principal.permissions, needed, origin))
        .send({
          ...jsonRpcError(JSON_RPC.serverError, `insufficient_scope: this call needs the ${needed} scope`),
          id: typeof id === 'string' || typeof id === 'number' ? id : null,
        });
    }

    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    // The body was parsed (and checked for depth, NUL and surrogates) by Fastify: the SDK reads it
    // from parsedBody, never from the stream.
    const webRequest = new Request(`${origin}${request.url}`, { method: 'POST', headers });
    const response = (await isLegacyRequest(webRequest, request.body))
      ? await this.serveLegacy(principal, webRequest, request.body)
      : await this.modern.fetch(webRequest, {
          parsedBody: request.body,
          authInfo: this.authInfo(principal, request),
        });
    return reply
      .status(response.status)
      .headers(Object.fromEntries(response.headers))
      .send(response.status === 202 ? '' : await response.text());
  }

  /** Stateless: no server-sent stream to open (GET) and no session to end (DELETE). */
  @Get()
  @ApiExcludeEndpoint()
  stream(@Res() reply: FastifyReply): FastifyReply {
    return methodNotAllowed(reply);
  }

  @Delete()
  @ApiExcludeEndpoint()
  endSession(@Res() reply: FastifyReply): FastifyReply {
    return methodNotAllowed(reply);
  }

  /**
   * 2025-era clients are answered as they were before the 2026 revision: JSON, not the SSE stream
   * the SDK's own stateless fallback answers with, by a server and a transport per request.
   */
  private async serveLegacy(principal: Principal, request: Request, body: unknown): Promise<Response> {
    const server = this.servers.create(principal);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { parsedBody: body });
    } finally {
      await server.close();
    }
  }

  private authInfo(principal: Principal, request: FastifyRequest): PrincipalAuthInfo {
    return {
      // The guard verified this token to make the principal; the SDK's AuthInfo carries it too.
      token: bearerToken(request) ?? '',
      clientId: principal.kind === 'oauth' ? principal.clientId : '',
      scopes: [...principal.permissions],
      extra: { principal },
    };
  }
}

function methodNotAllowed(reply: FastifyReply): FastifyReply {
  return reply
    .status(405)
    .header('allow', 'POST')
    .send(jsonRpcError(JSON_RPC.serverError, 'Method not allowed'));
}
