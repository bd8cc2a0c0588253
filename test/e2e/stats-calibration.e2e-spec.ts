import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPack, createPublishedPack, TICKET } from '../support/packs.js';

describe('stats and calibration', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let db: pg.Client;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url });
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await db.end();
    await api.close();
    await gateway.close();
  });

  const judge = async (client: Client, packId: string, behaviour: Parameters<FakeGateway['next']>[0]) => {
    gateway.next(behaviour);
    return (await client.post('/api/judge', { packId, ticket: TICKET })).body;
  };

  /** Inserts an evaluation at a given time, as the judge route would have stored it then. */
  async function insertAt(
    userId: string,
    pack: { id: string; liveVersionId: string },
    status: string,
    createdAtSql: string,
  ) {
    await db.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                latency_ms, input_tokens, output_tokens, created_at)
       VALUES ($1, $2, $3, $4, 'api', $5, '{"subject":"s","customerMessage":"m"}',
               jsonb_build_object('status', $5::text, 'answers', '{}'::jsonb, 'reviewReasons', '[]'::jsonb, 'modelId', 'm', 'latencyMs', 1000),
               'm', 1000, 7, 3, ${createdAtSql})`,
      [randomUUID(), userId, pack.id, pack.liveVersionId, status],
    );
  }

  it("reports today's figures, 30 UTC days with zeros, and unlabeled reviews, for the caller only", async () => {
    const { keyed, user } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const otherPack = await createPublishedPack(other.keyed);

    const accepted = await judge(keyed, pack.id, {
      kind: 'answer',
      choose: { department: 'technical', abusive: false },
    });
    await judge(keyed, pack.id, { kind: 'answer', choose: { department: 'technical', abusive: false } });
    const reviewed = await judge(keyed, pack.id, { kind: 'answer', confidence: 0.3 });
    const rejected = await judge(keyed, pack.id, {
      kind: 'answer',
      choose: { department: 'technical', abusive: true },
    });
    expect([accepted.result.status, reviewed.result.status, rejected.result.status]).toEqual([
      'accept',
      'review',
      'reject',
    ]);
    await judge(other.keyed, otherPack.id, { kind: 'answer', confidence: 0.3 });

    // Around midnight UTC: the first counts for yesterday, the second for today.
    const midnight = `date_trunc('day', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;
    await insertAt(user.id, pack, 'review', `${midnight} - interval '1 millisecond'`);
    await insertAt(user.id, pack, 'accept', `${midnight} + interval '1 millisecond'`);
    await insertAt(user.id, pack, 'reject', `${midnight} - interval '3 days'`);
    await insertAt(user.id, pack, 'accept', `${midnight} - interval '40 days'`);
    await insertAt(other.user.id, otherPack, 'accept', midnight);

    const latencies = (await keyed.get('/api/evaluations?source=api')).body.items
      .filter((item: { modelId: string }) => item.modelId !== 'm')
      .map((item: { latencyMs: number }) => item.latencyMs);
    expect(latencies).toHaveLength(4);

    const res = await keyed.get('/api/stats');
    expect(res.status).toBe(200);
    const stats = res.body;
    expect(stats.evaluationsToday).toBe(5);
    expect(stats.byStatus).toEqual({ accept: 3, review: 1, reject: 1 });
    expect(stats.tokens).toEqual({ input: 4 * 321 + 7, output: 4 * 45 + 3 });
    expect(stats.avgLatencyMs).toBeCloseTo(
      (latencies.reduce((a: number, b: number) => a + b, 0) + 1000) / 5,
      6,
    );
    expect(stats.reviewsToLabel).toBe(2);
    expect(stats.recentRuns).toEqual([]);
    expect(stats.recentWebhookFailures).toEqual([]);
    expect(stats.webhookFailureCount).toBe(0);

    expect(stats.daily).toHaveLength(30);
    const today = new Date().toISOString().slice(0, 10);
    const day = (offset: number) =>
      new Date(Date.parse(today) - offset * 86_400_000).toISOString().slice(0, 10);
    expect(stats.daily[29]).toEqual({ date: today, accept: 3, review: 1, reject: 1 });
    expect(stats.daily[28]).toEqual({ date: day(1), accept: 0, review: 1, reject: 0 });
    expect(stats.daily[26]).toEqual({ date: day(3), accept: 0, review: 0, reject: 1 });
    expect(stats.daily[0]).toEqual({ date: day(29), accept: 0, review: 0, reject: 0 });
    expect(stats.daily.map((d: { date: string }) => d.date)).toEqual(
      [...stats.daily.map((d: { date: string }) => d.date)].sort(),
    );

    // Labeling a review takes it off the to-label count.
    await keyed.post(`/api/evaluations/${reviewed.evaluationId}/labels`, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
    });
    expect((await keyed.get('/api/stats')).body.reviewsToLabel).toBe(1);
  });

  it('needs judgments:read', async () => {
    const { session } = await newTenant(api.url);
    const { client } = await createKey(session, ['judgments:run']);
    expect((await client.get('/api/stats')).body).toEqual({ error: 'missing permission judgments:read' });
  });

  it('calibrates each question from its labels (checked against a hand-computed example)', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const cases: Array<[string | null, number, string]> = [
      ['billing', 0.95, 'billing'],
      ['billing', 0.92, 'billing'],
      ['technical', 0.55, 'billing'],
      ['technical', 0.85, 'technical'],
      [null, 0, 'technical'], // the gateway failed: no model answer
    ];
    for (const [model, confidence, label] of cases) {
      const behaviour = model
        ? ({ kind: 'answer', confidence, choose: { department: model, abusive: false } } as const)
        : ({ kind: 'status', status: 500 } as const);
      const { evaluationId } = await judge(keyed, pack.id, behaviour);
      const res = await keyed.post(`/api/evaluations/${evaluationId}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice: label },
      });
      expect(res.status).toBe(201);
    }
    await judge(keyed, pack.id, { kind: 'answer', confidence: 0.7 }); // unlabeled, counts for the review share

    const res = await keyed.get(`/api/packs/${pack.id}/calibration`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ packId: pack.id, versionId: pack.liveVersionId, targetAgreement: 0.95 });
    const department = res.body.questions.find((q: { questionId: string }) => q.questionId === 'department');
    expect(department.labeled).toBe(5);
    expect(department.agreementRate).toBeCloseTo(0.6, 10);
    // p_o = 3/5; model: billing 2/5, technical 2/5, (none) 1/5; labels: billing 3/5, technical 2/5.
    // p_e = 0.4*0.6 + 0.4*0.4 = 0.4; kappa = (0.6 - 0.4) / (1 - 0.4) = 1/3.
    expect(department.kappa).toBeCloseTo(1 / 3, 10);
    expect(department.confusion).toEqual({
      categories: ['(none)', 'billing', 'technical'],
      matrix: [
        [0, 0, 1],
        [0, 2, 0],
        [0, 1, 1],
      ],
    });
    expect(department.reliability[5]).toEqual({
      from: 0.5,
      to: 0.6,
      count: 1,
      agreement: 0,
      calibrated: null,
    });
    expect(department.reliability[8]).toEqual({
      from: 0.8,
      to: 0.9,
      count: 1,
      agreement: 1,
      calibrated: null,
    });
    expect(department.reliability[9]).toEqual({ from: 0.9, to: 1, count: 2, agreement: 1, calibrated: null });
    // At >= 0.85 the labeled answers agree 3/3; at >= 0.55 only 3/4.
    expect(department.suggestedMinSelectedProbability).toBe(0.85);
    // Of the 5 evaluations with a department answer (0.95, 0.92, 0.55, 0.85, 0.7), 2 fall below 0.85.
    expect(department.reviewShareAtSuggested).toBeCloseTo(0.4, 10);

    const abusive = res.body.questions.find((q: { questionId: string }) => q.questionId === 'abusive');
    expect(abusive).toMatchObject({
      labeled: 0,
      agreementRate: null,
      kappa: null,
      suggestedMinSelectedProbability: null,
    });

    const lenient = await keyed.get(
      `/api/packs/${pack.id}/calibration?targetAgreement=0.75&versionId=${pack.liveVersionId}`,
    );
    const lenientDepartment = lenient.body.questions.find(
      (q: { questionId: string }) => q.questionId === 'department',
    );
    expect(lenientDepartment.suggestedMinSelectedProbability).toBe(0.55);
    expect(lenientDepartment.reviewShareAtSuggested).toBe(0);
  });

  it('answers 404 for a foreign pack or version, 409 without a live version, 400 for a bad target', async () => {
    const { keyed } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const foreign = await createPublishedPack(other.keyed);
    const draftOnly = await createPack(keyed);
    expect((await keyed.get(`/api/packs/${foreign.id}/calibration`)).body).toEqual({
      error: 'pack not found',
    });
    expect(
      (await keyed.get(`/api/packs/${pack.id}/calibration?versionId=${foreign.liveVersionId}`)).body,
    ).toEqual({
      error: 'version not found',
    });
    const noLive = await keyed.get(`/api/packs/${draftOnly.id}/calibration`);
    expect(noLive.status).toBe(409);
    expect(noLive.body).toEqual({ error: 'pack has no published version' });
    const draft = await keyed.get(
      `/api/packs/${draftOnly.id}/calibration?versionId=${draftOnly.draftVersionId}`,
    );
    expect(draft.status).toBe(200);
    expect((await keyed.get(`/api/packs/${pack.id}/calibration?targetAgreement=2`)).status).toBe(400);
  });

  it('says how many more labels a question needs before its suggested threshold is offered', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    for (const label of ['billing', 'technical']) {
      const { evaluationId } = await judge(keyed, pack.id, { kind: 'answer', confidence: 0.9 });
      await keyed.post(`/api/evaluations/${evaluationId}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice: label },
      });
    }
    const res = await keyed.get(`/api/packs/${pack.id}/calibration`);
    const byId = (id: string) => res.body.questions.find((q: { questionId: string }) => q.questionId === id);
    expect(byId('department')).toMatchObject({ labeled: 2, labelsNeededForSuggestion: 28 });
    expect(byId('abusive')).toMatchObject({ labeled: 0, labelsNeededForSuggestion: 30 });
  });

  it('previews the share of the last 30 days of live traffic a threshold would send to review', async () => {
    const { keyed } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    // department's selected probability is the confidence: 0.9, 0.7, 0.5, 0.3 count.
    for (const confidence of [0.9, 0.7, 0.5, 0.3])
      await judge(keyed, pack.id, { kind: 'answer', confidence });
    // Not counted: one older than 30 days, one from a simulation, one of another user.
    const old = await judge(keyed, pack.id, { kind: 'answer', confidence: 0.1 });
    await db.query(`UPDATE evaluations SET created_at = now() - interval '31 days' WHERE id = $1`, [
      old.evaluationId,
    ]);
    const simulated = await judge(keyed, pack.id, { kind: 'answer', confidence: 0.1 });
    await db.query(`UPDATE evaluations SET source = 'simulation' WHERE id = $1`, [simulated.evaluationId]);
    const theirPack = await createPublishedPack(other.keyed);
    await judge(other.keyed, theirPack.id, { kind: 'answer', confidence: 0.1 });

    const preview = async (query: string) => keyed.get(`/api/packs/${pack.id}/threshold-preview?${query}`);
    const at = await preview('questionId=department&threshold=0.6');
    expect(at.status).toBe(200);
    expect(at.body).toEqual({
      packId: pack.id,
      questionId: 'department',
      threshold: 0.6,
      days: 30,
      since: expect.any(String),
      evaluated: 4,
      belowThreshold: 2,
      reviewShare: 0.5,
    });
    expect(Date.now() - Date.parse(at.body.since)).toBeGreaterThan(29.9 * 86_400_000);
    // Equal passes, as in the decision rule.
    expect((await preview('questionId=department&threshold=0.7')).body.belowThreshold).toBe(2);
    expect((await preview('questionId=department&threshold=0.75')).body.belowThreshold).toBe(3);
    expect((await preview('questionId=department&threshold=0')).body).toMatchObject({
      evaluated: 4,
      belowThreshold: 0,
      reviewShare: 0,
    });
    expect((await preview('questionId=unknown_question&threshold=0.5')).body).toMatchObject({
      evaluated: 0,
      belowThreshold: 0,
      reviewShare: null,
    });

    for (const query of [
      'questionId=department&threshold=2',
      'questionId=department&threshold=-0.1',
      'questionId=department&threshold=abc',
      'questionId=department',
      'threshold=0.5',
      'questionId=has%20space&threshold=0.5',
      `questionId=${'a'.repeat(65)}&threshold=0.5`,
      'questionId=department&threshold=0.5&extra=1',
      'questionId=department&threshold=0.5&threshold=0.6',
    ]) {
      const res = await preview(query);
      expect([query, res.status, res.body.error]).toEqual([query, 400, 'invalid request']);
      expect(res.body.issues.length).toBeGreaterThan(0);
    }
    for (const packId of [theirPack.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const res = await keyed.get(
        `/api/packs/${packId}/threshold-preview?questionId=department&threshold=0.5`,
      );
      expect([res.status, res.body]).toEqual([404, { error: 'pack not found' }]);
    }
  });
});
