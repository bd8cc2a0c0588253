/**
 * Query parameters whose values are credentials (OAuth codes, tokens, PKCE verifiers, client
 * secrets) or tie a browser to a flow (`state`). A client may put them in any URL, so every URL
 * that reaches a log line is written with their values replaced. `next` too: `/login?next=…`
 * carries the whole authorization request (its `state` included), percent-encoded.
 */
export const SECRET_QUERY_PARAMS = new Set([
  'access_token',
  'token',
  'code',
  'refresh_token',
  'client_secret',
  'code_verifier',
  'state',
  'next',
]);

export const REDACTED_VALUE = '[redacted]';

/**
 * How a query parser could read the name: percent-escapes decoded (invalid ones kept as they are,
 * so no URL makes this throw), `+` as a space, any case, and a `name[…]` suffix of nested parsers.
 */
function parameterName(raw: string): string {
  const decoded = raw
    .replace(/\+/g, ' ')
    .replace(/%([0-9a-f]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return decoded.toLowerCase().replace(/\[.*$/, '');
}

/** `url` with the value of every secret query parameter replaced, each parameter's name kept. */
export function redactUrlSecrets(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      // A bare name (`?code`) carries no value; a repeated name is redacted at each occurrence.
      return equals >= 0 && SECRET_QUERY_PARAMS.has(parameterName(name)) ? `${name}=${REDACTED_VALUE}` : pair;
    });
  return `${url.slice(0, start + 1)}${pairs.join('&')}`;
}

/** What a request line may say about a request: Fastify's request or pino-http's serialized one. */
interface RequestSource {
  method?: unknown;
  url?: unknown;
  host?: unknown;
  ip?: unknown;
  remoteAddress?: unknown;
  remotePort?: unknown;
  socket?: { remotePort?: unknown };
  headers?: Record<string, unknown>;
}

/**
 * The `req` serializer of every logger: method, URL (secrets redacted), host and peer, as Fastify's
 * own serializer wrote them. Fastify's request lines and nestjs-pino's request-scoped lines both go
 * through it; headers and the parsed query are left out, since a `Referer` or a query value can
 * hold the same secrets (Fastify's lines carry the request id as `reqId`).
 */
export function serializeRequest(req: RequestSource): Record<string, unknown> {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrlSecrets(req.url) : undefined,
    host: req.host ?? req.headers?.host,
    remoteAddress: req.ip ?? req.remoteAddress,
    remotePort: req.socket?.remotePort ?? req.remotePort,
  };
}
