import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant, type Client } from '../support/client.js';
import { startFakeGateway, type Behaviour, type FakeGateway } from '../support/fake-gateway.js';
import { createPack, createPublishedPack, TICKET } from '../support/packs.js';

/**
 * Calibrated confidence (issue 23, section 3; docs/quality.md, "Calibration"): labels arrive, a fit,
 * the calibrated fields on evaluation reads, a map carried over by an identical question and not by
 * a reworded one, the decision with `review.useCalibrated`, and the fit route's refusals.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-calibration-fit`;

/** Every answer at 0.9: department billing, not abusive. Accepted (0.9 ≥ 0.6). */
const CONFIDENT: Behaviour = {
  kind: 'answer',
  confidence: 0.9,
  choose: { department: 'billing', abusive: false },
};
/** Every answer at 0.5, below 0.6: review. */
const UNSURE: Behaviour = {
  kind: 'answer',
  confidence: 0.5,
  choose: { department: 'billing', abusive: false },
};

const INSTRUCTIONS = 'Which team should handle this ticket?';

function documentWith({
  useCalibrated = false,
  minimum = 0.6,
  instructions = INSTRUCTIONS,
  name = 'Department',
} = {}) {
  return {
    questions: [
      {
        type: 'choice',
        id: 'department',
        name,
        instructions,
        criteria: { options: [{ value: 'billing' }, { value: 'technical' }] },
        review: { minSelectedProbability: minimum, ...(useCalibrated ? { useCalibrated: true } : {}) },
      },
      {
        type: 'boolean',
        id: 'abusive',
        name: 'Abusive language',
        instructions: 'Does the customer use insults or threats?',
        criteria: { outcomeWhenTrue: 'reject' },
        review: { minSelectedProbability: 0.6 },
      },
    ],
  };
}

/**
 * The map of 12 labels that all disagree with answers the judge gave at 0.9, by hand. Platt's
 * unconstrained fit has a negative slope (labels that disagree at the judge's surest), so the map is
 * the constant σ(a) whose intercept solves the ridge-penalized likelihood: 12·σ(a) + a = 0, hence
 * a ≈ −1.7604 and σ(a) ≈ 0.1467 (12 · 0.14670 = 1.7604). Any probability maps to it.
 */
const ALL_DISAGREE_12 = 0.1467;

