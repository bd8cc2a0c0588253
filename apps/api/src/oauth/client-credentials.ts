import type { FastifyRequest } from 'fastify';
import { OAuthError, type ClientCredentials } from '@app/oauth';

/**
 * The client's credentials at the token and revocation endpoints: HTTP Basic (RFC 6749 §2.3.1,
 * form-encoded parts) or `client_id` / `client_secret` in the body; never both ways at once.
 */
export function clientCredentials(request: FastifyRequest, form: Record<string, string>): ClientCredentials {
  const header = request.headers.authorization;
  if (typeof header === 'string' && /^Basic\s/i.test(header)) {
    if (form.client_secret !== undefined) {
      throw new OAuthError('invalid_request', 'send the client secret one way only', 400);
    }
    const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'malformed Basic credentials', 401);
    const clientId = safeDecode(decoded.slice(0, colon));
    if (form.client_id !== undefined && form.client_id !== clientId) {
      throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials', 400);
    }
    return { clientId, secret: safeDecode(decoded.slice(colon + 1)), method: 'client_secret_basic' };
  }
  const method = form.client_secret === undefined ? 'none' : 'client_secret_post';
  return { clientId: form.client_id, secret: form.client_secret, method };
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw new OAuthError('invalid_client', 'malformed Basic credentials', 401);
  }
}
