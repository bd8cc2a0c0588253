/** Where the MCP resource's metadata (RFC 9728) is served for this origin. */
export const resourceMetadataUrl = (origin: string): string =>
  `${origin}/.well-known/oauth-protected-resource/mcp`;

/** RFC 6750 §3.1's error codes this server answers with. */
export interface BearerError {
  code: 'invalid_token' | 'insufficient_scope';
  description: string;
}

/**
 * The one `WWW-Authenticate: Bearer` challenge of the MCP resource (RFC 6750 §3, RFC 9728 §5.1):
 * the error when there is one, where the resource metadata is, and `scope`, the scopes to ask for
 * (MCP clients take it first when choosing what to request). Double quotes in the description
 * become single ones, so the quoted string stays one parameter.
 */
export function bearerChallenge(origin: string, scopes: readonly string[], error?: BearerError): string {
  const params = [
    ...(error
      ? [`error="${error.code}"`, `error_description="${error.description.replace(/"/g, "'")}"`]
      : []),
    `resource_metadata="${resourceMetadataUrl(origin)}"`,
    `scope="${scopes.join(' ')}"`,
  ];
  return `Bearer ${params.join(', ')}`;
}
