import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET, triageDocument } from '../support/packs.js';

describe('review queue and labels', () => {
  let api: TestApi;
  let gateway: FakeGateway;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url });
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  /** Judges with a low-confidence department answer, so the evaluation lands in review. */
  async function judgeForReview(client: Client, packId: string): Promise<string> {
    gateway.next({ kind: 'answer', confidence: 0.4, choose: { abusive: false } });
    const res = await client.post('/api/judge', { packId, ticket: TICKET });
    expect(res.body.result.status).toBe('review');
    return res.body.evaluationId;
  }

  async function judgeAccepted(client: Client, packId: string): Promise<string> {
    gateway.next({ kind: 'answer', confidence: 0.95, choose: { department: 'technical', abusive: false } });
    const res = await client.post('/api/judge', { packId, ticket: TICKET });
    expect(res.body.result.status).toBe('accept');
    return res.body.evaluationId;
  }

  it('lists only evaluations in review, as ReviewItems, newest first', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const first = await judgeForReview(keyed, pack.id);
    await judgeAccepted(keyed, pack.id);
    const second = await judgeForReview(keyed, pack.id);
    const res = await keyed.get('/api/reviews');
    expect(res.status).toBe(200);
    expect(res.body.nextCursor).toBeNull();
    expect(res.body.items.map((item: { id: string }) => item.id)).toEqual([second, first]);
    expect(res.body.items[0]).toEqual({
      id: second,
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      source: 'api',
      status: 'review',
      modelId: 'fake-model-2026-01-01',
      latencyMs: expect.any(Number),
      createdAt: expect.any(String),
      result: expect.objectContaining({
        status: 'review',
        reviewReasons: expect.arrayContaining(['low_confidence:department']),
      }),
      redactedTicket: expect.objectContaining({
        subject: TICKET.subject,
        customerMessage: expect.stringContaining('[EMAIL]'),
      }),
      auditProbability: null,
      auditSelected: null,
      // No calibration map yet (docs/quality.md, "Calibration").
      calibrated: null,
      calibratedWith: null,
    });
  });

  it('pages through more than 50 review items with none lost or repeated', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.set({ kind: 'answer', confidence: 0.4, choose: { abusive: false } });
    const created: string[] = [];
    for (let i = 0; i < 57; i++)
      created.push((await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).body.evaluationId);
    const page1 = await keyed.get('/api/reviews');
    expect(page1.body.items).toHaveLength(50);
    const page2 = await keyed.get(`/api/reviews?cursor=${encodeURIComponent(page1.body.nextCursor)}`);
    expect(page2.body.items).toHaveLength(7);
    expect(page2.body.nextCursor).toBeNull();
    const ids = [...page1.body.items, ...page2.body.items].map((item: { id: string }) => item.id);
    expect(ids).toEqual([...created].reverse());
  });

  it('filters by packId, questionId and labeled, alone and combined', async () => {
    const { keyed } = await newTenant(api.url);
    const one = await createPublishedPack(keyed, triageDocument(), 'one');
    const small = triageDocument();
    small.questions = small.questions.filter((q) => q.id === 'department');
    const two = await createPublishedPack(keyed, small, 'two');
    const a = await judgeForReview(keyed, one.id);
    const b = await judgeForReview(keyed, one.id);
    const c = await judgeForReview(keyed, two.id);
    await keyed.post(`/api/evaluations/${a}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
    });
    const ids = async (query: string) =>
      (await keyed.get(`/api/reviews${query}`)).body.items.map((item: { id: string }) => item.id);
    expect(await ids(`?packId=${one.id}`)).toEqual([b, a]);
    expect(await ids(`?packId=${two.id}`)).toEqual([c]);
    expect(await ids('?questionId=abusive')).toEqual([b, a]);
    expect(await ids('?questionId=department')).toEqual([c, b, a]);
    expect(await ids('?questionId=nope')).toEqual([]);
    expect(await ids('?labeled=true')).toEqual([a]);
    expect(await ids('?labeled=false')).toEqual([c, b]);
    expect(await ids(`?labeled=false&packId=${one.id}&questionId=abusive`)).toEqual([b]);
    expect(await ids(`?labeled=true&packId=${two.id}`)).toEqual([]);
    const bad = await keyed.get('/api/reviews?labeled=yes');
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('invalid request');
  });

  it('refuses a malformed or foreign cursor with 400', async () => {
    const alice = await newTenant(api.url);
    const bob = await newTenant(api.url);
    const pack = await createPublishedPack(alice.keyed);
    gateway.set({ kind: 'answer', confidence: 0.4 });
    for (let i = 0; i < 51; i++) await alice.keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    const cursor = (await alice.keyed.get('/api/reviews')).body.nextCursor;
    for (const [client, value] of [
      [bob.keyed, cursor],
      [alice.keyed, 'not-a-cursor'],
      [alice.keyed, `${cursor}x`],
    ] as const) {
      const res = await client.get(`/api/reviews?cursor=${encodeURIComponent(value)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid cursor' });
    }
    // A cursor of the evaluations list is not a review cursor either.
    const evaluationsCursor = (await alice.keyed.get('/api/evaluations')).body.nextCursor;
    expect(
      (await alice.keyed.get(`/api/reviews?cursor=${encodeURIComponent(evaluationsCursor)}`)).status,
    ).toBe(400);
  });

  it("never shows another user's reviews", async () => {
    const alice = await newTenant(api.url);
    const bob = await newTenant(api.url);
    const pack = await createPublishedPack(alice.keyed);
    await judgeForReview(alice.keyed, pack.id);
    expect((await bob.keyed.get('/api/reviews')).body).toEqual({
      items: [],
      nextCursor: null,
      total: 0,
      totalCapped: false,
    });
  });

  it('labels a question (201), replaces it (200), lists it on the evaluation and deletes it (204)', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const id = await judgeForReview(keyed, pack.id); // model said billing
    const created = await keyed.post(`/api/evaluations/${id}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
      note: 'clearly billing',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
      note: 'clearly billing',
      agreement: true,
      createdAt: expect.any(String),
    });
    const replaced = await keyed.post(`/api/evaluations/${id}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'legal' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      id: created.body.id,
      answer: { type: 'choice', choice: 'legal' },
      note: '',
      agreement: false,
    });
    // The model gave abusive a probability of 0.6 here: the true side.
    const boolean = await keyed.post(`/api/evaluations/${id}/labels`, {
      questionId: 'abusive',
      answer: { type: 'boolean', probability: 1 },
    });
    expect(boolean.status).toBe(201);
    expect(boolean.body.agreement).toBe(true);

    const evaluation = await keyed.get(`/api/evaluations/${id}`);
    expect(evaluation.body.labels).toEqual([replaced.body, boolean.body]);

    expect((await keyed.delete(`/api/evaluations/${id}/labels/${created.body.id}`)).status).toBe(204);
    expect((await keyed.get(`/api/evaluations/${id}`)).body.labels).toEqual([boolean.body]);
    expect((await keyed.get('/api/reviews?labeled=true')).body.items).toHaveLength(1);
    expect((await keyed.delete(`/api/evaluations/${id}/labels/${boolean.body.id}`)).status).toBe(204);
    expect((await keyed.get('/api/reviews?labeled=true')).body.items).toHaveLength(0);
    const again = await keyed.delete(`/api/evaluations/${id}/labels/${boolean.body.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ error: 'label not found' });
  });

  it('computes agreement for scores and booleans, and false when the model gave no answer', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    gateway.next({ kind: 'answer', confidence: 0.95, choose: { abusive: true, complexity: 4 } });
    const id = (await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).body.evaluationId;
    const put = (questionId: string, answer: object) =>
      keyed.post(`/api/evaluations/${id}/labels`, { questionId, answer });
    expect((await put('complexity', { type: 'score', score: 4 })).body.agreement).toBe(true);
    expect((await put('complexity', { type: 'score', score: 3 })).body.agreement).toBe(false);
    expect((await put('abusive', { type: 'boolean', probability: 1 })).body.agreement).toBe(true);
    expect((await put('abusive', { type: 'boolean', probability: 0 })).body.agreement).toBe(false);

    gateway.next({ kind: 'status', status: 500 });
    const failed = (await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).body.evaluationId;
    const label = await keyed.post(`/api/evaluations/${failed}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
    });
    expect(label.status).toBe(201);
    expect(label.body.agreement).toBe(false);
  });

  it.each([
    [
      'an unknown question',
      { questionId: 'nope', answer: { type: 'choice', choice: 'billing' } },
      'question "nope" is not in this pack version',
    ],
    [
      'a type that does not match',
      { questionId: 'department', answer: { type: 'boolean', probability: 1 } },
      'is a choice question, not boolean',
    ],
    [
      'a choice that is not an option',
      { questionId: 'department', answer: { type: 'choice', choice: 'sales' } },
      'choice must be one of the options',
    ],
    [
      'a score out of range',
      { questionId: 'complexity', answer: { type: 'score', score: 6 } },
      'score must be a number from 1 to 5',
    ],
    [
      'a boolean that is not 0 or 1',
      { questionId: 'abusive', answer: { type: 'boolean', probability: 0.7 } },
      'a boolean label has probability 0 or 1',
    ],
    [
      'an answer without a type',
      { questionId: 'abusive', answer: { probability: 1 } },
      'answer needs a type',
    ],
  ])('refuses a label with %s (400 naming what does not fit)', async (_, body, message) => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const id = await judgeForReview(keyed, pack.id);
    const res = await keyed.post(`/api/evaluations/${id}/labels`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('label does not fit: ');
    expect(res.body.error).toContain(message);
    expect((await keyed.get(`/api/evaluations/${id}`)).body.labels).toEqual([]);
  });

  it("checks labels against the evaluation's own pack version, not the current one", async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const id = await judgeForReview(keyed, pack.id);
    const next = triageDocument();
    next.questions = next.questions.filter((q) => q.id !== 'abusive');
    await keyed.patch(`/api/packs/${pack.id}`, { document: next });
    await keyed.post(`/api/packs/${pack.id}/publish`);
    const res = await keyed.post(`/api/evaluations/${id}/labels`, {
      questionId: 'abusive',
      answer: { type: 'boolean', probability: 1 },
    });
    expect(res.status).toBe(201);
  });

  it("answers 404 for another user's evaluation or label", async () => {
    const alice = await newTenant(api.url);
    const bob = await newTenant(api.url);
    const pack = await createPublishedPack(alice.keyed);
    const id = await judgeForReview(alice.keyed, pack.id);
    const label = (
      await alice.keyed.post(`/api/evaluations/${id}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice: 'billing' },
      })
    ).body;
    const post = await bob.keyed.post(`/api/evaluations/${id}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'legal' },
    });
    expect(post.status).toBe(404);
    expect(post.body).toEqual({ error: 'evaluation not found' });
    for (const path of [
      `/api/evaluations/${id}/labels/${label.id}`,
      `/api/evaluations/${id}/labels/not-a-uuid`,
    ]) {
      const res = await bob.keyed.delete(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'label not found' });
    }
    expect((await alice.keyed.get(`/api/evaluations/${id}`)).body.labels).toHaveLength(1);
  });

  it('needs labels:write to label', async () => {
    const { session, keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const id = await judgeForReview(keyed, pack.id);
    const { client } = await createKey(session, ['judgments:read']);
    const res = await client.post(`/api/evaluations/${id}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'missing permission labels:write' });
  });
});
