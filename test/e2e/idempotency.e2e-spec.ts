import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

describe('Idempotency-Key on POST /api/judge', () => {
  let api: TestApi;
  let gateway: FakeGateway;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, MODEL_TIMEOUT_MS: '2000' });
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  const judge = (client: Awaited<ReturnType<typeof newTenant>>['keyed'], packId: string, key?: string) =>
    client.post(
      '/api/judge',
      { packId, ticket: TICKET },
      key === undefined ? {} : { headers: { 'idempotency-key': key } },
    );

  it('replays the stored evaluation without calling the model again', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const first = await judge(keyed, pack.id, 'order-42');
    const second = await judge(keyed, pack.id, 'order-42');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(gateway.calls).toBe(1);
    const other = await judge(keyed, pack.id, 'order-43');
    expect(other.body.evaluationId).not.toBe(first.body.evaluationId);
    expect(gateway.calls).toBe(2);
  });

  it('keeps keys per user', async () => {
    const alice = await newTenant(api.url);
    const bob = await newTenant(api.url);
    const alicePack = await createPublishedPack(alice.keyed);
    const bobPack = await createPublishedPack(bob.keyed);
    const a = await judge(alice.keyed, alicePack.id, 'shared-key');
    const b = await judge(bob.keyed, bobPack.id, 'shared-key');
    expect(b.body.evaluationId).not.toBe(a.body.evaluationId);
    expect(gateway.calls).toBe(2);
  });

  it.each([
    ['gateway_auth', 401],
    ['gateway_unavailable', 503],
  ])('does not store the key for %s: the same key runs the call again', async (kind, status) => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.next({ kind: 'status', status });
    const failed = await judge(keyed, pack.id, `retry-${kind}`);
    expect(failed.body.result.reviewReasons).toEqual([kind]);
    const retried = await judge(keyed, pack.id, `retry-${kind}`);
    expect(retried.body.result.reviewReasons).toEqual([]);
    expect(retried.body.evaluationId).not.toBe(failed.body.evaluationId);
    const replayed = await judge(keyed, pack.id, `retry-${kind}`);
    expect(replayed.body).toEqual(retried.body);
    expect(gateway.calls).toBe(2);
  });

  it('stores the key for other review results: invalid output is replayed, not re-run', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.next({ kind: 'content', content: 'not json' });
    const first = await judge(keyed, pack.id, 'garbage');
    const second = await judge(keyed, pack.id, 'garbage');
    expect(first.body.result.reviewReasons).toEqual(['invalid_model_output']);
    expect(second.body).toEqual(first.body);
    expect(gateway.calls).toBe(1);
  });

  it('calls the model once for concurrent requests with the same key; the others wait and get its evaluation', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.set({ kind: 'answer', delayMs: 300 });
    const responses = await Promise.all(Array.from({ length: 5 }, () => judge(keyed, pack.id, 'burst')));
    expect(responses.map((res) => res.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(responses.map((res) => res.body.evaluationId)).size).toBe(1);
    expect(gateway.calls).toBe(1);
  });

  it('does not store the key when the request itself fails (404), so a later valid one runs', async () => {
    const { keyed } = await newTenant(api.url);
    const missing = await judge(keyed, '00000000-0000-4000-8000-000000000000', 'early');
    expect(missing.status).toBe(404);
    const pack = await createPublishedPack(keyed);
    const ok = await judge(keyed, pack.id, 'early');
    expect(ok.status).toBe(200);
    expect(gateway.calls).toBe(1);
  });

  it('keeps a key for 24 hours; an expired key runs the call again', async () => {
    const { keyed, user } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const first = await judge(keyed, pack.id, 'daily');
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(
        `SELECT extract(epoch FROM expires_at - created_at)::int AS ttl FROM idempotency_keys WHERE user_id = $1 AND key = 'daily'`,
        [user.id],
      );
      expect(rows).toEqual([{ ttl: 24 * 3600 }]);
      expect((await judge(keyed, pack.id, 'daily')).body.evaluationId).toBe(first.body.evaluationId);
      // A day later (moved in the database rather than waited for):
      await db.query(
        `UPDATE idempotency_keys SET created_at = created_at - interval '1 day', expires_at = now() - interval '1 second' WHERE user_id = $1`,
        [user.id],
      );
    } finally {
      await db.end();
    }
    const later = await judge(keyed, pack.id, 'daily');
    expect(later.body.evaluationId).not.toBe(first.body.evaluationId);
    expect(gateway.calls).toBe(2);
  });

  it('uses its own surface: the judge key table rows are scoped by surface', async () => {
    const { keyed, user } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    await judge(keyed, pack.id, 'surface-check');
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT surface FROM idempotency_keys WHERE user_id = $1`, [user.id]);
      expect(rows).toEqual([{ surface: 'judge' }]);
    } finally {
      await db.end();
    }
  });

  it('refuses a key that is empty or longer than 128 characters with 400 and an issue on the header', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    for (const key of ['', 'k'.repeat(129)]) {
      const res = await judge(keyed, pack.id, key);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid request',
        issues: [{ path: 'headers.idempotency-key', message: 'Idempotency-Key must be 1 to 128 characters' }],
      });
    }
    expect((await judge(keyed, pack.id, 'k'.repeat(128))).status).toBe(200);
    expect((await judge(keyed, pack.id, 'k')).status).toBe(200);
    expect(gateway.calls).toBe(2);
  });
});
