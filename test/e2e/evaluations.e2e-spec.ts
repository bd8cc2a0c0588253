import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant } from '../support/client.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

/** These use the built-in local model (no MODEL_GATEWAY_URL), as `npm start` does by default. */
describe('evaluations and the local model', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('judges with the local lexical model when no gateway is configured', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const res = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(res.status).toBe(200);
    expect(res.body.result.modelId).toBe('local-lexical-1');
    expect(res.body.result.answers.department).toMatchObject({ type: 'choice', choice: 'billing' });
    expect(res.body.result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('lists evaluations newest first, 50 a page, with no item lost or repeated across pages', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const created: string[] = [];
    for (let i = 0; i < 53; i++) {
      created.push(
        (await keyed.post('/api/judge', { packId: pack.id, ticket: { ...TICKET, externalId: `t${i}` } })).body
          .evaluationId,
      );
    }
    const first = await keyed.get('/api/evaluations');
    expect(first.status).toBe(200);
    expect(first.body.items).toHaveLength(50);
    expect(first.body.items[0]).toEqual({
      id: created[52],
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      source: 'api',
      status: expect.stringMatching(/^(accept|review|reject)$/),
      modelId: 'local-lexical-1',
      latencyMs: expect.any(Number),
      createdAt: expect.any(String),
      subject: TICKET.subject,
      externalId: 't52',
      answers: {
        department: expect.objectContaining({ type: 'choice', choice: 'billing' }),
        abusive: expect.objectContaining({ type: 'boolean' }),
        complexity: expect.objectContaining({ type: 'score' }),
      },
    });
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await keyed.get(`/api/evaluations?cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.items).toHaveLength(3);
    expect(second.body.nextCursor).toBeNull();
    const seen = [...first.body.items, ...second.body.items].map((item: { id: string }) => item.id);
    expect(seen).toEqual([...created].reverse());
  });

  it('filters by packId, status and source', async () => {
    const { keyed } = await newTenant(api.url);
    const one = await createPublishedPack(keyed, undefined, 'one');
    const two = await createPublishedPack(keyed, undefined, 'two');
    const a = (await keyed.post('/api/judge', { packId: one.id, ticket: TICKET })).body;
    await keyed.post('/api/judge', { packId: two.id, ticket: TICKET });
    const byPack = await keyed.get(`/api/evaluations?packId=${one.id}`);
    expect(byPack.body.items.map((item: { id: string }) => item.id)).toEqual([a.evaluationId]);
    const byStatus = await keyed.get(`/api/evaluations?status=${a.result.status}&packId=${one.id}`);
    expect(byStatus.body.items).toHaveLength(1);
    const other = a.result.status === 'accept' ? 'reject' : 'accept';
    expect((await keyed.get(`/api/evaluations?status=${other}&packId=${one.id}`)).body.items).toEqual([]);
    expect((await keyed.get('/api/evaluations?source=api')).body.items).toHaveLength(2);
    expect((await keyed.get('/api/evaluations?source=webhook')).body.items).toEqual([]);
    expect((await keyed.get('/api/evaluations?status=maybe')).status).toBe(400);
    expect((await keyed.get('/api/evaluations?packId=not-a-uuid')).body.items).toEqual([]);
  });

  it('lists each evaluation with its ticket as stored: redacted subject, external id or null, answers', async () => {
    const { keyed } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    // No externalId (undefined is left out of the JSON body), and a subject with an address in it.
    await keyed.post('/api/judge', {
      packId: pack.id,
      ticket: { ...TICKET, externalId: undefined, subject: 'Call me at jane.doe@example.com' },
    });
    const [item] = (await keyed.get('/api/evaluations')).body.items;
    expect(item).toMatchObject({ subject: 'Call me at [EMAIL]', externalId: null });
    expect(Object.keys(item.answers).sort()).toEqual(['abusive', 'complexity', 'department']);
    // Another tenant lists none of it.
    expect((await other.keyed.get('/api/evaluations')).body.items).toEqual([]);
  });

  it('refuses a malformed, tampered or foreign cursor with 400', async () => {
    const alice = await newTenant(api.url);
    const bob = await newTenant(api.url);
    const pack = await createPublishedPack(alice.keyed);
    for (let i = 0; i < 51; i++) await alice.keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    const cursor = (await alice.keyed.get('/api/evaluations')).body.nextCursor as string;
    const tampered = `${Buffer.from(JSON.stringify(['2020-01-01 00:00:00+00', '00000000-0000-4000-8000-000000000000'])).toString('base64url')}.${cursor.split('.')[1]}`;
    for (const [client, bad] of [
      [alice.keyed, 'garbage'],
      [alice.keyed, tampered],
      [bob.keyed, cursor],
    ] as const) {
      const res = await client.get(`/api/evaluations?cursor=${encodeURIComponent(bad)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid cursor' });
    }
  });

  it("answers 404 evaluation not found for a missing or another user's evaluation", async () => {
    const alice = await newTenant(api.url);
    const bob = await newTenant(api.url);
    const pack = await createPublishedPack(alice.keyed);
    const { evaluationId } = (await alice.keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).body;
    for (const id of [evaluationId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const res = await bob.keyed.get(`/api/evaluations/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'evaluation not found' });
    }
    expect((await bob.keyed.get('/api/evaluations')).body.items).toEqual([]);
  });

  it('keeps evaluations readable after their pack is deleted', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const { evaluationId } = (await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).body;
    await keyed.delete(`/api/packs/${pack.id}`);
    const res = await keyed.get(`/api/evaluations/${evaluationId}`);
    expect(res.status).toBe(200);
    expect(res.body.packVersionId).toBe(pack.liveVersionId);
    expect((await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).status).toBe(404);
  });

  it('needs judgments:read', async () => {
    const { session } = await newTenant(api.url);
    const { client } = await createKey(session, ['judgments:run']);
    expect((await client.get('/api/evaluations')).body).toEqual({
      error: 'missing permission judgments:read',
    });
  });
});
