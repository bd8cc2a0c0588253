import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant } from '../support/client.js';
import { queryDatabase } from '../support/db.js';
import { Receiver, verifies } from '../support/receiver.js';

const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-endpoint-test`;
const NOT_FOUND = { error: 'webhook endpoint not found' };

/** A local port with nothing listening: a receiver that is down. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('POST /api/webhook-endpoints/{id}/test', () => {
  let api: TestApi;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    api = await startApi({ REDIS_PREFIX: PREFIX });
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it('sends one signed endpoint.test event and reports the status and time, storing no delivery', async () => {
    const { keyed, user } = await newTenant(api.url);
    const saved = (await keyed.post('/api/webhook-endpoints', { url: receiver.url })).body;
    receiver.delayMs = 150;
    const before = receiver.calls.length;
    const res = await keyed.post(`/api/webhook-endpoints/${saved.id}/test`);
    receiver.delayMs = 0;
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, status: 200, durationMs: expect.any(Number), error: null });
    expect(res.body.durationMs).toBeGreaterThanOrEqual(150);
    expect(res.body.durationMs).toBeLessThan(10_000);

    const [call] = receiver.calls.slice(before);
    expect(receiver.calls).toHaveLength(before + 1);
    expect(verifies(saved.secret, call.raw, call.headers['x-service-signature'])).toBe(true);
    expect(
      verifies(
        saved.secret,
        call.raw.replace('endpoint.test', 'endpoint.tesT'),
        call.headers['x-service-signature'],
      ),
    ).toBe(false);
    expect(call.body).toEqual({
      type: 'endpoint.test',
      deliveryId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sentAt: expect.any(String),
      endpointId: saved.id,
    });
    expect(call.headers['x-service-delivery-id']).toBe(call.body.deliveryId);
    expect(call.headers['content-type']).toBe('application/json');
    expect(Math.abs(Date.now() - Date.parse(call.body.sentAt))).toBeLessThan(60_000);

    // Not a delivery: nothing listed, stored, retried or counted as a failure.
    expect((await keyed.get('/api/webhook-deliveries')).body).toEqual({ items: [], nextCursor: null });
    const rows = await queryDatabase('SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1', [
      user.id,
    ]);
    expect(rows[0].n).toBe(0);
  });

  it('reports a refusing receiver as not ok with its status, and each test gets a fresh delivery id', async () => {
    const { keyed } = await newTenant(api.url);
    const saved = (await keyed.post('/api/webhook-endpoints', { url: receiver.url })).body;
    receiver.next(500);
    const failed = await keyed.post(`/api/webhook-endpoints/${saved.id}/test`);
    expect([failed.status, failed.body]).toEqual([
      200,
      { ok: false, status: 500, durationMs: expect.any(Number), error: 'HTTP 500' },
    ]);
    receiver.next(302);
    expect((await keyed.post(`/api/webhook-endpoints/${saved.id}/test`)).body).toMatchObject({
      ok: false,
      status: 302,
      error: 'HTTP 302',
    });
    const [a, b] = receiver.calls.slice(-2);
    expect(a.body.deliveryId).not.toBe(b.body.deliveryId);
  });

  it('reports a receiver that is down (no status, the connection error), not a 500', async () => {
    const { keyed } = await newTenant(api.url);
    const url = `http://127.0.0.1:${await closedPort()}/hooks`;
    const saved = (await keyed.post('/api/webhook-endpoints', { url })).body;
    const res = await keyed.post(`/api/webhook-endpoints/${saved.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: false,
      status: null,
      durationMs: expect.any(Number),
      error: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('gives up on a receiver that does not answer within 10 s', async () => {
    const { keyed } = await newTenant(api.url);
    const saved = (await keyed.post('/api/webhook-endpoints', { url: receiver.url })).body;
    receiver.delayMs = 12_000;
    try {
      const res = await keyed.post(`/api/webhook-endpoints/${saved.id}/test`);
      expect(res.body).toMatchObject({ ok: false, status: null });
      expect(res.body.durationMs).toBeGreaterThanOrEqual(9_900);
      expect(res.body.durationMs).toBeLessThan(11_500);
    } finally {
      receiver.delayMs = 0;
    }
  }, 30_000);

  it("answers 404 for another user's, a replaced, an unknown or a malformed id, sending nothing", async () => {
    const alice = await newTenant(api.url);
    const bob = await newTenant(api.url);
    const theirs = (await alice.keyed.post('/api/webhook-endpoints', { url: receiver.url })).body;
    const before = receiver.calls.length;
    for (const client of [bob.keyed, bob.session]) {
      const res = await client.post(`/api/webhook-endpoints/${theirs.id}/test`);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
    const replaced = (await bob.keyed.post('/api/webhook-endpoints', { url: receiver.url })).body;
    await bob.keyed.post('/api/webhook-endpoints', { url: receiver.url });
    for (const id of [replaced.id, '7c2e5a90-1b4d-4e8f-9a36-0d5f2c8b1e47', 'not-a-uuid']) {
      const res = await bob.keyed.post(`/api/webhook-endpoints/${id}/test`);
      expect([res.status, res.body]).toEqual([404, NOT_FOUND]);
    }
    expect(receiver.calls).toHaveLength(before);
  });

  it('needs packs:write, and takes a session too', async () => {
    const { session } = await newTenant(api.url);
    const saved = (await session.post('/api/webhook-endpoints', { url: receiver.url })).body;
    const { client: reader } = await createKey(session, ['packs:read']);
    const refused = await reader.post(`/api/webhook-endpoints/${saved.id}/test`);
    expect([refused.status, refused.body]).toEqual([403, { error: 'missing permission packs:write' }]);
    expect((await session.post(`/api/webhook-endpoints/${saved.id}/test`)).body).toMatchObject({ ok: true });
  });
});
