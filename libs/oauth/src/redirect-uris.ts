import { OAuthError } from './oauth-error.js';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
/** Schemes that run code or read local files, never a place to send a code. */
const DANGEROUS_SCHEMES = new Set(['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:']);
export const MAX_REDIRECT_URIS = 10;
const MAX_REDIRECT_URI_LENGTH = 2000;

/**
 * Redirect URIs a client may register (RFC 8252, OAuth 2.1 §8.4): https anywhere; http only on
 * loopback (native apps on a local port); a private-use scheme in reverse-domain form
 * (`com.example.app:/callback`). No fragments, no credentials in the URI.
 */
export function checkRedirectUri(uri: string): void {
  const refuse = (why: string) => {
    throw new OAuthError('invalid_redirect_uri', `redirect URI ${JSON.stringify(uri.slice(0, 200))} ${why}`);
  };
  if (uri.length > MAX_REDIRECT_URI_LENGTH) refuse('is too long');
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return refuse('is not an absolute URI');
  }
  if (url.hash || uri.includes('#')) refuse('must not have a fragment');
  if (url.username || url.password) refuse('must not carry credentials');
  if (url.protocol === 'https:') return;
  if (url.protocol === 'http:') {
    if (!LOOPBACK_HOSTS.has(url.hostname))
      refuse('may use http only on a loopback host (localhost, 127.0.0.1, [::1])');
    return;
  }
  if (DANGEROUS_SCHEMES.has(url.protocol)) refuse('has a scheme that is never allowed');
  if (!url.protocol.slice(0, -1).includes('.')) {
    refuse(
      'must be https, http on loopback, or a private-use scheme in reverse-domain form (com.example.app:/cb)',
    );
  }
}

/**
 * Whether a redirect URI sent with an authorization request is one the client registered: exactly,
 * or, for http on loopback, on any port (RFC 8252 §7.3: native apps take a free port at run time).
 */
export function isRegisteredRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  let asked: URL;
  try {
    asked = new URL(requested);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !LOOPBACK_HOSTS.has(asked.hostname)) return false;
  return registered.some((uri) => {
    const known = new URL(uri);
    return (
      known.protocol === 'http:' &&
      known.hostname === asked.hostname &&
      known.pathname === asked.pathname &&
      known.search === asked.search
    );
  });
}
