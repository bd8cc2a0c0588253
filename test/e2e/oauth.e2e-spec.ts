import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { queryDatabase } from '../support/db.js';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, PASSWORD, signUp, uniqueEmail, type Client } from '../support/client.js';
import { authorizeInBrowser, Browser, hiddenFields } from '../support/mcp-client.js';
import {
  approve,
  authorizationUrl,
  authorizeAndExchange,
  mcpCall,
  pkce,
  REDIRECT_URI,
  registerClient,
  tokenRequest,
} from '../support/oauth-flow.js';

const SCOPES = [
  'packs:read',
  'packs:write',
  'judgments:run',
  'judgments:read',
  'simulations:run',
  'labels:write',
];

describe('OAuth 2.1 authorization server and the /mcp resource', () => {
  let api: TestApi;
  let base: string;
  let account: { email: string; password: string };
  let session: Client;
  let clientId: string;

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-oauth` });
    base = api.url;
    account = { email: uniqueEmail('oauth'), password: PASSWORD };
    ({ client: session } = await signUp(base, account.email));
    clientId = (await registerClient(base)).body.client_id;
  });
  afterAll(async () => {
    await api.close();
  });

  const initialize = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
  const ALL_SCOPES = 'packs:read packs:write judgments:run judgments:read simulations:run labels:write';
  const challenge = () =>
    `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp", scope="${ALL_SCOPES}"`;

  describe('discovery', () => {
    it('publishes protected resource metadata (RFC 9728) at both paths', async () => {
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
      ]) {
        const body: any = await (await fetch(base + path)).json();
        expect(body).toMatchObject({
          resource: `${base}/mcp`,
          authorization_servers: [base],
          scopes_supported: SCOPES,
          bearer_methods_supported: ['header'],
        });
      }
    });

    it('publishes authorization server metadata (RFC 8414)', async () => {
      const body: any = await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json();
      expect(body).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        revocation_endpoint: `${base}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        scopes_supported: SCOPES,
      });
      expect(body.token_endpoint_auth_methods_supported).toContain('none');
    });
  });

  describe('/mcp refuses anything but a live access token for it', () => {
    it('no token: 401 with the resource metadata challenge', async () => {
      const res = await mcpCall(base, null, initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe(challenge());
      expect(res.body).toEqual({ error: 'access token required' });
    });

    it('an API key in either header or a session cookie: the same 401', async () => {
      const { key } = await createKey(session);
      for (const headers of [{ 'x-api-key': key.secret }, { cookie: session.cookie! }] as Record<
        string,
        string
      >[]) {
        const res = await mcpCall(base, null, initialize, headers);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe(challenge());
      }
      const bearerKey = await mcpCall(base, key.secret, initialize);
      expect(bearerKey.status).toBe(401);
      expect(bearerKey.headers.get('www-authenticate')).toMatch(
        /^Bearer error="invalid_token", .*resource_metadata="[^"]+", scope="packs:read [^"]+"$/,
      );
    });

    it('an unknown token: 401 invalid_token', async () => {
      const res = await mcpCall(base, 'tj_at_forged', initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('an expired token: 401 invalid_token', async () => {
      const { tokens } = await authorizeAndExchange(base, clientId, account);
      const hash = createHash('sha256').update(tokens.access_token).digest('base64url');
      await queryDatabase(
        `UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = $1`,
        [hash],
      );
      const res = await mcpCall(base, tokens.access_token, initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain(
        'error="invalid_token", error_description="the access token expired"',
      );
    });

    it('a token issued for another origin (audience) is refused', async () => {
      const { tokens } = await authorizeAndExchange(base, clientId, account);
      const ok = await mcpCall(base, tokens.access_token, initialize);
      expect(ok.status).toBe(200);
      const otherOrigin = base.replace('127.0.0.1', 'localhost');
      const res = await mcpCall(otherOrigin, tokens.access_token, initialize);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
      expect(res.headers.get('www-authenticate')).toContain('another resource');
    });

    it('a foreign Origin gets 403, GET and DELETE 405, an unknown protocol version 400', async () => {
      const { tokens } = await authorizeAndExchange(base, clientId, account);
      const foreign = await mcpCall(base, tokens.access_token, initialize, {
        origin: 'https://evil.example',
      });
      expect(foreign.status).toBe(403);
      const same = await mcpCall(base, tokens.access_token, initialize, { origin: base });
      expect(same.status).toBe(200);
      for (const method of ['GET', 'DELETE']) {
        const res = await fetch(`${base}/mcp`, {
          method,
          headers: { authorization: `Bearer ${tokens.access_token}` },
        });
        expect(res.status).toBe(405);
      }
      const version = await mcpCall(base, tokens.access_token, initialize, {
        'mcp-protocol-version': '1999-01-01',
      });
      expect(version.status).toBe(400);
    });
  });

  describe('authorization endpoint', () => {
    const params = (extra: Record<string, string | undefined> = {}) => ({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      state: 'xyz',
      ...extra,
    });

    it('sends a visitor without a session to /login, then to /consent', async () => {
      const res = await fetch(authorizationUrl(base, params()), { redirect: 'manual' });
      expect(res.status).toBe(302);
      const location = new URL(res.headers.get('location')!, base);
      expect(location.pathname).toBe('/login');
      expect(location.searchParams.get('next')).toMatch(/^\/consent\?/);
    });

    it('deny: back to the client with access_denied, state and iss, and no code', async () => {
      const callback = await authorizeInBrowser(
        new Browser(),
        authorizationUrl(base, params()),
        account,
        'deny',
      );
      expect(callback.origin + callback.pathname).toBe(REDIRECT_URI);
      expect(callback.searchParams.get('error')).toBe('access_denied');
      expect(callback.searchParams.get('state')).toBe('xyz');
      expect(callback.searchParams.get('iss')).toBe(base);
      expect(callback.searchParams.get('code')).toBeNull();
    });

    /** The error page: 400 HTML, no Location, whatever the client registered (RFC 9700 §4.11.2). */
    async function expectErrorPage(url: URL, says: string): Promise<void> {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toContain(says);
    }

    it.each([
      ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
      ['no PKCE', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      ['another resource', { resource: 'https://evil.example/' }, 'invalid_target'],
      ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
      ['another response type', { response_type: 'token' }, 'unsupported_response_type'],
    ])('%s: an error page, never a redirect to the registered URI', async (_name, extra, error) => {
      const phish = (await registerClient(base, { redirect_uris: ['https://evil.example/phish'] })).body
        .client_id;
      await expectErrorPage(
        authorizationUrl(
          base,
          params({ ...extra, client_id: phish, redirect_uri: 'https://evil.example/phish' }),
        ),
        error,
      );
      await expectErrorPage(authorizationUrl(base, params(extra)), error);
    });

    it('the consent page of a signed-in user shows the same errors as a page', async () => {
      const browser = new Browser();
      const page = await (await browser.fetch(`${base}/login`)).text();
      await browser.postForm(`${base}/login`, {
        ...hiddenFields(page),
        email: account.email,
        password: PASSWORD,
        action: 'sign-in',
      });
      const url = authorizationUrl(base, params({ scope: 'admin' }));
      const res = await browser.fetch(new URL(`/consent${url.search}`, base));
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.text()).toContain('invalid_scope');
    });

    it('an unknown client or an unregistered redirect URI never redirects', async () => {
      for (const extra of [
        { client_id: 'mcp_unknown' },
        { redirect_uri: 'https://attacker.example/cb' },
        { redirect_uri: 'http://127.0.0.1:49152/other-path' },
      ]) {
        const res = await fetch(authorizationUrl(base, params(extra)), { redirect: 'manual' });
        expect(res.status).toBe(400);
        expect(res.headers.get('location')).toBeNull();
        expect(res.headers.get('content-type')).toMatch(/text\/html/);
      }
    });

    it('matches a loopback redirect URI as registered but for the port, as a raw string', async () => {
      const native = (await registerClient(base, { redirect_uris: ['http://127.0.0.1:7777/cb'] })).body
        .client_id;
      for (const uri of [
        'http://user:pw@127.0.0.1:7777/cb',
        'http://127.0.0.1:7777/cb#frag',
        'http://127.0.0.1:7777/x/../cb',
        'http://127.1:7777/cb',
      ]) {
        await expectErrorPage(
          authorizationUrl(base, params({ client_id: native, redirect_uri: uri })),
          'did not register',
        );
      }
      const callback = await authorizeInBrowser(
        new Browser(),
        authorizationUrl(base, params({ client_id: native, redirect_uri: 'http://127.0.0.1:8888/cb' })),
        account,
      );
      expect(callback.origin + callback.pathname).toBe('http://127.0.0.1:8888/cb');
      expect(callback.searchParams.get('code')).toMatch(/^tj_code_/);
    });

    it('accepts a loopback redirect URI on another port (RFC 8252)', async () => {
      const res = await fetch(
        authorizationUrl(base, params({ redirect_uri: 'http://127.0.0.1:1234/callback' })),
        {
          redirect: 'manual',
        },
      );
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get('location')!, base).pathname).toBe('/login');
    });
  });

  describe('token endpoint', () => {
    it('issues an hour-long access token, a refresh token and every scope when none was asked', async () => {
      const { tokens, status } = await authorizeAndExchange(base, clientId, account);
      expect(status).toBe(200);
      expect(tokens).toEqual({
        access_token: expect.stringMatching(/^tj_at_/),
        token_type: 'Bearer',
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^tj_rt_/),
        scope: SCOPES.join(' '),
      });
    });

    it('a wrong PKCE verifier is invalid_grant, in the OAuth error body', async () => {
      const { challenge } = pkce();
      const callback = await approve(base, clientId, account, challenge);
      const res = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_verifier: pkce().verifier,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid_grant', error_description: expect.any(String) });
      expect(res.headers.get('cache-control')).toBe('no-store');
    });

    it('a reused code is refused and revokes what it issued', async () => {
      const { code, verifier, tokens } = await authorizeAndExchange(base, clientId, account);
      const again = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('invalid_grant');
      expect((await mcpCall(base, tokens.access_token, initialize)).status).toBe(401);
      const refresh = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      expect(refresh.body.error).toBe('invalid_grant');
    });

    it('refresh tokens rotate; a reused one revokes the whole family', async () => {
      const { tokens } = await authorizeAndExchange(base, clientId, account);
      const first = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      expect(first.status).toBe(200);
      expect(first.body.refresh_token).not.toBe(tokens.refresh_token);
      expect((await mcpCall(base, first.body.access_token, initialize)).status).toBe(200);
      const replay = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      expect(replay.body.error).toBe('invalid_grant');
      expect((await mcpCall(base, first.body.access_token, initialize)).status).toBe(401);
      const next = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token,
        client_id: clientId,
      });
      expect(next.body.error).toBe('invalid_grant');
    });

    it('a refresh may narrow scopes, never widen them', async () => {
      const { tokens } = await authorizeAndExchange(base, clientId, account, {
        scope: 'packs:read judgments:read',
      });
      expect(tokens.scope).toBe('packs:read judgments:read');
      const wider = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
        scope: 'packs:read packs:write',
      });
      expect(wider.body.error).toBe('invalid_scope');
    });

    it.each([
      ['a wider scope', { scope: 'packs:read packs:write' }, 'invalid_scope'],
      ['an unknown scope', { scope: 'admin' }, 'invalid_scope'],
      ['another resource', { resource: 'https://evil.example/' }, 'invalid_target'],
    ])(
      'a refresh refused for %s leaves the refresh token good for a plain retry',
      async (_name, extra, error) => {
        const { tokens } = await authorizeAndExchange(base, clientId, account, { scope: 'packs:read' });
        const refresh = {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: clientId,
        };
        const refused = await tokenRequest(base, { ...refresh, ...extra });
        expect(refused.status).toBe(400);
        expect(refused.body).toEqual({ error, error_description: expect.any(String) });
        const retry = await tokenRequest(base, refresh);
        expect(retry.status).toBe(200);
        expect(retry.body.scope).toBe('packs:read');
        expect((await mcpCall(base, tokens.access_token, initialize)).status).toBe(200);
        // True reuse still revokes the family.
        const reuse = await tokenRequest(base, refresh);
        expect(reuse.body.error).toBe('invalid_grant');
        expect((await mcpCall(base, retry.body.access_token, initialize)).status).toBe(401);
      },
    );

    it('a code for one client cannot be redeemed by another; a wrong resource is invalid_target', async () => {
      const other = (await registerClient(base)).body.client_id;
      const { verifier, challenge } = pkce();
      const callback = await approve(base, clientId, account, challenge);
      const code = callback.searchParams.get('code')!;
      const stolen = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code,
        client_id: other,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      });
      expect(stolen.body.error).toBe('invalid_grant');
      const { tokens } = await authorizeAndExchange(base, clientId, account);
      const target = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
        resource: 'https://elsewhere.example/mcp',
      });
      expect(target.body.error).toBe('invalid_target');
    });

    it('refuses unknown clients and grant types with OAuth errors', async () => {
      const unknown = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code: 'x',
        client_id: 'nope',
      });
      expect(unknown.status).toBe(401);
      expect(unknown.body.error).toBe('invalid_client');
      const grant = await tokenRequest(base, { grant_type: 'password', client_id: clientId });
      expect(grant.body.error).toBe('unsupported_grant_type');
      const twice = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=refresh_token&client_id=${clientId}&client_id=${clientId}`,
      });
      expect(twice.status).toBe(400);
      expect(((await twice.json()) as { error: string }).error).toBe('invalid_request');
    });

    it('confidential clients authenticate with their secret (Basic or body)', async () => {
      const registered = (await registerClient(base, { token_endpoint_auth_method: 'client_secret_basic' }))
        .body;
      expect(registered.client_secret).toMatch(/^tj_cs_/);
      const { challenge, verifier } = pkce();
      const callback = await approve(base, registered.client_id, account, challenge);
      const fields = {
        grant_type: 'authorization_code',
        code: callback.searchParams.get('code')!,
        redirect_uri: REDIRECT_URI,
        code_verifier: verifier,
      };
      const wrong = await tokenRequest(base, fields, {
        authorization: `Basic ${Buffer.from(`${registered.client_id}:wrong`).toString('base64')}`,
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body.error).toBe('invalid_client');
      const right = await tokenRequest(base, fields, {
        authorization: `Basic ${Buffer.from(`${registered.client_id}:${registered.client_secret}`).toString('base64')}`,
      });
      expect(right.status).toBe(200);
    });
    it('a confidential client authenticates only the way it registered', async () => {
      const basic = (await registerClient(base, { token_endpoint_auth_method: 'client_secret_basic' })).body;
      const post = (await registerClient(base, { token_endpoint_auth_method: 'client_secret_post' })).body;
      const basicHeader = (client: { client_id: string; client_secret: string }) => ({
        authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`,
      });
      const exchange = async (client: { client_id: string }, how: 'basic' | 'post', secret: string) => {
        const { challenge, verifier } = pkce();
        const callback = await approve(base, client.client_id, account, challenge);
        const fields = {
          grant_type: 'authorization_code',
          code: callback.searchParams.get('code')!,
          redirect_uri: REDIRECT_URI,
          code_verifier: verifier,
        };
        return how === 'basic'
          ? tokenRequest(base, fields, basicHeader({ client_id: client.client_id, client_secret: secret }))
          : tokenRequest(base, { ...fields, client_id: client.client_id, client_secret: secret });
      };
      const basicInBody = await exchange(basic, 'post', basic.client_secret);
      expect(basicInBody.status).toBe(401);
      expect(basicInBody.body).toEqual({
        error: 'invalid_client',
        error_description: 'this client authenticates with client_secret_basic only',
      });
      const postInHeader = await exchange(post, 'basic', post.client_secret);
      expect(postInHeader.status).toBe(401);
      expect(postInHeader.body.error).toBe('invalid_client');
      expect(postInHeader.headers.get('www-authenticate')).toBe('Basic realm="oauth"');
      expect((await exchange(basic, 'basic', basic.client_secret)).status).toBe(200);
      expect((await exchange(post, 'post', post.client_secret)).status).toBe(200);
    });

    it('takes form bodies only, as RFC 6749 asks and the metadata advertises', async () => {
      const { tokens } = await authorizeAndExchange(base, clientId, account);
      for (const path of ['/oauth/token', '/oauth/revoke']) {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            grant_type: 'refresh_token',
            refresh_token: tokens.refresh_token,
            token: tokens.refresh_token,
            client_id: clientId,
          }),
        });
        expect(res.status).toBe(400);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(await res.json()).toEqual({
          error: 'invalid_request',
          error_description: 'the body must be application/x-www-form-urlencoded',
        });
      }
      const empty = await fetch(`${base}/oauth/token`, { method: 'POST' });
      expect(empty.status).toBe(400);
      expect(((await empty.json()) as { error: string }).error).toBe('invalid_request');
      // Nothing was used up: the refresh token still works as a form.
      const form = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: clientId,
      });
      expect(form.status).toBe(200);
    });
  });

  describe('revocation and connected clients', () => {
    it('revoking a refresh token (RFC 7009) ends its access tokens too', async () => {
      const { tokens } = await authorizeAndExchange(base, clientId, account);
      const res = await fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: tokens.refresh_token, client_id: clientId }).toString(),
      });
      expect(res.status).toBe(200);
      expect((await mcpCall(base, tokens.access_token, initialize)).status).toBe(401);
      const unknown = await fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: 'tj_rt_unknown', client_id: clientId }).toString(),
      });
      expect(unknown.status).toBe(200);
    });

    it('a user lists connected clients and disconnects one: its tokens stop at once', async () => {
      const user = { email: uniqueEmail('connected'), password: PASSWORD };
      const { client: own } = await signUp(base, user.email);
      const app = (await registerClient(base, { client_name: 'Desk Assistant' })).body.client_id;
      const { tokens } = await authorizeAndExchange(base, app, user, { scope: 'packs:read' });
      const list = await own.get('/app/oauth-clients');
      expect(list.status).toBe(200);
      expect(list.body).toEqual([
        {
          id: app,
          name: 'Desk Assistant',
          host: null,
          scopes: ['packs:read'],
          connectedAt: expect.any(String),
          lastUsedAt: null,
        },
      ]);
      expect((await own.delete(`/app/oauth-clients/${app}`)).status).toBe(204);
      expect((await mcpCall(base, tokens.access_token, initialize)).status).toBe(401);
      const refresh = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: app,
      });
      expect(refresh.body.error).toBe('invalid_grant');
      expect((await own.get('/app/oauth-clients')).body).toEqual([]);
      const again = await own.delete(`/app/oauth-clients/${app}`);
      expect(again.status).toBe(404);
      expect(again.body).toEqual({ error: 'client not found' });
      // Another user's connection is not this user's to list or end.
      expect((await session.delete(`/app/oauth-clients/${app}`)).status).toBe(404);
    });
  });

  describe('dynamic client registration', () => {
    it.each([
      ['http on a public host', 'http://app.example.com/cb'],
      ['javascript:', 'javascript:alert(1)'],
      ['a fragment', 'https://app.example.com/cb#x'],
      ['a bare custom scheme', 'myapp:/cb'],
      ['not a URI', 'not a uri'],
    ])('refuses a redirect URI with %s', async (_name, uri) => {
      const res = await registerClient(base, { redirect_uris: [uri] });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_redirect_uri');
    });

    it('accepts https, loopback http and reverse-domain custom schemes', async () => {
      const res = await registerClient(base, {
        redirect_uris: ['https://app.example.com/cb', 'http://localhost:8080/cb', 'com.example.desk:/oauth'],
      });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        client_id: expect.stringMatching(/^mcp_/),
        token_endpoint_auth_method: 'none',
      });
      expect(res.body).not.toHaveProperty('client_secret');
    });

    it('refuses malformed metadata with invalid_client_metadata', async () => {
      for (const body of [
        { redirect_uris: [] },
        { redirect_uris: 'x' },
        { grant_types: ['client_credentials'] },
      ]) {
        const res = await registerClient(base, body);
        expect(res.status).toBe(400);
        expect(res.body.error).toBe('invalid_client_metadata');
      }
    });

    it.each([
      ['a bidi override in client_name', { client_name: 'Claude Desktop \u202Epot.evil' }],
      ['a zero-width space in client_name', { client_name: 'Claude\u200BDesktop' }],
      ['a bidi isolate in client_name', { client_name: 'Claude \u2066Desktop\u2069' }],
      ['an escape in client_name', { client_name: 'Claude \u001b[31m' }],
      ['a bidi override in client_uri', { client_uri: 'https://app.example/\u202Egnp.exe' }],
    ])('refuses %s with invalid_client_metadata', async (_name, metadata) => {
      const res = await registerClient(base, metadata);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_client_metadata',
        error_description: expect.stringContaining('control or format characters'),
      });
    });

    it('shows a name stored before registration refused such characters without them', async () => {
      const user = { email: uniqueEmail('old-name'), password: PASSWORD };
      const { client: own } = await signUp(base, user.email);
      const app = (await registerClient(base, { client_name: 'Claude Desktop' })).body.client_id;
      // As a row written before the check existed.
      await queryDatabase('UPDATE oauth_clients SET name = $2 WHERE id = $1', [
        app,
        'Claude \u202EpotkseD\u200B',
      ]);
      const browser = new Browser();
      const page = await (await browser.fetch(`${base}/login`)).text();
      await browser.postForm(`${base}/login`, { ...hiddenFields(page), ...user, action: 'sign-in' });
      const { challenge } = pkce();
      const url = authorizationUrl(base, {
        response_type: 'code',
        client_id: app,
        redirect_uri: REDIRECT_URI,
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const consent = await (await browser.fetch(new URL(`/consent${url.search}`, base))).text();
      expect(consent).toContain('Connect Claude potkseD?');
      expect(consent).not.toMatch(/[\u202E\u200B]/);
      await authorizeAndExchange(base, app, user);
      expect((await own.get('/app/oauth-clients')).body[0].name).toBe('Claude potkseD');
    });

    it('answers refusals made before its own code (NUL, nesting, duplicates) with the OAuth body', async () => {
      const res = await registerClient(base, { client_name: 'a\u0000b' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid_request',
        error_description: expect.stringContaining('client_name'),
      });
      const form = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=refresh_token&client_id=a%00b',
      });
      expect(form.status).toBe(400);
      expect(await form.json()).toEqual({ error: 'invalid_request', error_description: expect.any(String) });
    });

    it('is rate limited per client IP', async () => {
      const isolated = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-dcr` });
      try {
        const results = await Promise.all(Array.from({ length: 25 }, () => registerClient(isolated.url)));
        const statuses = results.map((res) => res.status).sort();
        expect(statuses).toEqual([...Array(20).fill(201), ...Array(5).fill(429)]);
      } finally {
        await isolated.close();
      }
    });
  });

  describe('the sign-in and consent pages', () => {
    it("show a registered client's redirect host, marked new until the user approves a client from it", async () => {
      const user = { email: uniqueEmail('oauth-host'), password: PASSWORD };
      await signUp(base, user.email);
      const redirect = 'https://desk.example.com/cb';
      const register = async () => (await registerClient(base, { redirect_uris: [redirect] })).body.client_id;
      const [first, second] = [await register(), await register()];
      const url = (client: string) =>
        authorizationUrl(base, {
          response_type: 'code',
          client_id: client,
          redirect_uri: redirect,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
        });
      const browser = new Browser();
      // Signs in on the way; denying records no approval.
      await authorizeInBrowser(browser, url(first), user, 'deny');
      const consentPage = async (client: string) => {
        const res = await browser.fetch(url(client));
        return (await browser.fetch(new URL(res.headers.get('location')!, base))).text();
      };
      const firstPage = await consentPage(first);
      expect(firstPage).toContain('<p class="host">desk.example.com</p>');
      expect(firstPage).toContain(
        'New:</strong> you have not connected an app from desk.example.com before.',
      );
      const approved = await browser.postForm(`${base}/consent`, {
        ...hiddenFields(firstPage),
        decision: 'approve',
      });
      expect(approved.headers.get('location')).toMatch(/^https:\/\/desk\.example\.com\/cb\?code=/);
      const secondPage = await consentPage(second);
      expect(secondPage).toContain('<p class="host">desk.example.com</p>');
      expect(secondPage).not.toContain('New:');
    });

    it('cannot be framed, cached or scripted, and label their fields', async () => {
      const res = await fetch(`${base}/login`);
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const html = await res.text();
      expect(html).toContain('<label for="email">');
      expect(html).toContain('<label for="password">');
    });

    it('refuse a consent or sign-in form without its CSRF token', async () => {
      const browser = new Browser();
      await browser.fetch(`${base}/login`);
      const login = await browser.postForm(`${base}/login`, {
        email: account.email,
        password: PASSWORD,
        action: 'sign-in',
      });
      expect(login.status).toBe(403);
      const consent = await browser.postForm(`${base}/consent`, {
        response_type: 'code',
        client_id: clientId,
        decision: 'approve',
      });
      expect(consent.status).toBe(303);
      expect(consent.headers.get('location')).toMatch(/^\/login\?next=/);
    });

    it('refuse a forged consent from a signed-in browser', async () => {
      const browser = new Browser();
      const url = authorizationUrl(base, {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      });
      const page = await (await browser.fetch(`${base}/login`)).text();
      await browser.postForm(`${base}/login`, {
        ...hiddenFields(page),
        email: account.email,
        password: PASSWORD,
        action: 'sign-in',
      });
      const consent = await browser.fetch(new URL(`/consent${url.search}`, base));
      const fields = hiddenFields(await consent.text());
      const forged = await browser.postForm(`${base}/consent`, {
        ...fields,
        csrf: 'forged',
        decision: 'approve',
      });
      expect(forged.status).toBe(403);
      const crossSite = await browser.fetch(`${base}/consent`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
        body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
      });
      expect(crossSite.status).toBe(403);
    });

    it('escape what a client registered, and never redirect off-site after sign-in', async () => {
      const evil = (await registerClient(base, { client_name: '<script>alert(1)</script>' })).body.client_id;
      const browser = new Browser();
      const page = await (await browser.fetch(`${base}/login?next=//evil.example/x`)).text();
      expect(page).not.toContain('evil.example');
      const signedIn = await browser.postForm(`${base}/login`, {
        ...hiddenFields(page),
        email: account.email,
        password: PASSWORD,
        action: 'sign-in',
        next: 'https://evil.example/',
      });
      expect(signedIn.headers.get('location')).toBe('/');
      const consent = await browser.fetch(
        new URL(
          `/consent${
            authorizationUrl(base, {
              response_type: 'code',
              client_id: evil,
              redirect_uri: REDIRECT_URI,
              code_challenge: pkce().challenge,
              code_challenge_method: 'S256',
            }).search
          }`,
          base,
        ),
      );
      const html = await consent.text();
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).not.toContain('<script>');
    });
  });
});
