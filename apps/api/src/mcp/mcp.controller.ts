import { Controller, Delete, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation, ApiTags } from '@nestjs/swagger';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Authenticated, CurrentPrincipal, type Principal } from '@app/auth';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { publicOrigin } from '@app/oauth';
import { JSON_RPC, jsonRpcError, refuseMalformedBody } from './json-rpc.js';
import { McpServerFactory } from './mcp-server.factory.js';

/**
 * The MCP endpoint (Streamable HTTP, stateless: a server and a transport per request, JSON
 * answers). OAuth access tokens only; the guard answers 401 with the discovery challenge.
 */
@ApiTags('mcp')
@Controller('mcp')
@Authenticated({ oauth: true })
export class McpController {
  constructor(
    private readonly servers: McpServerFactory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post()
  @ApiOperation({
    summary: 'MCP over Streamable HTTP (JSON-RPC); OAuth 2.1 access token required',
    description:
      'See docs/mcp.md for the tools, scopes and the sign-in flow. A foreign Origin is refused with 403.',
  })
  async handle(
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<FastifyReply> {
    // DNS rebinding: a browser page of another origin must not reach a local MCP server.
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== publicOrigin(this.config, request)) {
      return reply.status(403).send(jsonRpcError(JSON_RPC.serverError, 'Forbidden: Origin not allowed'));
    }
    const version = request.headers['mcp-protocol-version'];
    const malformed = refuseMalformedBody(request.body, typeof version === 'string' ? version : undefined);
    if (malformed) return reply.status(400).send(malformed);
    const server = this.servers.create(principal);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === 'string') headers.set(name, value);
      }
      const response = await transport.handleRequest(
        new Request(`${publicOrigin(this.config, request)}${request.url}`, { method: 'POST', headers }),
        { parsedBody: request.body },
      );
      return await reply
        .status(response.status)
        .headers(Object.fromEntries(response.headers))
        .send(response.status === 202 ? '' : await response.text());
    } finally {
      await server.close();
    }
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
}

function methodNotAllowed(reply: FastifyReply): FastifyReply {
  return reply
    .status(405)
    .header('allow', 'POST')
    .send(jsonRpcError(JSON_RPC.serverError, 'Method not allowed'));
}
