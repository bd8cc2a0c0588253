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
 * A loopback http redirect URI cut around its port: `http://127.0.0.1` + `:7777` + `/cb`. Only the
 * three literal loopback hosts match, so userinfo (`user:pw@`) or another spelling (`127.1`) does not.
 */
const LOOPBACK_URI = /^(http:\/\/(?:localhost|127\.0\.0\.1|\[::1\]))(?::([0-9]{1,5}))?([/?].*)?$/;

function withoutPort(uri: string): string | undefined {
  const match = LOOPBACK_URI.exec(uri);
  if (!match) return undefined;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && (port < 1 || port > 65535 || match[2].startsWith('0'))) return undefined;
  return match[1] + (match[3] ?? '');
}

/**
 * Whether a redirect URI sent with an authorization request is one the client registered: the same
 * string, or, for http on loopback, the same string but for the port (RFC 8252 §7.3: native apps
 * take a free port at run time). Strings are compared as sent, never normalised through a URL
 * parser, which would accept `/x/../cb`, `127.1`, credentials or a fragment as the registered URI.
 */
export function isRegisteredRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (requested.includes('#')) return false;
  if (registered.includes(requested)) return true;
  const asked = withoutPort(requested);
  return asked !== undefined && registered.some((uri) => withoutPort(uri) === asked);
}
