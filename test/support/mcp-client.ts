import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
  UnauthorizedError as UnauthorizedErrorV2,
  type ClientCapabilities as ClientCapabilitiesV2,
} from '@modelcontextprotocol/client';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';

/** The OAuth side of a stock MCP client, kept in memory; the test plays the user's browser. */
export class TestOAuthProvider implements OAuthClientProvider {
  clientInfo?: OAuthClientInformationMixed;
  savedTokens?: OAuthTokens;
  verifier?: string;
  lastState?: string;
  authorizationUrl?: URL;

  constructor(readonly redirect = 'http://127.0.0.1:53682/callback') {}

  get redirectUrl() {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Headless test assistant',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  state() {
    return (this.lastState = randomBytes(16).toString('base64url'));
  }
  clientInformation() {
    return this.clientInfo;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.clientInfo = info;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'client') this.clientInfo = undefined;
    if (scope === 'all' || scope === 'tokens') this.savedTokens = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
}

/** A browser's cookie jar over fetch, following no redirects by itself. */
export class Browser {
  private readonly cookies = new Map<string, string>();

  async fetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const headers = { ...(init.headers as Record<string, string>), cookie: this.cookieHeader() };
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!value || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }

  /** Posts a form the way a browser does (same-origin, url-encoded). */
  postForm(url: string | URL, fields: Record<string, string>): Promise<Response> {
    return this.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(url).origin },
      body: new URLSearchParams(fields).toString(),
    });
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** The value of a named hidden (or any) input on a page. */
export function formField(html: string, name: string): string | undefined {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return match?.[1]
    ?.replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}

/** Every hidden input of a page's form, as the browser would submit them. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1]] = formField(match[0], match[1]) ?? '';
  }
  return fields;
}

export interface Account {
  email: string;
  password: string;
}

/**
 * Plays the user: follows the authorization URL, signs in on /login, and answers /consent.
 * Returns where the browser was finally sent (the client's redirect URI with code or error).
 */
export async function authorizeInBrowser(
  browser: Browser,
  authorizationUrl: URL,
  account: Account,
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  let response = await browser.fetch(authorizationUrl);
  let location = new URL(response.headers.get('location') ?? '', authorizationUrl);
  if (location.pathname === '/login') {
    const page = await (await browser.fetch(location)).text();
    response = await browser.postForm(new URL('/login', location), {
      ...hiddenFields(page),
      email: account.email,
      password: account.password,
      action: 'sign-in',
    });
    if (response.status !== 303)
      throw new Error(`sign-in failed: ${response.status} ${await response.text()}`);
    location = new URL(response.headers.get('location')!, location);
  }
  if (location.pathname !== '/consent') return location;
  const consent = await browser.fetch(location);
  if (consent.status !== 200)
    return new URL(consent.headers.get('location') ?? location.toString(), location);
  const page = await consent.text();
  response = await browser.postForm(new URL('/consent', location), { ...hiddenFields(page), decision });
  if (response.status !== 303) throw new Error(`consent failed: ${response.status} ${await response.text()}`);
  return new URL(response.headers.get('location')!);
}

/**
 * Connects the SDK's own Client the way a desktop assistant does: the first request gets 401,
 * the SDK discovers, registers and builds the authorization URL; the user approves; the SDK
 * exchanges the code and connects.
 */
export async function connectMcpClient(
  mcpUrl: URL,
  provider: TestOAuthProvider,
  approve: (authorizationUrl: URL) => Promise<URL>,
  fetchFn: typeof fetch = fetch,
): Promise<{ client: Client; callback?: URL }> {
  const first = new Client({ name: 'headless-test', version: '1.0.0' });
  try {
    await first.connect(
      new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: fetchFn }),
    );
    return { client: first };
  } catch (error) {
    if (!(error instanceof UnauthorizedError)) throw error;
  }
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider, fetch: fetchFn });
  const callback = await approve(provider.authorizationUrl!);
  if (callback.searchParams.get('state') !== provider.lastState)
    throw new Error('state was not passed through');
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`authorization refused: ${callback.search}`);
  await transport.finishAuth(code);
  const client = new Client({ name: 'headless-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, callback };
}

/** What the tests use of an MCP client, the same in both SDKs. */
export interface ToolClient {
  listTools(): Promise<{ tools: Array<Record<string, any>> }>;
  callTool(request: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, any>>;
  listResources(): Promise<{ resources: Array<{ uri: string }> }>;
  listResourceTemplates(): Promise<{ resourceTemplates: Array<Record<string, unknown>> }>;
  readResource(request: { uri: string }): Promise<{ contents: Array<Record<string, unknown>> }>;
  close(): Promise<void>;
}

/**
 * As connectMcpClient, with the v2 SDK's Client pinned to the 2026-07-28 revision: no initialize,
 * a `server/discover` probe, and the protocol version, client information and `capabilities` on
 * every request.
 */
export async function connectMcpClientV2(
  mcpUrl: URL,
  provider: TestOAuthProvider,
  approve: (authorizationUrl: URL) => Promise<URL>,
  fetchFn: typeof fetch = fetch,
  capabilities: ClientCapabilitiesV2 = {},
): Promise<{ client: ClientV2; callback?: URL }> {
  const options = { versionNegotiation: { mode: { pin: '2026-07-28' } }, capabilities } as const;
  const first = new ClientV2({ name: 'headless-test-v2', version: '2.0.0' }, options);
  try {
    await first.connect(new TransportV2(mcpUrl, { authProvider: provider, fetch: fetchFn }));
    return { client: first };
  } catch (error) {
    if (!(error instanceof UnauthorizedErrorV2)) throw error;
  }
  const transport = new TransportV2(mcpUrl, { authProvider: provider, fetch: fetchFn });
  const callback = await approve(provider.authorizationUrl!);
  if (callback.searchParams.get('state') !== provider.lastState)
    throw new Error('state was not passed through');
  await transport.finishAuth(callback.searchParams);
  const client = new ClientV2({ name: 'headless-test-v2', version: '2.0.0' }, options);
  await client.connect(transport);
  return { client, callback };
}

export interface SentMessage {
  method: string | undefined;
  headers: Headers;
  body: any;
}

/** A fetch that records what a client POSTs to /mcp (the JSON-RPC method, headers and body). */
export function recordingFetch(): { fetch: typeof fetch; sent: SentMessage[] } {
  const sent: SentMessage[] = [];
  const recorder: typeof fetch = async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input.toString());
    if (url.pathname === '/mcp' && init?.method === 'POST' && typeof init.body === 'string') {
      const body = JSON.parse(init.body);
      sent.push({ method: body.method, headers: new Headers(init.headers), body });
    }
    return fetch(input, init);
  };
  return { fetch: recorder, sent };
}
