import { z } from 'zod';
import { CLIENT_METADATA } from './client-metadata.js';
import { OAuthError } from './oauth-error.js';
import { checkRedirectUri } from './redirect-uris.js';
import { parseScopes } from './scopes.js';

/**
 * OAuth Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP's preferred
 * registration): a client_id that is an https URL names a JSON document of the client's metadata,
 * which this server fetches instead of the client registering. See docs/mcp.md.
 */

/** The draft suggests 5 kB; a document is a handful of short fields. */
export const MAX_METADATA_DOCUMENT_BYTES = 5120;
export const MAX_CLIENT_ID_URL_LENGTH = 2000;

/** A document that cannot be used, and why, in words shown to the user on the error page. */
export class MetadataDocumentError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'MetadataDocumentError';
  }
}

/** Client ids of dynamic registration are `mcp_…`; anything shaped like a URL is a document's address. */
export function isClientIdUrl(clientId: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(clientId);
}

/**
 * A client_id URL as the draft allows it: https, a path, no fragment, no credentials, no `.` or
 * `..` segments (percent-encoded or not). It must also be written as the URL parser writes it
 * (lower-case host, no default port), since the document's client_id is compared with it as a string.
 */
export function parseClientIdUrl(clientId: string): URL {
  const refuse = (why: string): never => {
    throw new MetadataDocumentError(`the client ID ${why}`);
  };
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) refuse('is too long');
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return refuse('is not a valid URL');
  }
  if (url.protocol !== 'https:') refuse('must be an https URL');
  if (clientId.includes('#')) refuse('must not have a fragment');
  if (url.username || url.password || /^https:\/\/[^/?]*@/i.test(clientId)) {
    refuse('must not carry credentials');
  }
  const rawPath = /^https:\/\/[^/?]*(\/[^?]*)?/i.exec(clientId)?.[1] ?? '';
  const segments = rawPath.split('/').map((segment) => segment.replace(/%2e/gi, '.'));
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    refuse('must not have . or .. path segments');
  }
  if (rawPath === '' || rawPath === '/') refuse('must have a path (https://host/path)');
  if (url.href !== clientId) refuse(`must be written in its normal form (${url.href.slice(0, 200)})`);
  return url;
}

const AUTH_METHOD = 'token_endpoint_auth_method';

/** The document's members this server reads: those of registration, plus `client_id`. */
const DOCUMENT = CLIENT_METADATA.omit({ token_endpoint_auth_method: true }).extend({
  client_id: z.string().max(MAX_CLIENT_ID_URL_LENGTH),
  [AUTH_METHOD]: z.string().max(100).default('none'),
});

export type MetadataDocument = z.infer<typeof DOCUMENT> & { token_endpoint_auth_method: 'none' };

/**
 * Checks a fetched document (already parsed from JSON) for `clientId`: a JSON object, its
 * client_id the URL exactly, no secret (the draft forbids shared secrets), a public client
 * (`none`; `private_key_jwt` is allowed by the draft but not supported here), and every member
 * this server uses well formed as at registration (redirect URIs, control characters in names).
 */
export function parseMetadataDocument(clientId: string, body: unknown): MetadataDocument {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new MetadataDocumentError('the metadata document is not a JSON object');
  }
  const fields = body as Record<string, unknown>;
  if (fields.client_id !== clientId) {
    throw new MetadataDocumentError('the metadata document names another client_id than its URL');
  }
  if ('client_secret' in fields || 'client_secret_expires_at' in fields) {
    throw new MetadataDocumentError('the metadata document must not hold a client_secret');
  }
  const parsed = DOCUMENT.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MetadataDocumentError(
      `the metadata document's ${issue.path.join('.') || 'body'} is invalid: ${issue.message}`,
    );
  }
  const method = parsed.data[AUTH_METHOD];
  if (method === 'private_key_jwt') {
    throw new MetadataDocumentError(
      'the metadata document asks for private_key_jwt, which this server does not support (only none)',
    );
  }
  if (method !== 'none') {
    throw new MetadataDocumentError(
      `the metadata document's token_endpoint_auth_method must be none (or private_key_jwt), not ${JSON.stringify(method.slice(0, 40))}`,
    );
  }
  try {
    parsed.data.redirect_uris.forEach(checkRedirectUri);
    if (parsed.data.scope !== undefined) parseScopes(parsed.data.scope);
  } catch (error) {
    if (error instanceof OAuthError) {
      throw new MetadataDocumentError(`the metadata document is invalid: ${error.description}`);
    }
    throw error;
  }
  return { ...parsed.data, token_endpoint_auth_method: 'none' };
}

/** How long a fetched document is used without fetching it again (seconds). */
export const METADATA_CACHE = { defaultSeconds: 300, minSeconds: 60, maxSeconds: 3600 } as const;

/**
 * Seconds to keep a document, from its `Cache-Control`: `no-store`, `no-cache` or `max-age=0`: not
 * kept (fetched again at the next step); `max-age=N`: N, within 60 s and an hour, so a tiny max-age
 * does not make every step a fetch and a client's changes are seen within the hour; none: 5 minutes.
 */
export function cacheSeconds(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((part) => part.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache' || d.startsWith('no-cache='))) return 0;
  const maxAge = directives.find((d) => /^max-age=\d+$/.test(d));
  if (maxAge === undefined) return METADATA_CACHE.defaultSeconds;
  const seconds = Number(maxAge.slice('max-age='.length));
  if (seconds === 0) return 0;
  return Math.min(METADATA_CACHE.maxSeconds, Math.max(METADATA_CACHE.minSeconds, seconds));
}
