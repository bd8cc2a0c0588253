import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { brotliCompressSync } from 'node:zlib';
import path from 'node:path';
import { startApi, type TestApi } from '../support/api.js';
import { Client, newTenant, signUp } from '../support/client.js';
import { createPack, createPublishedPack, TICKET } from '../support/packs.js';

const HTML = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
const INDEX = '<!doctype html><html><body><div id="root"></div></body></html>';
const FAVICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>';

/** The API serving a built web app: a small stand-in for dist/web, so the rules are tested alone. */
describe('the web app at /', () => {
  let api: TestApi;
  let webRoot: string;

  beforeAll(async () => {
    webRoot = mkdtempSync(path.join(os.tmpdir(), 'web-'));
    mkdirSync(path.join(webRoot, 'assets'));
    writeFileSync(path.join(webRoot, 'index.html'), INDEX);
    writeFileSync(path.join(webRoot, 'favicon.svg'), FAVICON);
    writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(webRoot, 'assets', 'index-abc123.js.br'), brotliCompressSync('console.log(1)'));
    api = await startApi({ WEB_ROOT: webRoot });
  });
  afterAll(async () => {
    await api.close();
    rmSync(webRoot, { recursive: true, force: true });
  });

  it('answers / and client routes with index.html to a signed-in browser, never cached, never framed', async () => {
    const { client } = await signUp(api.url);
    for (const route of [
      '/',
      '/packs',
      '/packs/2b0c3f4e-0000-4000-8000-000000000000',
      '/reviews?labeled=false',
    ]) {
      const res = await client.get(route, { headers: HTML });
      expect([route, res.status, res.text]).toEqual([route, 200, INDEX]);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('sends a browser without a session to /login first, and back to the page after it', async () => {
    const client = new Client(api.url);
    for (const [route, next] of [
      ['/', '%2F'],
      ['/reviews?labeled=false', '%2Freviews%3Flabeled%3Dfalse'],
    ]) {
      const res = await client.get(route, { headers: HTML });
      expect([route, res.status, res.headers.get('location')]).toEqual([route, 303, `/login?next=${next}`]);
    }
    const stale = await client.get('/packs', { headers: { ...HTML, cookie: 'tj_session=not-a-session' } });
    expect([stale.status, stale.headers.get('location')]).toEqual([303, '/login?next=%2Fpacks']);
  });

  it("answers /favicon.ico with the web app's SVG icon, and /favicon.svg too", async () => {
    const client = new Client(api.url);
    for (const route of ['/favicon.ico', '/favicon.svg']) {
      const res = await client.get(route);
      expect([route, res.status, res.headers.get('content-type')]).toEqual([route, 200, 'image/svg+xml']);
      expect(res.text).toBe(FAVICON);
    }
  });

  it('serves hashed assets with a long cache', async () => {
    const res = await new Client(api.url).get('/assets/index-abc123.js');
    expect(res.status).toBe(200);
    expect(res.text).toBe('console.log(1)');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-type')).toMatch(/javascript/);
  });

  it('serves the brotli copy written at build time to browsers that accept it', async () => {
    const response = await fetch(`${api.url}/assets/index-abc123.js`, {
      headers: { 'accept-encoding': 'br' },
    });
    expect(response.headers.get('content-encoding')).toBe('br');
    expect(await response.text()).toBe('console.log(1)');
  });

  it("keeps the API's JSON 404 under its own paths and for clients that do not ask for HTML", async () => {
    const client = new Client(api.url);
    for (const [route, headers] of [
      ['/api/nothing-here', HTML],
      ['/app/nothing-here', HTML],
      ['/.well-known/nothing-here', HTML],
      ['/packs', {}],
      ['/assets/missing.js', {}],
    ] as const) {
      const res = await client.get(route, { headers });
      expect([route, res.status, res.body]).toEqual([route, 404, { error: 'not found' }]);
    }
    // Under /oauth, errors keep the OAuth body.
    const oauth = await client.get('/oauth/nothing-here', { headers: HTML });
    expect([oauth.status, oauth.body.error_description]).toEqual([404, 'not found']);
  });

  it('leaves the server pages and the API as they were', async () => {
    const client = new Client(api.url);
    const login = await client.get('/login', { headers: HTML });
    expect(login.status).toBe(200);
    expect(login.text).toContain('<form method="post" action="/login">');
    expect((await client.get('/healthz', { headers: HTML })).status).toBe(200);
    expect((await client.get('/api/packs', { headers: HTML })).status).toBe(401);
  });
});

describe('the app without a build', () => {
  it('starts and answers JSON 404 at /, and 204 at /favicon.ico', async () => {
    const api = await startApi({ WEB_ROOT: path.join(os.tmpdir(), 'no-such-web-build') });
    try {
      const res = await new Client(api.url).get('/', { headers: HTML });
      expect([res.status, res.body]).toEqual([404, { error: 'not found' }]);
      expect((await new Client(api.url).get('/favicon.ico')).status).toBe(204);
    } finally {
      await api.close();
    }
  });
});

describe('POST /app/playground/judge', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  it('judges with the live version, stores source playground and returns the redacted ticket', async () => {
    const { session } = await newTenant(api.url);
    const pack = await createPublishedPack(session);
    const ticket = {
      ...TICKET,
      customerMessage: 'Refund to jane.doe@example.com please, I was charged twice',
    };
    const res = await session.post('/app/playground/judge', { packId: pack.id, ticket });
    expect(res.status).toBe(200);
    expect(res.body.packVersionId).toBe(pack.liveVersionId);
    expect(res.body.redactedTicket.customerMessage).toBe('Refund to [EMAIL] please, I was charged twice');
    const stored = await session.get(`/api/evaluations/${res.body.evaluationId}`);
    expect(stored.body).toMatchObject({ source: 'playground', packVersionId: pack.liveVersionId });
  });

  it('judges with the draft of a pack that was never published', async () => {
    const { session } = await newTenant(api.url);
    const pack = await createPack(session);
    expect((await session.post('/app/playground/judge', { packId: pack.id, ticket: TICKET })).body).toEqual({
      error: 'pack has no published version',
    });
    const res = await session.post('/app/playground/judge', {
      packId: pack.id,
      packVersionId: pack.draftVersionId,
      ticket: TICKET,
    });
    expect(res.status).toBe(200);
    expect(res.body.packVersionId).toBe(pack.draftVersionId);
  });

  it("refuses API keys, another user's pack or version, and malformed tickets", async () => {
    const a = await newTenant(api.url);
    const b = await newTenant(api.url);
    const pack = await createPublishedPack(a.session);
    const keyed = await a.keyed.post('/app/playground/judge', { packId: pack.id, ticket: TICKET });
    expect([keyed.status, keyed.body]).toEqual([401, { error: 'sign in required' }]);
    const otherPack = await b.session.post('/app/playground/judge', { packId: pack.id, ticket: TICKET });
    expect([otherPack.status, otherPack.body]).toEqual([404, { error: 'pack not found' }]);
    const ownPack = await createPack(b.session);
    const otherVersion = await b.session.post('/app/playground/judge', {
      packId: ownPack.id,
      packVersionId: pack.liveVersionId,
      ticket: TICKET,
    });
    expect([otherVersion.status, otherVersion.body]).toEqual([404, { error: 'version not found' }]);
    const invalid = await a.session.post('/app/playground/judge', { packId: pack.id, ticket: [] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error).toBe('invalid request');
  });
});

describe('POST /app/playground/judge limits', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ API_RATE_LIMIT_PER_DAY: '2' });
  });
  afterAll(() => api.close());

  it('gives each user the daily budget of one key, then 429 with Retry-After', async () => {
    const { session } = await newTenant(api.url);
    const pack = await createPublishedPack(session);
    const judge = () => session.post('/app/playground/judge', { packId: pack.id, ticket: TICKET });
    expect([(await judge()).status, (await judge()).status]).toEqual([200, 200]);
    const refused = await judge();
    expect([refused.status, refused.body]).toEqual([429, { error: 'rate limit exceeded' }]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = await newTenant(api.url);
    const theirs = await createPublishedPack(other.session);
    expect(
      (await other.session.post('/app/playground/judge', { packId: theirs.id, ticket: TICKET })).status,
    ).toBe(200);
  });

  it("refuses a deleted pack's versions", async () => {
    const { session } = await newTenant(api.url);
    const pack = await createPublishedPack(session);
    expect((await session.delete(`/api/packs/${pack.id}`)).status).toBe(204);
    const res = await session.post('/app/playground/judge', {
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      ticket: TICKET,
    });
    expect([res.status, res.body]).toEqual([404, { error: 'pack not found' }]);
  });
});
