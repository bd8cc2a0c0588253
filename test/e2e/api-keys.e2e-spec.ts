import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { Client, createKey, signUp } from '../support/client.js';
import { ProbeModule } from '../support/probe.module.js';

const ALL = [
  'packs:read',
  'packs:write',
  'judgments:run',
  'judgments:read',
  'simulations:run',
  'labels:write',
];

describe('API keys (/app/keys)', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({}, { extraModules: [ProbeModule] });
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates a key with every permission by default and shows the secret once', async () => {
    const { client } = await signUp(api.url);
    const created = await client.post('/app/keys', { name: 'helpdesk' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'helpdesk',
      prefix: created.body.secret.slice(0, 14),
      permissions: ALL,
      createdAt: expect.any(String),
      lastUsedAt: null,
      secret: expect.stringMatching(/^tj_live_[0-9A-Za-z]{49}$/),
    });
    const list = await client.get('/app/keys');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: created.body.id,
        name: 'helpdesk',
        prefix: created.body.prefix,
        permissions: ALL,
        createdAt: created.body.createdAt,
        lastUsedAt: null,
      },
    ]);
    expect(list.text).not.toContain(created.body.secret);
  });

  it('records lastUsedAt when the key is used', async () => {
    const { client } = await signUp(api.url);
    const { client: keyed, key } = await createKey(client);
    expect((await keyed.get('/api/probe/packs/read')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [listed] = (await client.get('/app/keys')).body;
    expect(listed.id).toBe(key.id);
    expect(Date.parse(listed.lastUsedAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('creates a key with chosen permissions and refuses unknown ones', async () => {
    const { client } = await signUp(api.url);
    const ok = await client.post('/app/keys', { name: 'read only', permissions: ['packs:read'] });
    expect(ok.status).toBe(201);
    expect(ok.body.permissions).toEqual(['packs:read']);
    const bad = await client.post('/app/keys', { name: 'x', permissions: ['packs:read', 'packs:delete'] });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid request');
    expect(bad.body.issues[0].path).toBe('permissions');
  });

  it('rotates a key: the old secret stops working at once, the new one works', async () => {
    const { client } = await signUp(api.url);
    const { key } = await createKey(client);
    const rotated = await client.post(`/app/keys/${key.id}/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.id).toBe(key.id);
    expect(rotated.body.secret).not.toBe(key.secret);
    const old = await client.get('/api/probe/packs/read', { apiKey: key.secret, cookie: null });
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: 'invalid API key' });
    const fresh = await client.get('/api/probe/packs/read', { apiKey: rotated.body.secret, cookie: null });
    expect(fresh.status).toBe(200);
  });

  it('revokes a key: 401 invalid API key afterwards, and it leaves the list', async () => {
    const { client } = await signUp(api.url);
    const { key, client: keyed } = await createKey(client);
    expect((await keyed.get('/api/probe/packs/read')).status).toBe(200);
    const revoked = await client.delete(`/app/keys/${key.id}`);
    expect(revoked.status).toBe(204);
    const after = await keyed.get('/api/probe/packs/read');
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'invalid API key' });
    expect((await client.get('/app/keys')).body).toEqual([]);
    expect((await client.delete(`/app/keys/${key.id}`)).status).toBe(404);
  });

  it("treats another user's key as missing", async () => {
    const { client: alice } = await signUp(api.url);
    const { client: bob } = await signUp(api.url);
    const { key } = await createKey(alice);
    for (const res of [
      await bob.post(`/app/keys/${key.id}/rotate`),
      await bob.delete(`/app/keys/${key.id}`),
      await bob.delete('/app/keys/not-a-uuid'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'API key not found' });
    }
    expect((await alice.withKey(key.secret).get('/api/probe/packs/read')).status).toBe(200);
  });

  it('takes a session only: an API key is not accepted on /app/keys', async () => {
    const { client } = await signUp(api.url);
    const { client: keyed } = await createKey(client);
    for (const res of [await keyed.get('/app/keys'), await keyed.post('/app/keys', { name: 'x' })]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'sign in required' });
    }
    const anonymous = await new Client(api.url).get('/app/keys');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'sign in required' });
  });

  it('has no /api/keys route', async () => {
    const { client } = await signUp(api.url);
    const { client: keyed } = await createKey(client);
    for (const res of [
      await keyed.get('/api/keys'),
      await keyed.post('/api/keys', { name: 'x' }),
      await client.get('/api/keys'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not found' });
    }
  });
});
