import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant, type Client } from '../support/client.js';
import { createPublishedPack, TICKET, triageDocument } from '../support/packs.js';

/**
 * GET /api/evaluations' optional filters (packVersionId, several sources, from/to, q), its order and
 * its capped total. Rows are inserted directly, with set creation times, subjects and external ids.
 */
describe('evaluation list: filters, search, order and total', () => {
  let api: TestApi;
  let db: pg.Client;

  beforeAll(async () => {
    api = await startApi();
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterAll(async () => {
    await db.end();
    await api.close();
  });

  interface Tenant {
    keyed: Client;
    userId: string;
    pack: { id: string; liveVersionId: string };
  }

  async function tenant(): Promise<Tenant> {
    const { keyed, user } = await newTenant(api.url);
    return { keyed, userId: user.id, pack: await createPublishedPack(keyed) };
  }

  interface Row {
    at: string;
    subject?: string;
    externalId?: string;
    source?: string;
    status?: string;
    versionId?: string;
  }

  /** One evaluation per row, as stored by the API (a redacted ticket); returns the ids in row order. */
  async function insert(t: Tenant, rows: Row[]): Promise<string[]> {
    const ids: string[] = [];
    for (const row of rows) {
      const ticket = {
        subject: row.subject ?? 'Charged twice',
        customerMessage: 'm',
        externalId: row.externalId,
      };
      const { rows: inserted } = await db.query<{ id: string }>(
        `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                  latency_ms, input_tokens, output_tokens, created_at)
         VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6,
                 jsonb_build_object('status', $5::text, 'answers', '{}'::jsonb, 'reviewReasons', '[]'::jsonb,
                                    'modelId', 'm', 'latencyMs', 10),
                 'm', 10, 2, 1, $7)
         RETURNING id`,
        [
          t.userId,
          t.pack.id,
          row.versionId ?? t.pack.liveVersionId,
          row.source ?? 'api',
          row.status ?? 'accept',
          JSON.stringify(ticket),
          row.at,
        ],
      );
      ids.push(inserted[0].id);
    }
    return ids;
  }

  async function list(client: Client, query: string) {
    const res = await client.get(`/api/evaluations${query}`);
    expect(res.status).toBe(200);
    return res.body as {
      items: Array<{ id: string }>;
      nextCursor: string | null;
      total: number;
      totalCapped: boolean;
    };
  }

  const ids = async (client: Client, query: string) =>
    (await list(client, query)).items.map((item) => item.id);

  it('adds total and totalCapped to the default answer, which is otherwise as before', async () => {
    const t = await tenant();
    const [a, b] = await insert(t, [{ at: '2026-01-01T00:00:00Z' }, { at: '2026-01-02T00:00:00Z' }]);
    const page = await list(t.keyed, '');
    expect(page).toEqual({
      items: [expect.objectContaining({ id: b }), expect.objectContaining({ id: a })],
      nextCursor: null,
      total: 2,
      totalCapped: false,
    });
    expect(Object.keys(page.items[0]).sort()).toEqual(
      [
        'answers',
        'createdAt',
        'externalId',
        'id',
        'latencyMs',
        'modelId',
        'packId',
        'packVersionId',
        'source',
        'status',
        'subject',
      ].sort(),
    );
  });

  it('filters by pack version', async () => {
    const t = await tenant();
    const v1 = t.pack.liveVersionId;
    const document = triageDocument();
    document.questions[0].instructions = 'Route it.';
    await t.keyed.patch(`/api/packs/${t.pack.id}`, { document });
    const v2 = (await t.keyed.post(`/api/packs/${t.pack.id}/publish`)).body.liveVersionId as string;
    const [old, recent] = await insert(t, [
      { at: '2026-01-01T00:00:00Z', versionId: v1 },
      { at: '2026-01-02T00:00:00Z', versionId: v2 },
    ]);
    expect(await ids(t.keyed, `?packVersionId=${v1}`)).toEqual([old]);
    expect(await ids(t.keyed, `?packVersionId=${v2}&packId=${t.pack.id}`)).toEqual([recent]);
    expect((await list(t.keyed, `?packVersionId=${v2}`)).total).toBe(1);
    expect(await ids(t.keyed, '?packVersionId=not-a-uuid')).toEqual([]);
    expect((await list(t.keyed, '?packVersionId=not-a-uuid')).total).toBe(0);
  });

  it('filters by one source or several, repeated or comma-separated, as /api/reviews does', async () => {
    const t = await tenant();
    const [api1, hook, sim, play] = await insert(t, [
      { at: '2026-01-04T00:00:00Z', source: 'api' },
      { at: '2026-01-03T00:00:00Z', source: 'webhook' },
      { at: '2026-01-02T00:00:00Z', source: 'simulation' },
      { at: '2026-01-01T00:00:00Z', source: 'playground' },
    ]);
    expect(await ids(t.keyed, '?source=api')).toEqual([api1]);
    expect(await ids(t.keyed, '?source=api&source=webhook&source=mcp')).toEqual([api1, hook]);
    expect(await ids(t.keyed, '?source=api,webhook,mcp')).toEqual([api1, hook]);
    expect(await ids(t.keyed, '?source=playground,simulation')).toEqual([sim, play]);
    expect((await list(t.keyed, '?source=api,webhook')).total).toBe(2);
    for (const query of ['source=live', 'source=', 'source=api,', 'source=api&source=nope']) {
      const res = await t.keyed.get(`/api/evaluations?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid request');
    }
  });

  it('filters on the creation time: from inclusive, to exclusive', async () => {
    const t = await tenant();
    const [jan1, jan2, jan3] = await insert(t, [
      { at: '2026-01-01T00:00:00Z' },
      { at: '2026-01-02T00:00:00Z' },
      { at: '2026-01-03T00:00:00Z' },
    ]);
    expect(await ids(t.keyed, '?from=2026-01-02T00:00:00Z')).toEqual([jan3, jan2]);
    expect(await ids(t.keyed, '?to=2026-01-02T00:00:00Z')).toEqual([jan1]);
    expect(await ids(t.keyed, '?from=2026-01-02T00:00:00Z&to=2026-01-03T00:00:00Z')).toEqual([jan2]);
    // Offsets are read as given: 01:00+01:00 is midnight UTC.
    expect(await ids(t.keyed, `?from=${encodeURIComponent('2026-01-03T01:00:00.000+01:00')}`)).toEqual([
      jan3,
    ]);
    expect(await ids(t.keyed, '?from=2026-01-02T00:00:00Z&to=2026-01-02T00:00:00Z')).toEqual([]);
    expect((await list(t.keyed, '?from=2026-01-02T00:00:00Z')).total).toBe(2);
  });

  it('refuses a date that is not an ISO 8601 date-time, and from later than to, with 400', async () => {
    const t = await tenant();
    for (const bad of [
      'yesterday',
      '2026-01-01',
      '2026-02-30T00:00:00Z',
      '2026-01-01T00:00:00',
      '2026-01-01T25:00:00Z',
      '1767225600000',
      '0000-01-01T00:00:00Z',
      '2026-01-01T00:00:00+25:00',
    ]) {
      for (const name of ['from', 'to']) {
        const res = await t.keyed.get(`/api/evaluations?${name}=${encodeURIComponent(bad)}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid request',
          issues: [expect.objectContaining({ path: name, message: expect.stringContaining('ISO 8601') })],
        });
      }
    }
    const res = await t.keyed.get('/api/evaluations?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'from must not be later than to' });
  });

  it('searches the external id by prefix and the subject by words, the last a prefix', async () => {
    const t = await tenant();
    const [zd1, zd12, refund, both, other] = await insert(t, [
      { at: '2026-01-05T00:00:00Z', externalId: 'ZD-1', subject: 'Login broken' },
      { at: '2026-01-04T00:00:00Z', externalId: 'ZD-12', subject: 'Password reset' },
      { at: '2026-01-03T00:00:00Z', subject: 'Please REFUND my second payment' },
      { at: '2026-01-02T00:00:00Z', externalId: 'refund-7', subject: 'Second payment refunded?' },
      { at: '2026-01-01T00:00:00Z', externalId: 'zd-1', subject: 'Anything else' },
    ]);
    expect(await ids(t.keyed, '?q=ZD-1')).toEqual([zd1, zd12]);
    expect(await ids(t.keyed, '?q=ZD-12')).toEqual([zd12]);
    // The external id is case-sensitive; subject words are not, and the last word is a prefix.
    expect(await ids(t.keyed, '?q=zd-1')).toEqual([other]);
    expect(await ids(t.keyed, '?q=refund')).toEqual([refund, both]);
    expect(await ids(t.keyed, '?q=refu')).toEqual([refund, both]);
    expect(await ids(t.keyed, '?q=payment%20refund')).toEqual([refund, both]);
    expect(await ids(t.keyed, '?q=second%20REFUNDED')).toEqual([both]);
    expect(await ids(t.keyed, '?q=%20%20login%20')).toEqual([zd1]);
    // A word must start a subject word; nothing in the middle of one.
    expect(await ids(t.keyed, '?q=efund')).toEqual([]);
    expect((await list(t.keyed, '?q=refund')).total).toBe(2);
    // Combined with the other filters.
    expect(await ids(t.keyed, '?q=refund&to=2026-01-03T00:00:00Z')).toEqual([both]);
    expect(await ids(t.keyed, '?q=ZD&order=oldest')).toEqual([zd12, zd1]);
    // Blank: no search.
    expect((await list(t.keyed, '?q=%20')).total).toBe(5);
  });

  it('takes any text as q without a 500: pattern and tsquery syntax, quotes, emoji, 200 characters', async () => {
    const t = await tenant();
    const [odd] = await insert(t, [{ at: '2026-01-01T00:00:00Z', externalId: "a'b%_\\*(", subject: 'x' }]);
    for (const q of [
      "a'b%_\\*(",
      '%',
      '_',
      '.*',
      "' OR 1=1 --",
      '!&|:*()<->',
      'a:* & !b',
      '\\',
      '😀 😀',
      '\u{10FFFF}',
      'x'.repeat(200),
      '[[:alpha:]]+',
    ]) {
      const res = await t.keyed.get(`/api/evaluations?q=${encodeURIComponent(q)}`);
      expect(res.status).toBe(200);
    }
    expect(await ids(t.keyed, `?q=${encodeURIComponent("a'b%_\\*(")}`)).toEqual([odd]);
    expect(await ids(t.keyed, `?q=${encodeURIComponent('a%')}`)).toEqual([]);
    expect(await ids(t.keyed, '?q=_')).toEqual([]);
    for (const query of ['q=' + 'x'.repeat(201), 'q=%00', 'q=a&q=b']) {
      const res = await t.keyed.get(`/api/evaluations?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
    }
    // Not UTF-8 (an encoded lone surrogate): never a server error.
    expect((await t.keyed.get('/api/evaluations?q=%ED%A0%80')).status).toBeLessThan(500);
  });

  it('orders oldest first on request, and pages each order with its own cursor', async () => {
    const t = await tenant();
    const rows = Array.from({ length: 53 }, (_, i) => ({
      at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    const created = await insert(t, rows);
    const first = await list(t.keyed, '?order=oldest');
    expect(first.items.map((item) => item.id)).toEqual(created.slice(0, 50));
    expect(first.total).toBe(53);
    const cursor = encodeURIComponent(first.nextCursor!);
    const second = await list(t.keyed, `?order=oldest&cursor=${cursor}`);
    expect(second.items.map((item) => item.id)).toEqual(created.slice(50));
    expect(second.nextCursor).toBeNull();
    expect((await list(t.keyed, '?order=newest')).items.map((item) => item.id)).toEqual(
      [...created].reverse().slice(0, 50),
    );
    // A cursor is valid only with the order it was issued for.
    const newest = encodeURIComponent((await list(t.keyed, '')).nextCursor!);
    for (const query of [
      `?cursor=${cursor}`,
      `?order=newest&cursor=${cursor}`,
      `?order=oldest&cursor=${newest}`,
    ]) {
      const res = await t.keyed.get(`/api/evaluations${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid cursor' });
    }
    expect((await t.keyed.get('/api/evaluations?order=random')).status).toBe(400);
    // With other filters, a cursor goes on from its position under them.
    const from = '2026-01-01T00:10:00Z';
    expect(await ids(t.keyed, `?order=oldest&from=${from}&cursor=${cursor}`)).toEqual(created.slice(50));
  });

  it('caps the total at 10,000, or 1,000 with a search, and says so', async () => {
    const t = await tenant();
    await db.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                latency_ms, input_tokens, output_tokens, created_at)
       SELECT gen_random_uuid(), $1, $2, $3, 'api', 'accept',
              jsonb_build_object('subject', CASE WHEN i <= 1001 THEN 'refund' ELSE 'other' END, 'customerMessage', 'm'),
              '{"status":"accept","answers":{},"reviewReasons":[],"modelId":"m","latencyMs":1}', 'm', 1, 1, 1,
              '2026-01-01T00:00:00Z'::timestamptz + i * interval '1 second'
         FROM generate_series(1, 10001) AS i`,
      [t.userId, t.pack.id, t.pack.liveVersionId],
    );
    expect(await list(t.keyed, '')).toMatchObject({ total: 10_000, totalCapped: true });
    expect(await list(t.keyed, '?to=2026-01-01T02:46:40Z')).toMatchObject({
      total: 9_999,
      totalCapped: false,
    });
    expect(await list(t.keyed, '?from=2026-01-01T02:46:40Z')).toMatchObject({ total: 2, totalCapped: false });
    expect(await list(t.keyed, '?q=refund')).toMatchObject({ total: 1_000, totalCapped: true });
    expect(await list(t.keyed, '?q=refund&from=2026-01-01T00:00:02Z')).toMatchObject({
      total: 1_000,
      totalCapped: false,
    });
  });

  it("never lists or counts another user's evaluations, whatever the filters", async () => {
    const alice = await tenant();
    const bob = await tenant();
    await insert(alice, [
      { at: '2026-01-01T00:00:00Z', externalId: 'ZD-1', subject: 'Refund please', source: 'simulation' },
      { at: '2026-01-02T00:00:00Z', externalId: 'ZD-2', subject: 'Refund please', status: 'review' },
    ]);
    const [mine] = await insert(bob, [{ at: '2026-01-03T00:00:00Z', externalId: 'B-1', subject: 'Other' }]);
    for (const query of [
      '',
      '?q=ZD',
      '?q=refund',
      `?packId=${alice.pack.id}`,
      `?packVersionId=${alice.pack.liveVersionId}`,
      '?source=simulation,api&status=review',
      '?from=2020-01-01T00:00:00Z&to=2030-01-01T00:00:00Z&order=oldest',
    ]) {
      const page = await list(bob.keyed, query);
      expect(page.items.every((item) => item.id === mine)).toBe(true);
      expect(page.total).toBeLessThanOrEqual(1);
    }
    expect((await list(bob.keyed, `?packVersionId=${alice.pack.liveVersionId}`)).total).toBe(0);
    // Alice's cursor is refused to Bob in either order.
    const extra = Array.from({ length: 50 }, (_, i) => ({
      at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
    }));
    await insert(alice, extra);
    for (const order of ['newest', 'oldest']) {
      const cursor = (await list(alice.keyed, `?order=${order}`)).nextCursor!;
      const res = await bob.keyed.get(`/api/evaluations?order=${order}&cursor=${encodeURIComponent(cursor)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid cursor' });
    }
  });

  it('lists what the API judged, found by its external id', async () => {
    const t = await tenant();
    const judged = await t.keyed.post('/api/judge', {
      packId: t.pack.id,
      ticket: { ...TICKET, externalId: 'API-77' },
    });
    expect(judged.status).toBe(200);
    expect(await ids(t.keyed, '?q=API-7&source=api')).toEqual([judged.body.evaluationId]);
  });
});
