import type { AppConfig } from '@app/config';

/**
 * The service's origin as clients reach it: PUBLIC_URL when set, else the request's own protocol and
 * Host (TRUST_PROXY decides whether X-Forwarded-* count). The OAuth issuer is this origin and the
 * MCP resource is `{origin}/mcp`, so a token issued under one origin is refused under another.
 */
export function publicOrigin(
  config: Pick<AppConfig, 'publicUrl'>,
  request: { protocol: string; host: string },
): string {
  return config.publicUrl ?? `${request.protocol}://${request.host}`;
}

export const mcpResource = (origin: string): string => `${origin}/mcp`;
