import type { Permission } from '@app/domain';
import { bearerChallenge } from '@app/oauth';
import type { McpTool } from './mcp-tools.js';

/** Reading pack resources needs what GET /api/packs needs. */
const RESOURCE_SCOPE: Permission = 'packs:read';

/**
 * The scope one JSON-RPC message needs, when the message itself says: a `tools/call` naming a
 * known tool needs that tool's permission, and listing or reading resources needs packs:read.
 * Anything else (a batch, listing tools, an unknown tool, bad params) needs none here; the server
 * answers it as it would.
 */
export function requiredScope(body: unknown, tools: readonly McpTool[]): Permission | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method === 'resources/list' || method === 'resources/read') return RESOURCE_SCOPE;
  if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  return tools.find((tool) => tool.name === params.name)?.permission;
}

/**
 * The step-up challenge of MCP's authorization (scope challenge handling) and RFC 6750 §3.1: the
 * scopes to ask for are the token's own plus the missing one, so re-authorizing loses nothing.
 */
export function insufficientScopeChallenge(
  granted: readonly Permission[],
  needed: Permission,
  origin: string,
): string {
  return bearerChallenge(origin, [...new Set([...granted, needed])], {
    code: 'insufficient_scope',
    description: `this call needs the ${needed} scope`,
  });
}