describe('calibration fit', () => {
  let api: TestApi;
  let gateway: FakeGateway;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  async function judge(client: Client, packId: string, behaviour: Behaviour) {
    gateway.next(behaviour);
    const res = await client.post('/api/judge', { packId, ticket: TICKET });
    expect(res.status).toBe(200);
    return res.body as {
      evaluationId: string;
      packVersionId: string;
      result: { status: string; reviewReasons: string[] };
    };
  }

  async function label(client: Client, evaluationId: string, questionId: string, answer: unknown) {
    const res = await client.post(`/api/evaluations/${evaluationId}/labels`, { questionId, answer });
    expect(res.status).toBe(201);
  }

  /** `count` confident judgments whose department every reviewer labels `technical` (disagreeing). */
  async function disagreeingLabels(client: Client, packId: string, count: number): Promise<string[]> {
    const evaluations: string[] = [];
    for (let i = 0; i < count; i++) {
      const { evaluationId } = await judge(client, packId, CONFIDENT);
      await label(client, evaluationId, 'department', { type: 'choice', choice: 'technical' });
      evaluations.push(evaluationId);
    }
    return evaluations;
  }

  async function fit(client: Client, packId: string) {
    const res = await client.post(`/api/packs/${packId}/calibration/fit`);
    expect(res.status).toBe(200);
    return res.body;
  }

  const read = async (client: Client, evaluationId: string) =>
    (await client.get(`/api/evaluations/${evaluationId}`)).body;

  it('fits a map once a question has enough labels, and evaluation and review reads carry it', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed, documentWith());

    // No labels: every question is fitted without a map, and reads carry no calibration.
    const empty = await fit(keyed, pack.id);
    expect(empty).toEqual({
      packId: pack.id,
      versionId: pack.liveVersionId,
      fittedAt: expect.any(String),
      minLabels: 10,
      questions: [
        { questionId: 'department', labels: 0, map: null },
        { questionId: 'abusive', labels: 0, map: null },
      ],
    });

    const labeled = await disagreeingLabels(keyed, pack.id, 12);
    // The abusive question gets 9 labels that agree: one short of a map.
    for (const evaluationId of labeled.slice(0, 9))
      await label(keyed, evaluationId, 'abusive', { type: 'boolean', probability: 0 });
    expect(await read(keyed, labeled[0])).toMatchObject({ calibrated: null, calibratedWith: null });

    const fitted = await fit(keyed, pack.id);
    expect(Date.parse(fitted.fittedAt)).toBeGreaterThanOrEqual(Date.parse(empty.fittedAt));
    expect(fitted.questions).toEqual([
      {
        questionId: 'department',
        labels: 12,
        map: { method: 'platt', labels: 12, fittedAt: fitted.fittedAt },
      },
      { questionId: 'abusive', labels: 9, map: null },
    ]);

    const evaluation = await read(keyed, labeled[0]);
    expect(Object.keys(evaluation.calibrated)).toEqual(['department']);
    expect(evaluation.calibrated.department).toBeCloseTo(ALL_DISAGREE_12, 3);
    const department12 = { fittedAt: fitted.fittedAt, labels: 12, method: 'platt' };
    expect(evaluation.calibratedWith).toEqual({ ...department12, questions: { department: department12 } });
    // The calibration report shows the map's points, and the evaluation's calibrated probability is on them.
    const report = (await keyed.get(`/api/packs/${pack.id}/calibration`)).body;
    const [departmentReport, abusiveReport] = report.questions;
    expect(abusiveReport.calibrationMap).toBeNull();
    expect(departmentReport.calibrationMap).toMatchObject(department12);
    // Raw against calibrated: the 12 labels at 0.9 agree 0 times in 12, and their mean calibrated
    // probability is the map's constant; the question without a map has no calibrated bins.
    expect(departmentReport.reliability[9]).toEqual({
      from: 0.9,
      to: 1,
      count: 12,
      agreement: 0,
      calibrated: expect.closeTo(ALL_DISAGREE_12, 3),
    });
    expect(departmentReport.reliability[0]).toMatchObject({ count: 0, calibrated: null });
    expect(abusiveReport.reliability[9]).toMatchObject({ count: 9, agreement: 1, calibrated: null });
    const points: Array<{ selectedProbability: number; calibrated: number }> =
      departmentReport.calibrationMap.points;
    expect(points.length).toBeGreaterThan(1);
    expect(points.every((point, i) => i === 0 || point.calibrated >= points[i - 1].calibrated)).toBe(true);
    // Read at the judge's 0.9 by linear interpolation between the points, as the judge reads it.
    const upper = points.findIndex((point) => point.selectedProbability >= 0.9);
    const [a, b] = [points[Math.max(0, upper - 1)], points[upper]];
    const share =
      b.selectedProbability === a.selectedProbability
        ? 0
        : (0.9 - a.selectedProbability) / (b.selectedProbability - a.selectedProbability);
    expect(a.calibrated + share * (b.calibrated - a.calibrated)).toBeCloseTo(
      evaluation.calibrated.department,
      6,
    );
    // The contracted result is unchanged, and the decision of a pack that does not opt in too.
    expect(evaluation.result.status).toBe('accept');
    expect(Object.keys(evaluation.result).sort()).toEqual(
      ['answers', 'latencyMs', 'modelId', 'reviewReasons', 'status', 'usage'].sort(),
    );
    expect((await judge(keyed, pack.id, CONFIDENT)).result.status).toBe('accept');

    // A review item: the same map read at its own selected probability (a constant map: the same value).
    const unsure = await judge(keyed, pack.id, UNSURE);
    const reviews = (await keyed.get(`/api/reviews?packId=${pack.id}`)).body;
    expect(reviews.items.map((item: { id: string }) => item.id)).toEqual([unsure.evaluationId]);
    expect(reviews.items[0].calibrated.department).toBeCloseTo(ALL_DISAGREE_12, 3);
    expect(reviews.items[0].calibratedWith).toEqual(evaluation.calibratedWith);

    // An audit item: every automatic decision selected (rate 1, uniform).
    const audit = await keyed.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' });
    expect(audit.status).toBe(200);
    const audited = await judge(keyed, pack.id, CONFIDENT);
    const audits = (await keyed.get(`/api/reviews?queue=audit&packId=${pack.id}`)).body;
    expect(audits.items.map((item: { id: string }) => item.id)).toEqual([audited.evaluationId]);
    expect(audits.items[0]).toMatchObject({
      auditSelected: true,
      calibratedWith: evaluation.calibratedWith,
    });
    expect(audits.items[0].calibrated.department).toBeCloseTo(ALL_DISAGREE_12, 3);
  });

  it('keeps the map for a republished identical question and has none for a reworded one', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed, documentWith());
    const [first] = await disagreeingLabels(keyed, pack.id, 10);
    const fitted = await fit(keyed, pack.id);
    expect(fitted.questions[0].map).toEqual({ method: 'platt', labels: 10, fittedAt: fitted.fittedAt });

    // Same instructions and criteria, another name and other review settings: the version keeps the map.
    const same = documentWith({ minimum: 0.7, useCalibrated: true, name: 'Team' });
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: same })).status).toBe(200);
    const second = (await keyed.post(`/api/packs/${pack.id}/publish`)).body;
    expect(second.liveVersionId).not.toBe(pack.liveVersionId);
    const onSecond = await judge(keyed, pack.id, CONFIDENT);
    expect(onSecond.packVersionId).toBe(second.liveVersionId);
    const carried = await read(keyed, onSecond.evaluationId);
    const department10 = { fittedAt: fitted.fittedAt, labels: 10, method: 'platt' };
    expect(carried.calibratedWith).toEqual({ ...department10, questions: { department: department10 } });
    // useCalibrated now: the calibrated probability is below 0.7, so the ticket went to review.
    expect(onSecond.result).toMatchObject({ status: 'review', reviewReasons: ['low_confidence:department'] });

    // Reworded instructions: no map, and the decision reads the judge's 0.9 again.
    const reworded = documentWith({ minimum: 0.7, useCalibrated: true, instructions: 'Which department?' });
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: reworded })).status).toBe(200);
    const third = (await keyed.post(`/api/packs/${pack.id}/publish`)).body;
    const onThird = await judge(keyed, pack.id, CONFIDENT);
    expect(onThird.packVersionId).toBe(third.liveVersionId);
    expect(onThird.result.status).toBe('accept');
    expect(await read(keyed, onThird.evaluationId)).toMatchObject({ calibrated: null, calibratedWith: null });
    // Its fit has none of the old wording's labels; the first version's evaluations keep their map.
    const refit = await fit(keyed, pack.id);
    expect(refit.versionId).toBe(third.liveVersionId);
    expect(refit.questions[0]).toEqual({ questionId: 'department', labels: 0, map: null });
    expect((await read(keyed, first)).calibratedWith).toEqual(carried.calibratedWith);

    // Back to the first wording: its labels, 10 of the first version and 0 of the others, count again.
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: same })).status).toBe(200);
    await keyed.post(`/api/packs/${pack.id}/publish`);
    const back = await fit(keyed, pack.id);
    expect(back.questions[0]).toEqual({
      questionId: 'department',
      labels: 10,
      map: { method: 'platt', labels: 10, fittedAt: back.fittedAt },
    });
  });

  it('decides on the calibrated probability of a question with useCalibrated once it has a map', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed, documentWith({ useCalibrated: true }));
    // Before a map: the judge's own 0.9 against 0.6, accepted.
    const before = await judge(keyed, pack.id, CONFIDENT);
    expect(before.result).toMatchObject({ status: 'accept', reviewReasons: [] });

    await disagreeingLabels(keyed, pack.id, 12);
    await fit(keyed, pack.id);

    // The same answers at 0.9 calibrate to about 0.15 < 0.6: review, naming the question.
    const after = await judge(keyed, pack.id, CONFIDENT);
    expect(after.result).toMatchObject({ status: 'review', reviewReasons: ['low_confidence:department'] });
    const evaluation = await read(keyed, after.evaluationId);
    expect(evaluation.calibrated.department).toBeCloseTo(ALL_DISAGREE_12, 3);
    expect(evaluation.selectedProbabilities.department).toBe(0.9);
    // The abusive question does not opt in (and has no map): not a reason.
    expect(evaluation.calibrated.abusive).toBeUndefined();
    // The evaluation judged before the fit keeps its decision; reads show the map now.
    expect((await read(keyed, before.evaluationId)).status).toBe('accept');
  });

  it('is refused for another user, without the permission, without a live version, and for a bad document', async () => {
    const { keyed, session } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed, documentWith());

    for (const [client, id] of [
      [other.keyed, pack.id],
      [other.session, pack.id],
      [keyed, '00000000-0000-4000-8000-000000000000'],
      [keyed, 'not-a-pack'],
    ] as const) {
      const res = await client.post(`/api/packs/${id}/calibration/fit`);
      expect([res.status, res.body]).toEqual([404, { error: 'pack not found' }]);
    }
    const deleted = await createPublishedPack(keyed, documentWith());
    expect((await keyed.delete(`/api/packs/${deleted.id}`)).status).toBe(204);
    expect((await keyed.post(`/api/packs/${deleted.id}/calibration/fit`)).status).toBe(404);

    const { client: reader } = await createKey(session, ['packs:read', 'judgments:read', 'labels:write']);
    const refused = await reader.post(`/api/packs/${pack.id}/calibration/fit`);
    expect([refused.status, refused.body]).toEqual([403, { error: 'missing permission packs:write' }]);
    const { client: writer } = await createKey(session, ['packs:write']);
    expect((await writer.post(`/api/packs/${pack.id}/calibration/fit`)).status).toBe(200);
    // The session works too.
    expect((await session.post(`/api/packs/${pack.id}/calibration/fit`)).status).toBe(200);
    expect(
      (await keyed.post(`/api/packs/${pack.id}/calibration/fit`, undefined, { apiKey: null })).status,
    ).toBe(401);

    const draft = await createPack(keyed, documentWith());
    const conflict = await keyed.post(`/api/packs/${draft.id}/calibration/fit`);
    expect([conflict.status, conflict.body]).toEqual([409, { error: 'pack has no published version' }]);

    for (const value of ['yes', 1, null]) {
      const document = documentWith();
      (document.questions[0].review as Record<string, unknown>).useCalibrated = value;
      for (const res of [
        await keyed.post('/api/packs', { name: 'Bad', document }),
        await keyed.patch(`/api/packs/${pack.id}`, { document }),
      ]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid request',
          issues: [{ path: 'questions.0.review.useCalibrated', message: expect.any(String) }],
        });
      }
    }
  });
});
