import { Injectable, Logger } from '@nestjs/common';
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  specTypeSchemas,
  type CallToolResult,
  type Result,
  type StandardSchemaV1Sync,
  type Tool,
} from '@modelcontextprotocol/server';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { z } from 'zod';
import { DailyRateLimiter, type Principal } from '@app/auth';
import { DomainError, MissingPermissionError, RateLimitedError, ValidationError } from '@app/domain';
import { createValidationPipe } from '../errors/validation.pipe.js';
import { API_VERSION } from '../openapi.js';
import { McpAppViews, supportsAppViews } from './mcp-app-views.js';
import { McpPackResources, PACK_RESOURCE_TEMPLATE } from './mcp-resources.js';
import { JSON_RPC } from './json-rpc.js';
import { McpSchemas } from './mcp-schemas.js';
import { NoArgs } from './mcp-tool-args.dto.js';
import { McpTools, type McpTool } from './mcp-tools.js';

const argsPipe = createValidationPipe();
/** The SDK builds an Ajv instance per server unless given one; a server is built per request. */
const schemaValidator = new AjvJsonSchemaValidator();

const INSTRUCTIONS =
  'Judges customer-support tickets against question packs. Start with list_packs, then judge_ticket with a pack id; list_reviews shows what needs a human, label_evaluation records their answer.';

/**
 * Builds the MCP server for one request (the transport is stateless): the tool list, and tool
 * calls that check the permission, validate the arguments with the REST pipe and call the tool.
 * Every failure becomes a tool error whose text is the REST error message.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('Mcp');
  private listing?: Tool[];
  private appListing?: Tool[];

  constructor(
    private readonly tools: McpTools,
    private readonly schemas: McpSchemas,
    private readonly resources: McpPackResources,
    private readonly quota: DailyRateLimiter,
    private readonly views: McpAppViews,
  ) {}

  create(principal: Principal): Server {
    const server = new Server(
      { name: 'ticket-judge', title: 'Ticket Judging Service', version: API_VERSION },
      {
        capabilities: { tools: { listChanged: false }, resources: { listChanged: false } },
        instructions: INSTRUCTIONS,
        jsonSchemaValidator: schemaValidator,
      },
    );
    // MCP Apps: only a client that declared the extension (in its per-request envelope on
    // 2026-07-28, which the SDK backfills into getClientCapabilities; at initialize on 2025-era) sees
    // the views; any other gets the same answers as before.
    const apps = () => supportsAppViews(server.getClientCapabilities());
    handle(server, 'tools/list', specTypeSchemas.PaginatedRequestParams, () => ({
      tools: apps() ? this.listWithViews() : this.list(),
    }));
    handle(server, 'tools/call', specTypeSchemas.CallToolRequestParams, (params) =>
      this.call(principal, params.name, params.arguments ?? {}),
    );
    handle(server, 'resources/list', specTypeSchemas.PaginatedRequestParams, async () => {
      const refusal = await this.spend(principal);
      if (refusal) throw new ProtocolError(JSON_RPC.serverError, refusal);
      const packs = await this.resources.list(principal);
      return { resources: apps() ? [...packs, ...this.views.list()] : packs };
    });
    handle(server, 'resources/templates/list', specTypeSchemas.PaginatedRequestParams, () => ({
      resourceTemplates: [PACK_RESOURCE_TEMPLATE],
    }));
    handle(server, 'resources/read', specTypeSchemas.ReadResourceRequestParams, async (params) => {
      const refusal = await this.spend(principal);
      if (refusal) throw new ProtocolError(JSON_RPC.serverError, refusal);
      if (this.views.isView(params.uri)) return this.views.read(params.uri);
      return this.resources.read(principal, params.uri);
    });
    return server;
  }

  private list(): Tool[] {
    this.listing ??= this.tools.all.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description} Needs the ${tool.permission} scope.`,
      ...this.schemas.of(tool),
      annotations: { title: tool.title, readOnlyHint: tool.readOnly, openWorldHint: false },
    }));
    return this.listing;
  }

  /** The listing for an MCP Apps client: the tools that have a view name it in `_meta.ui`. */
  private listWithViews(): Tool[] {
    this.appListing ??= this.list().map((tool) => {
      const meta = this.views.toolMeta(tool.name);
      return meta ? { ...tool, _meta: meta } : tool;
    });
    return this.appListing;
  }

  private async call(principal: Principal, name: string, args: unknown): Promise<CallToolResult> {
    // Every call counts, as every REST request does (an unknown tool or bad arguments too), so
    // neither a batch nor parallel requests can run more than the grant's daily budget.
    const refusal = await this.spend(principal);
    if (refusal) return failure(refusal);
    const tool = this.tools.all.find((candidate) => candidate.name === name);
    if (!tool) return failure(`unknown tool ${name.slice(0, 64)}`);
    try {
      if (!principal.permissions.includes(tool.permission)) throw new MissingPermissionError(tool.permission);
      const result = await tool.run(principal, await this.validate(tool, args));
      // Through JSON, as the REST route answers: dates become strings, undefined fields vanish.
      const text = JSON.stringify(result);
      return {
        content: [{ type: 'text', text }],
        structuredContent: JSON.parse(text) as Record<string, unknown>,
      };
    } catch (error) {
      if (error instanceof ValidationError) return failure(error.message, error.issues);
      if (error instanceof DomainError) return failure(error.message);
      this.logger.error({ err: error, tool: name }, 'MCP tool failed');
      return failure('internal error');
    }
  }

  /**
   * Counts one call against the daily budget of this user's connection of this client (every
   * approval of the same client shares it, so approving again starts no new budget); past it, the
   * refusal says when it resets.
   */
  private async spend(principal: Principal): Promise<string | undefined> {
    if (principal.kind !== 'oauth') return undefined;
    try {
      await this.quota.consume({ client: `${principal.userId}:${principal.clientId}` });
      return undefined;
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      const resetAt = new Date(Date.now() + error.retryAfterSeconds * 1000).toISOString();
      return `${error.message}: this client's daily budget of ${this.quota.limit} calls resets in ${error.retryAfterSeconds} s (at ${resetAt})`;
    }
  }

  private async validate(tool: McpTool, args: unknown): Promise<object> {
    // class-validator refuses a class without rules as "unknown"; a tool without arguments takes {}.
    if (tool.args === NoArgs) {
      const extra = Object.keys(args as object);
      if (extra.length) {
        throw new ValidationError(
          extra.map((name) => ({ path: name, message: `property ${name} should not exist` })),
        );
      }
      return {};
    }
    return (await argsPipe.transform(args, { type: 'body', metatype: tool.args })) as object;
  }
}

