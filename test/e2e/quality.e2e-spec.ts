import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

/** One choice question, sent to review below 0.6. */
const DOCUMENT = {
  questions: [
    {
      type: 'choice',
      id: 'department',
      name: 'Department',
      instructions: 'Which team should handle this ticket?',
      criteria: {
        options: [
          { value: 'billing', description: 'Charges, invoices, refunds' },
          { value: 'technical', description: 'Errors and bugs' },
        ],
      },
      review: { minSelectedProbability: 0.6 },
    },
  ],
};

const billing = { type: 'choice', choice: 'billing' };
/** The first stratum the guaranteed threshold's walk tests at a target of 0.9 and δ = 0.1. */
const FIRST_STRATUM = 75;
const technical = { type: 'choice', choice: 'technical' };

/** Wilson's score interval at 95% (z = 1.959964), written out: the figures the route must give with π = 1. */
function wilson95(agreeing: number, n: number): { low: number; high: number } {
  const z = 1.959964;
  const p = agreeing / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z / (1 + (z * z) / n)) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

describe('GET /api/packs/{packId}/quality and the calibration report’s guaranteed threshold', () => {
  let api: TestApi;
  let gateway: FakeGateway;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, AUDIT_SEED: '7' });
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  /** A pack whose every live automatic decision (and review item) is drawn with π = 1. */
  async function auditedPack(client: Client) {
    const pack = await createPublishedPack(client, DOCUMENT);
    expect((await client.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' })).status).toBe(
      200,
    );
    return pack;
  }

  async function judge(client: Client, packId: string, confidence: number): Promise<string> {
    gateway.next({ kind: 'answer', confidence, choose: { department: 'billing' } });
    const res = await client.post('/api/judge', { packId, ticket: TICKET });
    expect(res.status).toBe(200);
    return res.body.evaluationId;
  }

  const label = (client: Client, evaluationId: string, answer: object) =>
    client.post(`/api/evaluations/${evaluationId}/labels`, { questionId: 'department', answer });

  it('counts the window, and weights the audit labels into accuracy, agreement and corrected shares', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await auditedPack(keyed);
    const accepted = [];
    for (let i = 0; i < 4; i++) accepted.push(await judge(keyed, pack.id, 0.9));
    const reviewed = await judge(keyed, pack.id, 0.5);

    const before = (await keyed.get(`/api/packs/${pack.id}/quality`)).body;
    expect(before).toMatchObject({
      packId: pack.id,
      versionId: pack.liveVersionId,
      confidence: 0.95,
      evaluations: 5,
      autoDecided: 4,
      audited: 4,
      labeled: 0,
      autoDecisionAccuracy: { estimate: null, low: null, high: null, labels: 0 },
    });
    const today = new Date().toISOString().slice(0, 10);
    expect(before.to).toBe(today);
    expect(before.from).toBe(new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10));
    expect(before.questions).toEqual([
      {
        questionId: 'department',
        agreement: { estimate: null, low: null, high: null, labels: 0 },
        answers: [
          { value: 'billing', judgeShare: 1, correctedShare: null, low: null, high: null, labels: 0 },
        ],
      },
    ]);

    // Three automatic decisions labeled: two agree. The review item drawn too: its label disagrees.
    for (const [id, answer] of [
      [accepted[0], billing],
      [accepted[1], billing],
      [accepted[2], technical],
      [reviewed, technical],
    ] as const)
      expect((await label(keyed, id, answer)).status).toBe(201);

    const after = (await keyed.get(`/api/packs/${pack.id}/quality`)).body;
    expect(after).toMatchObject({ evaluations: 5, autoDecided: 4, audited: 4, labeled: 4 });
    // Accuracy: 2 of the 3 labeled automatic decisions, π = 1 (Wilson's interval, n = 3).
    const accuracy = wilson95(2, 3);
    expect(after.autoDecisionAccuracy.estimate).toBeCloseTo(2 / 3, 10);
    expect(after.autoDecisionAccuracy.low).toBeCloseTo(accuracy.low, 4);
    expect(after.autoDecisionAccuracy.high).toBeCloseTo(accuracy.high, 4);
    expect(after.autoDecisionAccuracy.labels).toBe(3);
    const [question] = after.questions;
    // Agreement: 2 of the 4 labeled (the review item too).
    expect(question.agreement.estimate).toBeCloseTo(0.5, 10);
    expect(question.agreement.labels).toBe(4);
    // The judge said billing 5 times in 5; the labels' errors d = 1[label] − 1[judge] are, for
    // billing, 0, 0, −1, −1 (mean −0.5) and for technical 0, 0, 1, 1 (mean 0.5).
    const shares = Object.fromEntries(
      question.answers.map((answer: { value: string }) => [answer.value, answer]),
    );
    expect(shares.billing).toMatchObject({ judgeShare: 1, correctedShare: 0.5, labels: 4 });
    expect(shares.technical).toMatchObject({ judgeShare: 0, correctedShare: 0.5, labels: 4 });
    for (const answer of question.answers) {
      expect(answer.low).toBeLessThanOrEqual(answer.correctedShare);
      expect(answer.high).toBeGreaterThanOrEqual(answer.correctedShare);
      expect(answer.high - answer.low).toBeGreaterThan(0);
    }

    // A narrower confidence gives a narrower interval; MCP reads the same (mcp.e2e-spec.ts).
    const ninety = (await keyed.get(`/api/packs/${pack.id}/quality?confidence=0.9`)).body;
    expect(ninety.autoDecisionAccuracy.high - ninety.autoDecisionAccuracy.low).toBeLessThan(
      accuracy.high - accuracy.low,
    );
    // A window before today holds nothing.
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    expect(
      (await keyed.get(`/api/packs/${pack.id}/quality?from=2026-01-01&to=${yesterday}`)).body,
    ).toMatchObject({
      evaluations: 0,
      autoDecided: 0,
      audited: 0,
      labeled: 0,
      from: '2026-01-01',
      to: yesterday,
    });
  });

  it('puts each live pack with the audit on on the dashboard: accuracy, and the labels still needed for ±5 points', async () => {
    const { keyed } = await newTenant(api.url);
    expect((await keyed.get('/api/stats')).body.quality).toEqual([]);
    const off = await createPublishedPack(keyed, DOCUMENT, 'Audit off');
    const pack = await auditedPack(keyed);
    await judge(keyed, off.id, 0.9);
    const ids = [];
    for (let i = 0; i < 4; i++) ids.push(await judge(keyed, pack.id, 0.9));
    expect((await keyed.get('/api/stats')).body.quality).toEqual([
      {
        packId: pack.id,
        packName: 'Triage',
        versionId: pack.liveVersionId,
        autoDecisionAccuracy: { estimate: null, low: null, high: null, labels: 0 },
        // No label: the worst case, 1.959964² / (4 · 0.05²) = 384.1 → 385.
        auditLabelsForFivePoints: 385,
      },
    ]);
    for (const id of ids) expect((await label(keyed, id, billing)).status).toBe(201);
    const [card] = (await keyed.get('/api/stats')).body.quality;
    // 4 of 4 agree: Wilson's interval at n = 4, half-width h; n·(h/0.05)² labels in all, less the 4.
    const { low, high } = wilson95(4, 4);
    expect(card.autoDecisionAccuracy).toMatchObject({ estimate: 1, labels: 4 });
    expect(card.autoDecisionAccuracy.low).toBeCloseTo(low, 4);
    expect(card.auditLabelsForFivePoints).toBe(Math.ceil(4 * ((high - low) / 2 / 0.05) ** 2 - 1e-9) - 4);
  });

  it('leaves out labels outside the audit draw', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed, DOCUMENT); // the audit off: nothing drawn
    const id = await judge(keyed, pack.id, 0.5);
    expect((await label(keyed, id, technical)).status).toBe(201);
    const quality = (await keyed.get(`/api/packs/${pack.id}/quality`)).body;
    expect(quality).toMatchObject({ evaluations: 1, autoDecided: 0, audited: 0, labeled: 0 });
    expect(quality.questions[0].agreement.labels).toBe(0);
  });

  it('gives a guaranteed threshold only once the audit labels support one', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await auditedPack(keyed);
    const ids = [];
    for (let i = 0; i < FIRST_STRATUM; i++) ids.push(await judge(keyed, pack.id, 0.9));
    await judge(keyed, pack.id, 0.5);
    const report = async () =>
      (await keyed.get(`/api/packs/${pack.id}/calibration?targetAgreement=0.9&delta=0.1`)).body.questions[0];

    // At δ = 0.1 and a target of 0.9 the walk starts at a stratum of 75 labels (docs/quality.md:
    // the fewest whose bound passes at an agreement of 0.95), so 74 agreeing labels give nothing
    // and the 75th a threshold (all 75 agree: the bound is 0.1^(1/75) = 0.9698 ≥ 0.9).
    expect(await report()).toMatchObject({
      guaranteedMinSelectedProbability: null,
      coverageAtGuaranteed: null,
      auditLabelsNeeded: FIRST_STRATUM,
      auditLabels: 0,
      ece: { raw: null, calibrated: null, labels: 0 },
    });
    for (const id of ids.slice(0, FIRST_STRATUM - 1))
      expect((await label(keyed, id, billing)).status).toBe(201);
    const short = await report();
    expect(short).toMatchObject({ guaranteedMinSelectedProbability: null, auditLabels: FIRST_STRATUM - 1 });
    expect(short.auditLabelsNeeded).toBeGreaterThanOrEqual(1);
    // The point estimate is there already, and labelled as one.
    expect(short.suggestedMinSelectedProbability).toBe(0.9);

    expect((await label(keyed, ids[FIRST_STRATUM - 1], billing)).status).toBe(201);
    const enough = await report();
    expect(enough).toMatchObject({
      guaranteedMinSelectedProbability: 0.9,
      auditLabelsNeeded: null,
      auditLabels: FIRST_STRATUM,
    });
    // 75 of the version's 76 answers are at or above 0.9.
    expect(enough.coverageAtGuaranteed).toBeCloseTo(FIRST_STRATUM / (FIRST_STRATUM + 1), 10);
    // Every label agrees at p = 0.9: the raw ECE is |1 − 0.9|.
    expect(enough.ece.raw).toBeCloseTo(0.1, 10);
  });

  it('refuses bad input with 400, another user’s pack with 404, an unpublished pack with 409, and needs judgments:read', async () => {
    const owner = await newTenant(api.url);
    const pack = await auditedPack(owner.keyed);
    for (const query of [
      'confidence=2',
      'confidence=0.2',
      'confidence=abc',
      'from=2026-02-30',
      'from=2026-11-01T00:00:00Z',
      'to=yesterday',
      'from=2026-11-02&to=2026-11-01',
      'from=2024-01-01&to=2026-01-01',
      'versionId=not-a-uuid',
    ]) {
      const res = await owner.keyed.get(`/api/packs/${pack.id}/quality?${query}`);
      expect([query, res.status]).toEqual([query, query.startsWith('versionId') ? 404 : 400]);
      expect(typeof res.body.error).toBe('string');
    }
    const other = await newTenant(api.url);
    expect((await other.keyed.get(`/api/packs/${pack.id}/quality`)).body).toEqual({
      error: 'pack not found',
    });
    const draft = (await owner.keyed.post('/api/packs', { name: 'draft', document: DOCUMENT })).body;
    expect((await owner.keyed.get(`/api/packs/${draft.id}/quality`)).status).toBe(409);
    const { client: packsOnly } = await createKey(owner.session, ['packs:read']);
    expect((await packsOnly.get(`/api/packs/${pack.id}/quality`)).status).toBe(403);
  });
});
