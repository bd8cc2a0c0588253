import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { PASSWORD, signUp, uniqueEmail, type Client } from '../support/client.js';
import { MetadataDocumentServer } from '../support/metadata-document-server.js';
import {
  authorizeInBrowser,
  Browser,
  connectMcpClient,
  hiddenFields,
  TestOAuthProvider,
  type Account,
} from '../support/mcp-client.js';
import { authorizationUrl, mcpCall, pkce, REDIRECT_URI, tokenRequest } from '../support/oauth-flow.js';
import { stopWorker } from '../support/worker.js';

const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-cimd`;

/** A client ID metadata document for `clientId`, as an MCP client would publish it. */
const documentFor = (clientId: string, fields: Record<string, unknown> = {}) => ({
  client_id: clientId,
  client_name: 'Published assistant',
  redirect_uris: [REDIRECT_URI],
  grant_types: ['authorization_code', 'refresh_token'],
  response_types: ['code'],
  token_endpoint_auth_method: 'none',
  ...fields,
});

/**
 * Client ID metadata documents served over https by a server of the test. The API under test is a
 * real process started with NODE_EXTRA_CA_CERTS naming the test's CA: the only way its fetches trust
 * the test's certificate, and one no product code knows about. Outside production the address guard
 * lets it reach 127.0.0.1, as webhook e2e tests reach local receivers.
 */
describe('OAuth client ID metadata documents', () => {
  let docs: MetadataDocumentServer;
  let api: ApiProcess;
  let base: string;

  beforeAll(async () => {
    docs = await new MetadataDocumentServer().start();
    api = await startApiProcess({ REDIS_PREFIX: PREFIX, NODE_EXTRA_CA_CERTS: docs.caFile });
    base = api.url;
  }, 90_000);
  afterAll(async () => {
    await stopWorker(api);
    await docs.close();
  });

  const authorize = (clientId: string, extra: Record<string, string> = {}) =>
    fetch(
      authorizationUrl(base, {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        ...extra,
      }),
      { redirect: 'manual' },
    );

  /** An authorization request refused before any decision: an HTML page, never a redirect. */
  async function expectRefusal(clientId: string, why: string, extra: Record<string, string> = {}) {
    const res = await authorize(clientId, extra);
    const html = await res.text();
    expect({
      status: res.status,
      type: res.headers.get('content-type'),
      location: res.headers.get('location'),
    }).toEqual({
      status: 400,
      type: 'text/html; charset=utf-8',
      location: null,
    });
    expect(html).toContain('Cannot connect this application');
    expect(html.replace(/&#39;/g, "'")).toContain(why);
  }

  async function newAccount(): Promise<{ account: Account; session: Client }> {
    const account = { email: uniqueEmail('cimd'), password: PASSWORD };
    const { client: session } = await signUp(base, account.email);
    return { account, session };
  }

  it('is advertised in the authorization server metadata', async () => {
    const metadata: any = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });

  it('refuses client ID URLs the draft forbids, fetching nothing', async () => {
    const host = docs.url.replace('https://', '');
    for (const [clientId, why] of [
      [`http://${host}/doc`, 'must be an https URL'],
      [`${docs.url}/doc#x`, 'must not have a fragment'],
      [`https://user:pw@${host}/doc`, 'must not carry credentials'],
      [`${docs.url}/a/../doc`, 'must not have . or .. path segments'],
      [`${docs.url}/a/%2e%2E/doc`, 'must not have . or .. path segments'],
      [docs.url, 'must have a path'],
      [`${docs.url}/`, 'must have a path'],
    ]) {
      await expectRefusal(clientId, `The application's client ID cannot be used: the client ID ${why}`);
    }
    expect(docs.hitsOf('/doc')).toBe(0);
  });

  it('refuses a document that is too large, slow, not JSON, not an object, or for another client', async () => {
    const big = docs.json('/big', documentFor(`${docs.url}/big`, { padding: 'x'.repeat(6000) }));
    await expectRefusal(big, 'the metadata document is larger than 5120 bytes');
    const chunked = docs.route('/chunked', (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('{"padding":"');
      response.write('x'.repeat(6000));
      response.end('"}');
    });
    await expectRefusal(chunked, 'the metadata document is larger than 5120 bytes');
    const slow = docs.route('/slow', () => undefined);
    await expectRefusal(slow, 'could not be fetched (no answer within 5 s)');
    await expectRefusal(docs.json('/text', 'not json {'), 'the metadata document is not JSON');
    await expectRefusal(docs.json('/array', [documentFor(`${docs.url}/array`)]), 'is not a JSON object');
    await expectRefusal(
      docs.json('/other', documentFor(`${docs.url}/another`)),
      'the metadata document names another client_id than its URL',
    );
    await expectRefusal(`${docs.url}/missing`, "the metadata document's address answered HTTP 404");
  }, 30_000);

  it('refuses a document whose auth method, secret or names are not allowed', async () => {
    const jwt = docs.json(
      '/jwt',
      documentFor(`${docs.url}/jwt`, { token_endpoint_auth_method: 'private_key_jwt' }),
    );
    await expectRefusal(jwt, 'private_key_jwt, which this server does not support (only none)');
    const basic = docs.json(
      '/basic',
      documentFor(`${docs.url}/basic`, { token_endpoint_auth_method: 'client_secret_basic' }),
    );
    await expectRefusal(basic, 'token_endpoint_auth_method must be none (or private_key_jwt)');
    const secret = docs.json('/secret', documentFor(`${docs.url}/secret`, { client_secret: 'shh' }));
    await expectRefusal(secret, 'must not hold a client_secret');
    const bidi = docs.json('/bidi', documentFor(`${docs.url}/bidi`, { client_name: 'Claude \u202Epot' }));
    await expectRefusal(bidi, 'control or format characters');
    const redirect = docs.json(
      '/http-redirect',
      documentFor(`${docs.url}/http-redirect`, { redirect_uris: ['http://evil.example/cb'] }),
    );
    await expectRefusal(redirect, 'may use http only on a loopback host');
  });

  it('refuses a redirect_uri the document does not list, with the loopback port rule', async () => {
    const clientId = docs.json('/listed', documentFor(`${docs.url}/listed`));
    await expectRefusal(clientId, 'an address its metadata document does not list', {
      redirect_uri: 'http://127.0.0.1:49152/other',
    });
    await expectRefusal(clientId, 'an address its metadata document does not list', {
      redirect_uri: 'http://127.1:49152/callback',
    });
    const otherPort = await authorize(clientId, { redirect_uri: 'http://127.0.0.1:50000/callback' });
    expect(otherPort.status).toBe(302);
  });

  it('follows no redirect', async () => {
    const target = docs.json('/target', documentFor(`${docs.url}/moved`));
    const moved = docs.route('/moved', (_request, response) => {
      response.writeHead(302, { location: target }).end();
    });
    await expectRefusal(moved, 'answered with a redirect (HTTP 302), which is not followed');
    expect(docs.hitsOf('/target')).toBe(0);
  });

  it('keeps a document for its max-age, and fetches a no-store document every time', async () => {
    const cached = docs.json('/cached', documentFor(`${docs.url}/cached`), {
      'cache-control': 'max-age=600',
    });
    expect((await authorize(cached)).status).toBe(302);
    expect((await authorize(cached)).status).toBe(302);
    expect(docs.hitsOf('/cached')).toBe(1);
    const fresh = docs.json('/fresh', documentFor(`${docs.url}/fresh`), { 'cache-control': 'no-store' });
    expect((await authorize(fresh)).status).toBe(302);
    expect((await authorize(fresh)).status).toBe(302);
    expect(docs.hitsOf('/fresh')).toBe(2);
  });

  it('runs the whole flow: consent with the host, token, /mcp, refresh, revoke, the connected list', async () => {
    const clientId = docs.json('/flow', documentFor(`${docs.url}/flow`), { 'cache-control': 'no-store' });
    const { account, session } = await newAccount();
    const { verifier, challenge } = pkce();
    const url = authorizationUrl(base, {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st',
    });
    const browser = new Browser();
    const login = await browser.fetch(url);
    const loginUrl = new URL(login.headers.get('location')!, base);
    const loginPage = await (await browser.fetch(loginUrl)).text();
    const signedIn = await browser.postForm(`${base}/login`, {
      ...hiddenFields(loginPage),
      email: account.email,
      password: account.password,
      action: 'sign-in',
    });
    const consentUrl = new URL(signedIn.headers.get('location')!, base);
    const consent = await (await browser.fetch(consentUrl)).text();
    expect(consent).toContain('<p class="host">127.0.0.1</p>');
    expect(consent).toContain('Connect Published assistant?');
    expect(consent).toContain('New:</strong> you have not connected an app from 127.0.0.1 before.');
    expect(consent).toContain(`Its identity is published at <strong>127.0.0.1</strong>`);
    const decided = await browser.postForm(`${base}/consent`, {
      ...hiddenFields(consent),
      decision: 'approve',
    });
    const callback = new URL(decided.headers.get('location')!);
    expect(callback.searchParams.get('state')).toBe('st');

    const exchanged = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code: callback.searchParams.get('code')!,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: verifier,
    });
    expect(exchanged.status).toBe(200);
    const tools = await mcpCall(base, exchanged.body.access_token, {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {},
    });
    expect(tools.status).toBe(200);
    expect(tools.body.result.tools.length).toBeGreaterThan(5);

    const refreshed = await tokenRequest(base, {
      grant_type: 'refresh_token',
      refresh_token: exchanged.body.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);

    const listed = await session.get('/app/oauth-clients');
    expect(listed.body).toEqual([
      expect.objectContaining({ id: clientId, name: 'Published assistant', host: '127.0.0.1' }),
    ]);

    const revoke = await fetch(`${base}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: refreshed.body.refresh_token, client_id: clientId }).toString(),
    });
    expect(revoke.status).toBe(200);
    const afterRevoke = await mcpCall(base, refreshed.body.access_token, {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/list',
      params: {},
    });
    expect(afterRevoke.status).toBe(401);

    // Another client from the same host is no longer new to this user.
    const sibling = docs.json('/sibling', documentFor(`${docs.url}/sibling`, { client_name: 'Sibling' }));
    const again = await browser.fetch(
      authorizationUrl(base, {
        response_type: 'code',
        client_id: sibling,
        redirect_uri: REDIRECT_URI,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
    );
    const siblingConsent = await (await browser.fetch(new URL(again.headers.get('location')!, base))).text();
    expect(siblingConsent).toContain('Connect Sibling?');
    expect(siblingConsent).toContain('<p class="host">127.0.0.1</p>');
    expect(siblingConsent).not.toContain('New:');
  });

  it('knows at the token endpoint only the clients a user approved', async () => {
    const clientId = docs.json('/unapproved', documentFor(`${docs.url}/unapproved`));
    const res = await tokenRequest(base, {
      grant_type: 'refresh_token',
      refresh_token: 'tj_rt_x',
      client_id: clientId,
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });

  it("connects the MCP SDK's own client with its clientMetadataUrl, no registration", async () => {
    const redirect = 'http://127.0.0.1:53682/callback';
    const clientId = docs.json(
      '/sdk',
      documentFor(`${docs.url}/sdk`, { redirect_uris: [redirect], client_name: 'SDK assistant' }),
    );
    class DocumentProvider extends TestOAuthProvider {
      readonly clientMetadataUrl = clientId;
    }
    const provider = new DocumentProvider(redirect);
    const { account } = await newAccount();
    const { client } = await connectMcpClient(new URL(`${base}/mcp`), provider, (url) => {
      expect(url.searchParams.get('client_id')).toBe(clientId);
      return authorizeInBrowser(new Browser(), url, account);
    });
    try {
      expect(provider.clientInfo?.client_id).toBe(clientId);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('list_packs');
    } finally {
      await client.close();
    }
  });
});

describe('OAuth client ID metadata documents in production', () => {
  let api: TestApi;
  let docs: MetadataDocumentServer;

  beforeAll(async () => {
    docs = await new MetadataDocumentServer().start();
    api = await startApi({
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      REDIS_PREFIX: `${PREFIX}-prod`,
    });
  });
  afterAll(async () => {
    await api.close();
    await docs.close();
  });

  it('never fetches a document from a private address: the guard refuses at connect time', async () => {
    const clientId = docs.json('/private', documentFor(`${docs.url}/private`));
    const res = await fetch(
      authorizationUrl(api.url, {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      }),
      { redirect: 'manual' },
    );
    expect(res.status).toBe(400);
    expect((await res.text()).replace(/&#39;/g, "'")).toContain(
      'the metadata document could not be fetched (its address is private, loopback or link-local)',
    );
    expect(docs.hitsOf('/private')).toBe(0);
  });
});
