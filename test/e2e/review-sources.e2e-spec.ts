import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

/**
 * Live traffic apart from experiments (issue 22, items 1 and 3): `source` on GET /api/reviews and
 * GET /api/stats, one value or several, and the review queue's `total`.
 */
describe('review queue and stats by source', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let db: pg.Client;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url });
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await api.close();
    await gateway.close();
  });

  interface Tenant {
    keyed: Client;
    session: Client;
    userId: string;
    pack: { id: string; liveVersionId: string };
  }

  async function tenant(): Promise<Tenant> {
    const { keyed, session, user } = await newTenant(api.url);
    return { keyed, session, userId: user.id, pack: await createPublishedPack(keyed) };
  }

  /**
   * `count` evaluations of one source and status in one INSERT (as the coalesced inserts write
   * them), one millisecond apart and older than the ones before; returns their ids, newest first.
   */
  const base = new Date().toISOString();
  let clock = 0;
  async function insert(t: Tenant, source: string, status: string, count = 1): Promise<string[]> {
    const start = (clock += count + 1);
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                latency_ms, input_tokens, output_tokens, created_at)
       SELECT gen_random_uuid(), $1, $2, $3, $4, $5, '{"subject":"s","customerMessage":"m"}',
              jsonb_build_object('status', $5::text, 'answers', '{"department":{"type":"choice","choice":"billing"}}'::jsonb,
                                 'reviewReasons', '[]'::jsonb, 'modelId', 'm', 'latencyMs', 10),
              'm', 10, 2, 1, $8::timestamptz - interval '1 millisecond' * ($6::int + i)
         FROM generate_series(0, $7::int - 1) AS i
       ORDER BY i
       RETURNING id`,
      [t.userId, t.pack.id, t.pack.liveVersionId, source, status, start, count, base],
    );
    return rows.map((row) => row.id);
  }

  const ids = async (client: Client, query: string) => {
    const res = await client.get(`/api/reviews${query}`);
    expect(res.status).toBe(200);
    return res.body.items.map((item: { id: string }) => item.id);
  };

  it('filters the review queue by one source or several, repeated or comma-separated', async () => {
    const t = await tenant();
    const [api1] = await insert(t, 'api', 'review');
    const [sim1, sim2] = await insert(t, 'simulation', 'review', 2);
    const [hook1] = await insert(t, 'webhook', 'review');
    const [play1] = await insert(t, 'playground', 'review');
    const [mcp1] = await insert(t, 'mcp', 'review');
    await insert(t, 'api', 'accept');

    // The default is every source, as before.
    expect(await ids(t.keyed, '')).toEqual([api1, sim1, sim2, hook1, play1, mcp1]);
    expect(await ids(t.keyed, '?source=simulation')).toEqual([sim1, sim2]);
    const live = [api1, hook1, mcp1];
    expect(await ids(t.keyed, '?source=api&source=webhook&source=mcp')).toEqual(live);
    expect(await ids(t.keyed, '?source=api,webhook,mcp')).toEqual(live);
    expect(await ids(t.keyed, '?source=api,webhook&source=mcp&source=api')).toEqual(live);
    expect(await ids(t.keyed, `?source=playground,simulation&packId=${t.pack.id}`)).toEqual([
      sim1,
      sim2,
      play1,
    ]);
    // With the other filters: labeled and questionId.
    await t.keyed.post(`/api/evaluations/${sim1}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
    });
    expect(await ids(t.keyed, '?source=simulation&labeled=false')).toEqual([sim2]);
    expect(await ids(t.keyed, '?source=simulation&labeled=true&questionId=department')).toEqual([sim1]);
    // The session (the web app) gets the same.
    expect(await ids(t.session, '?source=api&source=webhook&source=mcp')).toEqual(live);
  });

  it('pages a source-filtered queue with its cursor, none lost or repeated', async () => {
    const t = await tenant();
    const live = await insert(t, 'api', 'review', 60);
    await insert(t, 'simulation', 'review', 30);
    const first = await t.keyed.get('/api/reviews?source=api');
    expect(first.body.items).toHaveLength(50);
    const cursor = encodeURIComponent(first.body.nextCursor);
    const second = await t.keyed.get(`/api/reviews?source=api&cursor=${cursor}`);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.items, ...second.body.items].map((item: { id: string }) => item.id);
    expect(all).toEqual(live);
  });

  it('refuses an unknown or empty source with 400 and an issue naming it', async () => {
    const t = await tenant();
    for (const query of ['source=live', 'source=', 'source=api,', 'source=api&source=nope', 'source=API']) {
      for (const route of ['/api/reviews', '/api/stats']) {
        const res = await t.keyed.get(`${route}?${query}`);
        expect({ query, route, status: res.status }).toEqual({ query, route, status: 400 });
        expect(res.body.error).toBe('invalid request');
        expect(res.body.issues).toEqual(
          expect.arrayContaining([expect.objectContaining({ path: 'source' })]),
        );
      }
    }
  });

  it("never counts or lists another user's evaluations, whatever the sources", async () => {
    const a = await tenant();
    const b = await tenant();
    await insert(a, 'api', 'review', 3);
    await insert(a, 'simulation', 'review', 2);
    const [own] = await insert(b, 'api', 'review');
    const res = await b.keyed.get('/api/reviews?source=api,simulation');
    expect(res.body).toEqual({
      items: [expect.objectContaining({ id: own })],
      nextCursor: null,
      total: 1,
      totalCapped: false,
    });
    expect((await b.keyed.get('/api/reviews?source=simulation')).body).toEqual({
      items: [],
      nextCursor: null,
      total: 0,
      totalCapped: false,
    });
    const stats = (await b.keyed.get('/api/stats?source=api&source=simulation')).body;
    expect(stats.evaluationsToday).toBe(1);
    expect(stats.reviewsToLabel).toBe(1);
  });

  it('counts the whole queue for the filters in total, exact up to 1,000 and capped beyond', async () => {
    const t = await tenant();
    const reviews = await insert(t, 'api', 'review', 57);
    await insert(t, 'simulation', 'review', 4);
    await insert(t, 'api', 'accept', 5);
    const page = async (query: string) => (await t.keyed.get(`/api/reviews${query}`)).body;
    const first = await page('');
    expect([first.total, first.totalCapped, first.items.length]).toEqual([61, false, 50]);
    // Every page carries the same total.
    const next = await page(`?cursor=${encodeURIComponent(first.nextCursor)}`);
    expect([next.total, next.items.length]).toEqual([61, 11]);
    expect((await page('?source=api')).total).toBe(57);
    expect((await page('?source=simulation')).total).toBe(4);
    await t.keyed.post(`/api/evaluations/${reviews[0]}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'technical' },
    });
    expect((await page('?labeled=false&source=api')).total).toBe(56);
    expect((await page('?labeled=true')).total).toBe(1);
    expect((await page(`?packId=${t.pack.id}&questionId=department`)).total).toBe(61);
    expect((await page('?questionId=nope')).total).toBe(0);
    expect((await page(`?packId=${randomUUID()}`)).total).toBe(0);
    expect((await page('?packId=not-a-uuid')).total).toBe(0);

    await insert(t, 'simulation', 'review', 1_000);
    const capped = await page('');
    expect([capped.total, capped.totalCapped]).toEqual([1_000, true]);
    expect((await page('?source=simulation')).total).toBe(1_000);
    expect((await page('?source=simulation')).totalCapped).toBe(true);
    const live = await page('?source=api,webhook,mcp');
    expect([live.total, live.totalCapped]).toEqual([57, false]);
  });

  it('counts stats per source, and the default answer stays every source', async () => {
    const t = await tenant();
    gateway.next({ kind: 'answer', confidence: 0.3 });
    const judged = await t.keyed.post('/api/judge', { packId: t.pack.id, ticket: TICKET });
    expect(judged.body.result.status).toBe('review');
    gateway.next({ kind: 'answer', choose: { department: 'technical', abusive: false } });
    const played = await t.session.post('/app/playground/judge', { packId: t.pack.id, ticket: TICKET });
    expect(played.status).toBe(200);
    await insert(t, 'simulation', 'review', 240);
    await insert(t, 'webhook', 'reject', 2);
    const yesterday = `date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC' - interval '1 hour'`;
    // One webhook evaluation yesterday (UTC):
    await db.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                latency_ms, input_tokens, output_tokens, created_at)
       VALUES ($1, $2, $3, $4, 'webhook', 'accept', '{"subject":"s","customerMessage":"m"}',
               '{"status":"accept","answers":{},"reviewReasons":[],"modelId":"m","latencyMs":10}', 'm', 30, 5, 5, ${yesterday})`,
      [randomUUID(), t.userId, t.pack.id, t.pack.liveVersionId],
    );

    const all = (await t.keyed.get('/api/stats')).body;
    expect(all.evaluationsToday).toBe(1 + 1 + 240 + 2);
    expect(all.byStatus).toEqual({ accept: 1, review: 241, reject: 2 });
    expect(all.reviewsToLabel).toBe(241);

    const live = (await t.keyed.get('/api/stats?source=api&source=webhook&source=mcp')).body;
    expect(live.evaluationsToday).toBe(3);
    expect(live.byStatus).toEqual({ accept: 0, review: 1, reject: 2 });
    expect(live.reviewsToLabel).toBe(1);
    // The fake gateway's usage (321 in, 45 out) and the two inserted webhook rows' (2 in, 1 out each).
    expect(live.tokens).toEqual({ input: 321 + 2 * 2, output: 45 + 2 * 1 });
    expect(live.daily).toHaveLength(30);
    expect(live.daily[29]).toEqual(expect.objectContaining({ accept: 0, review: 1, reject: 2 }));
    expect(live.daily[28]).toEqual(expect.objectContaining({ accept: 1, review: 0, reject: 0 }));
    expect(live.daily[0]).toEqual(expect.objectContaining({ accept: 0, review: 0, reject: 0 }));
    // The same answer, comma-separated; the same shape as the default answer.
    expect((await t.keyed.get('/api/stats?source=api,webhook,mcp')).body).toEqual(live);
    expect(Object.keys(live).sort()).toEqual(Object.keys(all).sort());

    const experiments = (await t.keyed.get('/api/stats?source=playground,simulation')).body;
    expect(experiments.evaluationsToday).toBe(241);
    expect(experiments.byStatus).toEqual({ accept: 1, review: 240, reject: 0 });
    expect(experiments.reviewsToLabel).toBe(240);
    // Every source listed counts as much as the default (latency and tokens included).
    const every = (await t.keyed.get('/api/stats?source=playground,api,mcp,webhook,simulation')).body;
    expect(every).toEqual(all);
  });
});
