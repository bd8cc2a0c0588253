import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { isShadowSampled } from '../../libs/domain/src/index.js';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant, type Client } from '../support/client.js';
import { queryDatabase } from '../support/db.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import {
  candidateDocument,
  createPublishedPack,
  fromCandidate,
  TICKET,
  triageDocument,
} from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

/** Its own Redis namespace: only this file's worker takes these jobs. */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-shadow`;

// Its worker draws from every active shadow run of its database: a database of its own.
useIsolatedDatabase('shadow');

/** Priced for the candidate's answers only: the live version's model has no price, so its cost is unknown. */
const MODEL_PRICES = JSON.stringify({ 'priced-model': { inputPerMTok: 2.5, outputPerMTok: 10 } });

/** Judges `n` tickets through the judge route (source `api`); their evaluation ids, in order. */
async function judgeTickets(client: Client, packId: string, n: number, tag: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await client.post('/api/judge', {
      packId,
      ticket: { ...TICKET, externalId: `${tag}-${i}`, subject: `Charged twice ${tag} ${i}` },
    });
    expect(res.status).toBe(200);
    ids.push(res.body.evaluationId);
  }
  return ids;
}

async function report(client: Client, runId: string) {
  const res = await client.get(`/api/shadow-runs/${runId}`);
  expect(res.status).toBe(200);
  return res.body;
}

const sorted = (ids: string[]) => [...ids].sort();

describe('shadow runs', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, MODEL_PRICES });
    worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: PREFIX,
      MODEL_PRICES,
      SHADOW_SAMPLE_MS: '200',
    });
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await api?.close();
    await gateway.close();
  });

  it('judges the seeded sample of live traffic with the frozen draft, and reports it as computed by hand', async () => {
    const { keyed, session } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: candidateDocument() })).status).toBe(200);
    // The live version answers billing, abusive; the candidate technical, not abusive, urgent.
    gateway.route((request) =>
      fromCandidate(request)
        ? {
            kind: 'answer',
            model: 'priced-model',
            choose: { department: 'technical', abusive: false, urgent: true },
          }
        : undefined,
    );

    const started = await keyed.post(`/api/packs/${pack.id}/shadow-runs`, { sampleRate: 0.5 });
    expect(started.status).toBe(201);
    expect(Object.keys(started.body).sort()).toEqual(
      expect.arrayContaining(['createdAt', 'id', 'packId', 'sampleRate', 'status', 'versionId']),
    );
    expect(started.body).toMatchObject({ packId: pack.id, sampleRate: 0.5, status: 'active' });
    const run = started.body;
    const draftId = (await keyed.get(`/api/packs/${pack.id}`)).body.draftVersionId;
    expect(run.versionId).not.toBe(draftId);
    expect(run.versionId).not.toBe(pack.liveVersionId);

    // Frozen: editing the draft afterwards does not reach the run's version, which is not listed.
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: triageDocument() })).status).toBe(200);
    const frozen = await keyed.get(`/api/packs/${pack.id}/versions/${run.versionId}`);
    expect(frozen.body.document.questions.map((q: { id: string }) => q.id)).toContain('urgent');
    const listed = (await keyed.get(`/api/packs/${pack.id}/versions`)).body.map((v: { id: string }) => v.id);
    expect(listed).not.toContain(run.versionId);
    expect((await keyed.get(`/api/packs/${pack.id}/shadow-runs`)).body.items[0]).toMatchObject({
      id: run.id,
      matchesDraft: false,
    });

    const live = await judgeTickets(keyed, pack.id, 24, 'seeded');
    // A playground judgment is not live traffic: never sampled.
    const playground = await session.post('/app/playground/judge', { packId: pack.id, ticket: TICKET });
    expect(playground.status).toBe(200);
    const expected = live.filter((id) => isShadowSampled(run.id, id, 0.5));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(live.length);

    const done = await eventually(async () => {
      const body = await report(keyed, run.id);
      return body.report.judged === expected.length && body.report.pending === 0 ? body : undefined;
    }, 60_000);
    const rows = await queryDatabase<{ evaluation_id: string }>(
      `SELECT evaluation_id FROM shadow_judgments WHERE shadow_run_id = $1`,
      [run.id],
    );
    expect(sorted(rows.map((row) => row.evaluation_id))).toEqual(sorted(expected));
    // Later sampling steps draw nothing more.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await report(keyed, run.id)).report.sampled).toBe(expected.length);

    const n = expected.length;
    const { report: r } = done;
    expect(r).toMatchObject({ sampled: n, judged: n, failed: 0, pending: 0 });
    expect(r.statusChanges).toEqual([{ from: 'reject', to: 'accept', count: n }]);
    expect(r.reviewShare).toEqual({ live: 0, shadow: 0 });
    const cells = Object.fromEntries(
      r.questions.map((q: any) => [
        q.questionId,
        {
          compared: q.compared,
          changed: q.changed,
          flips: q.flips.map((f: any) => `${f.from}->${f.to}:${f.count}`),
        },
      ]),
    );
    expect(cells).toEqual({
      abusive: { compared: n, changed: n, flips: [`true->false:${n}`] },
      complexity: { compared: n, changed: 0, flips: [`1->1:${n}`] },
      department: { compared: n, changed: n, flips: [`billing->technical:${n}`] },
      urgent: { compared: n, changed: n, flips: [`(none)->true:${n}`] },
    });
    const departmentFlip = r.questions.find((q: any) => q.questionId === 'department').flips[0];
    expect(departmentFlip.evaluationIds.length).toBe(Math.min(n, 20));
    for (const id of departmentFlip.evaluationIds) expect(expected).toContain(id);
    // Each flip's evaluation is reachable by id, and is the live one, untouched.
    const behind = await keyed.get(`/api/evaluations/${departmentFlip.evaluationIds[0]}`);
    expect(behind.status).toBe(200);
    expect(behind.body.result.answers.department.choice).toBe('billing');
    // The fake reports 321 input and 45 output tokens a call.
    expect(r.usage.live).toMatchObject({ inputTokens: 321 * n, outputTokens: 45 * n });
    expect(r.usage.shadow).toMatchObject({ inputTokens: 321 * n, outputTokens: 45 * n });
    expect(r.usage.shadow.meanLatencyMs).toEqual(expect.any(Number));
    // Cost: the live model has no price (unknown, not 0); the candidate's is 321 × 2.5 + 45 × 10 per million.
    expect(r.usage.live.cost).toEqual({ costUsd: 0, unknownCostEvaluations: n });
    expect(r.usage.shadow.cost.unknownCostEvaluations).toBe(0);
    expect(r.usage.shadow.cost.costUsd).toBeCloseTo((n * (321 * 2.5 + 45 * 10)) / 1e6, 12);
    expect(r.agreement).toEqual([]);

    // Reviewers say technical on four of them: the live version agrees with none, the shadow with all.
    for (const id of expected.slice(0, 4)) {
      const label = { questionId: 'department', answer: { type: 'choice', choice: 'technical' } };
      expect((await keyed.post(`/api/evaluations/${id}/labels`, label)).status).toBe(201);
    }
    const labelled = (await report(keyed, run.id)).report.agreement;
    // Wilson at n = 4, z = 1.959964: p̂ = 1 gives [1/(1 + z²/4), 1] = [0.510109, 1]; p̂ = 0 its mirror.
    expect(labelled).toHaveLength(1);
    expect(labelled[0]).toMatchObject({ questionId: 'department', labels: 4 });
    expect(labelled[0].shadow.estimate).toBe(1);
    expect(labelled[0].shadow.low).toBeCloseTo(0.510109, 5);
    expect(labelled[0].shadow.high).toBe(1);
    expect(labelled[0].live.estimate).toBe(0);
    expect(labelled[0].live.low).toBe(0);
    expect(labelled[0].live.high).toBeCloseTo(0.489891, 5);

    // Nothing live changed: no shadow judgment in the evaluations, the review queue or stats.
    const evaluations = (await keyed.get(`/api/evaluations?packId=${pack.id}`)).body.items;
    expect(evaluations.filter((e: { source: string }) => e.source === 'api')).toHaveLength(live.length);
    expect(evaluations).toHaveLength(live.length + 1);
    const stats = (await keyed.get('/api/stats')).body;
    expect(stats.evaluationsToday).toBe(live.length + 1);
    expect((await keyed.get('/api/reviews')).body.items).toEqual([]);
  }, 120_000);

  it('caps a run at maxJudgments, allows one active run per pack, and stops on request with its report kept', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const first = await keyed.post(`/api/packs/${pack.id}/shadow-runs`, {
      versionId: pack.liveVersionId,
      sampleRate: 1,
      maxJudgments: 3,
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ versionId: pack.liveVersionId, sampleRate: 1, status: 'active' });
    const second = await keyed.post(`/api/packs/${pack.id}/shadow-runs`, {});
    expect(second.status).toBe(409);
    expect(second.body).toEqual({ error: 'shadow run already active' });
    // Racing starts get one run.
    const raced = await Promise.all([1, 2, 3].map(() => keyed.post(`/api/packs/${pack.id}/shadow-runs`, {})));
    expect(raced.map((res) => res.status)).toEqual([409, 409, 409]);

    const calls = gateway.calls;
    await judgeTickets(keyed, pack.id, 6, 'capped');
    const stopped = await eventually(async () => {
      const body = await report(keyed, first.body.id);
      return body.status === 'stopped' ? body : undefined;
    }, 60_000);
    expect(stopped).toMatchObject({ stopReason: 'max_judgments', report: { sampled: 3, judged: 3 } });
    expect(stopped.stoppedAt).toEqual(expect.any(String));
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // Six live calls and three shadow ones: the cap bounds what the run spends.
    expect(gateway.calls - calls).toBe(9);
    expect((await report(keyed, first.body.id)).report.judged).toBe(3);

    // Its pack may start another; defaults: the draft, frozen, at rate 0.1.
    const next = await keyed.post(`/api/packs/${pack.id}/shadow-runs`, {});
    expect(next.status).toBe(201);
    expect(next.body).toMatchObject({ sampleRate: 0.1, maxJudgments: null, status: 'active' });
    const list = (await keyed.get(`/api/packs/${pack.id}/shadow-runs`)).body.items;
    expect(list.map((item: { id: string }) => item.id)).toEqual([next.body.id, first.body.id]);
    expect(list[0].matchesDraft).toBe(true);
    const stop = await keyed.post(`/api/shadow-runs/${next.body.id}/stop`);
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ status: 'stopped', stopReason: 'requested', report: { judged: 0 } });
    const again = await keyed.post(`/api/shadow-runs/${next.body.id}/stop`);
    expect(again.status).toBe(200);
    expect(again.body.stoppedAt).toBe(stop.body.stoppedAt);
    // The capped run's report is kept.
    expect((await report(keyed, first.body.id)).report).toMatchObject({
      judged: 3,
      statusChanges: [{ count: 3 }],
    });
  }, 120_000);

  it('judges webhook and MCP evaluations too (never simulations), and records a gateway failing only for the shadow version without touching live', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: candidateDocument() })).status).toBe(200);
    gateway.route((request) => (fromCandidate(request) ? { kind: 'status', status: 401 } : undefined));
    const run = (await keyed.post(`/api/packs/${pack.id}/shadow-runs`, { sampleRate: 1 })).body;
    const live = await judgeTickets(keyed, pack.id, 2, 'failing');
    const inbound = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(inbound.status).toBe(202);
    // An MCP judgment is live traffic; a simulation's is not. Planted as the judge stores them.
    await queryDatabase(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms)
       SELECT gen_random_uuid(), e.user_id, e.pack_id, e.pack_version_id, s.source, e.status, e.redacted_ticket,
              e.result, e.model_id, e.latency_ms
         FROM evaluations e, (VALUES ('mcp'), ('simulation')) AS s (source)
        WHERE e.id = $1`,
      [live[0]],
    );
    const body = await eventually(async () => {
      const current = await report(keyed, run.id);
      return current.report.judged === 4 ? current : undefined;
    }, 60_000);
    expect(body.report).toMatchObject({ judged: 4, failed: 4, reviewShare: { live: 0, shadow: 1 } });
    expect(body.report.statusChanges).toEqual([{ from: 'reject', to: 'review', count: 4 }]);
    for (const id of live) {
      const evaluation = (await keyed.get(`/api/evaluations/${id}`)).body;
      expect(evaluation.status).toBe('reject');
      expect(evaluation.result.reviewReasons).toEqual([]);
    }
    const sources = await queryDatabase<{ source: string }>(
      `SELECT e.source FROM shadow_judgments j JOIN evaluations e ON e.id = j.evaluation_id WHERE j.shadow_run_id = $1 ORDER BY 1`,
      [run.id],
    );
    expect(sources.map((row) => row.source)).toEqual(['api', 'api', 'mcp', 'webhook']);
    expect((await keyed.get('/api/reviews')).body.items).toEqual([]);
  }, 120_000);

  it('sends a ticket stored under older redaction rules to the model through today’s', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: candidateDocument() })).status).toBe(200);
    const run = (await keyed.post(`/api/packs/${pack.id}/shadow-runs`, { sampleRate: 1 })).body;
    const [live] = await judgeTickets(keyed, pack.id, 1, 'rules');
    // A ticket stored before a rule existed: the live row, planted again with its address unredacted.
    const stored = { ...TICKET, externalId: 'stored-before-the-rule' };
    expect(stored.customerMessage).toContain('jane.doe@example.com');
    await queryDatabase(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id, latency_ms)
       SELECT gen_random_uuid(), user_id, pack_id, pack_version_id, source, status, $2::jsonb, result, model_id, latency_ms
         FROM evaluations WHERE id = $1`,
      [live, JSON.stringify(stored)],
    );
    await eventually(
      async () => ((await report(keyed, run.id)).report.judged === 2 ? true : undefined),
      60_000,
    );
    // The candidate's request for each ticket (the last, should a job have been taken twice).
    const byId = new Map(
      gateway.requests
        .filter(fromCandidate)
        .map((request) => JSON.parse(request.messages.find((m) => m.role === 'user')!.content).ticket)
        .map((ticket) => [ticket.externalId, ticket]),
    );
    const sent = ['rules-0', stored.externalId].map((id) => byId.get(id));
    expect(sent.map((ticket) => ticket?.externalId)).toEqual(['rules-0', stored.externalId]);
    // Both as today's rules redact them, so alike but for the id and subject.
    expect(sent[1].customerMessage).not.toContain('jane.doe@example.com');
    expect(sent[1].customerMessage).toBe(sent[0].customerMessage);
  }, 120_000);

  it('refuses bad bodies with 400, and other users’ packs, versions and runs with 404', async () => {
    const owner = await newTenant(api.url);
    const stranger = await newTenant(api.url);
    const pack = await createPublishedPack(owner.keyed);
    const other = await createPublishedPack(owner.keyed);
    const path = `/api/packs/${pack.id}/shadow-runs`;
    for (const body of [
      { sampleRate: 1.5 },
      { sampleRate: -0.1 },
      { sampleRate: '0.5' },
      { maxJudgments: 0 },
      { maxJudgments: 2.5 },
      { maxJudgments: 1e12 },
      { versionId: 7 },
      [],
      { sampleRate: null },
    ]) {
      const res = await owner.keyed.post(path, body);
      expect([JSON.stringify(body), res.status]).toEqual([JSON.stringify(body), 400]);
      expect(typeof res.body.error).toBe('string');
    }
    const foreignVersion = await owner.keyed.post(path, { versionId: other.liveVersionId });
    expect([foreignVersion.status, foreignVersion.body]).toEqual([404, { error: 'version not found' }]);
    const notUuid = await owner.keyed.post(path, { versionId: 'draft' });
    expect([notUuid.status, notUuid.body]).toEqual([404, { error: 'version not found' }]);

    const run = (await owner.keyed.post(path, { sampleRate: 0 })).body;
    for (const [method, url] of [
      ['GET', `/api/shadow-runs/${run.id}`],
      ['POST', `/api/shadow-runs/${run.id}/stop`],
      ['GET', '/api/shadow-runs/not-a-uuid'],
    ] as const) {
      const res = await stranger.keyed.request(method, url);
      expect([url, res.status, res.body]).toEqual([url, 404, { error: 'shadow run not found' }]);
    }
    for (const [method, url] of [
      ['GET', path],
      ['POST', path],
    ] as const) {
      const res = await stranger.keyed.request(method, url, method === 'POST' ? { body: {} } : {});
      expect([url, res.status, res.body]).toEqual([url, 404, { error: 'pack not found' }]);
    }
    expect((await owner.keyed.get(`/api/shadow-runs/${run.id}`)).body.status).toBe('active');
  }, 60_000);
});

describe('shadow judgments stand down while live work waits', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;
  const prefix = `${PREFIX}-backlog`;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
    // One live slot and slow live calls: a burst of inbound events waits in the queue for seconds.
    worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: prefix,
      WORKER_CONCURRENCY: '1',
      SHADOW_SAMPLE_MS: '200',
    });
  });
  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await api?.close();
    await gateway.close();
  });

  it('judges no sampled evaluation until the inbound queue has no event waiting', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    expect((await keyed.patch(`/api/packs/${pack.id}`, { document: candidateDocument() })).status).toBe(200);
    gateway.route((request) => (fromCandidate(request) ? undefined : { kind: 'answer', delayMs: 400 }));
    const run = (await keyed.post(`/api/packs/${pack.id}/shadow-runs`, { sampleRate: 1 })).body;
    const events = 12;
    for (let i = 0; i < events; i++)
      expect((await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET })).status).toBe(
        202,
      );
    // About 5 s of live work in one slot; the first evaluations are drawn after about 1.2 s.
    await eventually(async () => {
      const body = await report(keyed, run.id);
      return body.report.judged === events ? body : undefined;
    }, 60_000);
    const [times] = await queryDatabase<{ last_live_start: Date; first_shadow: Date }>(
      `SELECT (SELECT max(e.created_at - make_interval(secs => e.latency_ms / 1000.0))
                 FROM evaluations e WHERE e.pack_id = $1 AND e.source = 'webhook') AS last_live_start,
              (SELECT min(judged_at) FROM shadow_judgments WHERE shadow_run_id = $2) AS first_shadow`,
      [pack.id, run.id],
    );
    // The last event's job was taken (its model call began) before any shadow judgment was made.
    expect(times.first_shadow.getTime()).toBeGreaterThan(times.last_live_start.getTime());
  }, 90_000);
});
