import { createHash, randomBytes } from 'node:crypto';
import { authorizeInBrowser, Browser, type Account } from './mcp-client.js';

export const REDIRECT_URI = 'http://127.0.0.1:49152/callback';

export interface RegisteredClient {
  client_id: string;
  client_secret?: string;
}

/** A PKCE pair: the verifier the client keeps, the S256 challenge it sends. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(
  baseUrl: string,
  metadata: Record<string, unknown> = {},
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Raw OAuth test client',
      redirect_uris: [REDIRECT_URI],
      token_endpoint_auth_method: 'none',
      ...metadata,
    }),
  });
  return { status: res.status, body: await res.json() };
}

export function authorizationUrl(baseUrl: string, params: Record<string, string | undefined>): URL {
  const url = new URL(`${baseUrl}/oauth/authorize`);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  return url;
}

export async function tokenRequest(
  baseUrl: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** Authorizes `clientId` with PKCE as `account` (sign-in and Approve); where the browser was sent back. */
export function approve(
  baseUrl: string,
  clientId: string,
  account: Account,
  challenge: string,
  extra: Record<string, string> = {},
): Promise<URL> {
  return authorizeInBrowser(
    new Browser(),
    authorizationUrl(baseUrl, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...extra,
    }),
    account,
  );
}

/**
 * The whole code flow by hand: authorize with PKCE, sign in and approve as `account`, exchange the
 * code. Returns the code, the verifier and the token answer, for tests that then misuse them.
 */
export async function authorizeAndExchange(
  baseUrl: string,
  clientId: string,
  account: Account,
  extra: Record<string, string> = {},
): Promise<{ code: string; verifier: string; tokens: any; status: number }> {
  const { verifier, challenge } = pkce();
  const callback = await approve(baseUrl, clientId, account, challenge, {
    state: 'st-1',
    resource: `${baseUrl}/mcp`,
    ...extra,
  });
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code: ${callback.search}`);
  const res = await tokenRequest(baseUrl, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  });
  return { code, verifier, tokens: res.body, status: res.status };
}

/** One JSON-RPC call to /mcp with a bearer token, as raw HTTP; a header given as null is not sent. */
export async function mcpCall(
  baseUrl: string,
  token: string | null,
  body: unknown,
  headers: Record<string, string | null> = {},
): Promise<{ status: number; body: any; headers: Headers }> {
  const all: Record<string, string | null> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...headers,
  };
  const res = await fetch(`${baseUrl}/mcp`, {
    method: 'POST',
    headers: Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null),
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

export const callTool = (name: string, args: unknown, id = 1) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});
