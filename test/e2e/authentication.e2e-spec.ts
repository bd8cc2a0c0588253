import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { Client, createKey, newTenant, signUp } from '../support/client.js';
import { ProbeModule } from '../support/probe.module.js';

const PERMISSIONS = [
  'packs:read',
  'packs:write',
  'judgments:run',
  'judgments:read',
  'simulations:run',
  'labels:write',
];
const probe = (permission: string) => `/api/probe/${permission.replace(':', '/')}`;

describe('authentication and permissions on product routes', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({}, { extraModules: [ProbeModule] });
  });
  afterAll(async () => {
    await api.close();
  });

  it('accepts the key in x-api-key and as a Bearer token', async () => {
    const { keyed, user, key } = await newTenant(api.url);
    const viaHeader = await keyed.get(probe('packs:read'));
    expect(viaHeader.status).toBe(200);
    expect(viaHeader.body).toEqual({ kind: 'apiKey', userId: user.id });
    const viaBearer = await new Client(api.url).get(probe('packs:read'), {
      headers: { authorization: `Bearer ${key.secret}` },
    });
    expect(viaBearer.status).toBe(200);
    expect(viaBearer.body).toEqual({ kind: 'apiKey', userId: user.id });
  });

  it('answers 401 API key required with no credential and invalid API key for a bad one', async () => {
    const none = await new Client(api.url).get(probe('packs:read'));
    expect(none.status).toBe(401);
    expect(none.body).toEqual({ error: 'API key required' });
    for (const secret of ['nonsense', 'tj_live_' + 'A'.repeat(49)]) {
      const bad = await new Client(api.url).get(probe('packs:read'), { apiKey: secret });
      expect(bad.status).toBe(401);
      expect(bad.body).toEqual({ error: 'invalid API key' });
    }
    const badBearer = await new Client(api.url).get(probe('packs:read'), {
      headers: { authorization: 'Bearer nope' },
    });
    expect(badBearer.body).toEqual({ error: 'invalid API key' });
  });

  it('accepts a session on ordinary product routes, with every permission', async () => {
    const { client, user } = await signUp(api.url);
    for (const permission of PERMISSIONS) {
      const res = await client.get(probe(permission));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ kind: 'session', userId: user.id });
    }
  });

  it('never falls back to the session when a key is sent', async () => {
    const { session } = await newTenant(api.url);
    const res = await session.get(probe('packs:read'), { apiKey: 'tj_live_wrong' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'invalid API key' });
    const { client: readOnly } = await createKey(session, ['packs:read']);
    const limited = await readOnly.get(probe('packs:write'), { cookie: session.cookie });
    expect(limited.status).toBe(403);
    expect(limited.body).toEqual({ error: 'missing permission packs:write' });
  });

  it('refuses a session alone on key-only routes with 401 API key required', async () => {
    const { session, keyed, user } = await newTenant(api.url);
    const res = await session.post(`${probe('judgments:run')}/key-only`);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'API key required' });
    const withKey = await keyed.post(`${probe('judgments:run')}/key-only`);
    expect(withKey.status).toBe(201);
    expect(withKey.body).toEqual({ kind: 'apiKey', userId: user.id });
  });

  it.each(PERMISSIONS)('answers 403 missing permission %s to a key without it', async (permission) => {
    const { client } = await signUp(api.url);
    const others = PERMISSIONS.filter((p) => p !== permission);
    const { client: keyed } = await createKey(client, others);
    const res = await keyed.get(probe(permission));
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: `missing permission ${permission}` });
    const { client: allowed } = await createKey(client, [permission]);
    expect((await allowed.get(probe(permission))).status).toBe(200);
  });
});