/** Every parameter object passes the SDK's own check; the method's schema is applied in handle. */
const ANY_PARAMS = z.looseObject({});

/**
 * Registers a request handler whose parameters, when they do not fit the method, are refused with
 * invalid params (-32602), as JSON-RPC requires. The SDK parses a spec method's parameters before
 * any handler runs and answers some failures as an internal error (-32603, resources/read's for
 * one), so it is given a schema that takes any object, and the method's own schema is applied here.
 */
function handle<P>(
  server: Server,
  method: string,
  schema: StandardSchemaV1Sync<unknown, P>,
  handler: (params: P) => Result | Promise<Result>,
): void {
  server.setRequestHandler(method, { params: ANY_PARAMS }, (params) => {
    const parsed = schema['~standard'].validate(params);
    if (parsed.issues) {
      const issues = parsed.issues.map((issue) => {
        const path = (issue.path ?? []).map((key) => String(typeof key === 'object' ? key.key : key));
        return `${path.join('.') || '(params)'}: ${issue.message}`;
      });
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Invalid ${method} params: ${issues.join('; ')}`,
      );
    }
    return handler(parsed.value);
  });
}

/** A tool error: the REST error message, and the schema issues as on a REST 400. */
function failure(message: string, issues?: ValidationError['issues']): CallToolResult {
  const text = issues ? `${message}\n${JSON.stringify({ error: message, issues }, null, 2)}` : message;
  return { isError: true, content: [{ type: 'text', text }] };
}
