import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { QUEUES } from '../../libs/jobs/src/index.js';
import { DatasetRepository, SimulationRepository } from '../../libs/persistence/src/index.js';
import { SimulationRunner } from '../../libs/simulations/src/index.js';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant, type Client } from '../support/client.js';
import { createDataset } from '../support/datasets.js';
import { queryDatabase } from '../support/db.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPack, createPublishedPack, triageDocument } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { openQueue } from '../support/queues.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/** Its own Redis namespace: only this file's workers take these jobs. */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-sim`;

async function waitForStatus(client: Client, id: string, statuses: string[], timeoutMs = 60_000) {
  return eventually(async () => {
    const res = await client.get(`/api/simulations/${id}`);
    return statuses.includes(res.body.status) ? res.body : undefined;
  }, timeoutMs);
}

async function evaluationCounts(simulationId: string): Promise<{ rows: number; tickets: number }> {
  const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query(
      `SELECT count(*)::int AS rows, count(DISTINCT dataset_ticket_id)::int AS tickets FROM evaluations WHERE simulation_id = $1`,
      [simulationId],
    );
    return rows[0];
  } finally {
    await db.end();
  }
}

describe('simulations on the worker', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;
  let workerEnv: Record<string, string>;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    workerEnv = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WORKER_CONCURRENCY: '8' };
    worker = await startWorker(workerEnv);
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await stopWorker(worker);
    await api.close();
    await gateway.close();
  });

  it('answers 202 at once, runs queued -> running -> completed, and stores one evaluation per ticket', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 20, 'twenty');
    gateway.set({ kind: 'answer', delayMs: 100 });
    const started = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    expect(started.status).toBe(202);
    expect(started.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const early = await keyed.get(`/api/simulations/${started.body.id}`);
    expect(['queued', 'running']).toContain(early.body.status);
    expect(early.body.completed).toBeLessThan(20);

    // A publish after the start does not change the version the simulation runs.
    await keyed.patch(`/api/packs/${pack.id}`, { name: 'Triage v2' });
    await keyed.post(`/api/packs/${pack.id}/publish`);

    const done = await waitForStatus(keyed, started.body.id, ['completed']);
    expect(done).toEqual({
      id: started.body.id,
      datasetId: dataset.id,
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      status: 'completed',
      createdAt: expect.any(String),
      datasetName: 'twenty',
      packName: 'Triage v2',
      name: null,
      // Version 1, no longer live: the pack was published again after the start.
      packVersionNumber: 1,
      packVersionLive: false,
      total: 20,
      completed: 20,
      byStatus: { accept: 0, review: 0, reject: 20 },
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      reason: null,
      // No MODEL_PRICES here: the fake gateway's model has no price, so every ticket's cost is unknown.
      cost: { costUsd: 0, unknownCostEvaluations: 20 },
      ratePerSecond: expect.any(Number),
      estimatedFinishAt: null,
    });
    expect(done.ratePerSecond).toBeGreaterThan(0);
    const evaluations = await keyed.get(`/api/evaluations?simulationId=${started.body.id}`);
    expect(evaluations.body.items).toHaveLength(20);
    for (const item of evaluations.body.items) {
      expect(item).toMatchObject({ source: 'simulation', packVersionId: pack.liveVersionId });
      // Which ticket, and what was answered, without opening each evaluation.
      expect(item).toMatchObject({
        subject: 'Charged twice',
        externalId: expect.stringMatching(/^T-\d+$/),
        answers: {
          department: expect.objectContaining({ type: 'choice' }),
          abusive: expect.objectContaining({ type: 'boolean' }),
          complexity: expect.objectContaining({ type: 'score' }),
        },
      });
    }
    expect(new Set(evaluations.body.items.map((item: { externalId: string }) => item.externalId)).size).toBe(
      20,
    );
    expect(await evaluationCounts(started.body.id)).toEqual({ rows: 20, tickets: 20 });

    const list = await keyed.get('/api/simulations');
    expect(list.body.items[0]).toEqual({
      id: started.body.id,
      datasetId: dataset.id,
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      status: 'completed',
      createdAt: done.createdAt,
      datasetName: 'twenty',
      packName: 'Triage v2',
      name: null,
      packVersionNumber: 1,
      packVersionLive: false,
    });
    const stats = await keyed.get('/api/stats');
    expect(stats.body.recentRuns[0]).toEqual({
      id: started.body.id,
      status: 'completed',
      packId: pack.id,
      createdAt: done.createdAt,
      name: null,
      packName: 'Triage v2',
      datasetName: 'twenty',
      packVersionNumber: 1,
      packVersionLive: false,
    });
    // The worker says when it started and when it finished, once.
    const lines = worker
      .output()
      .split('\n')
      .filter((line) => line.includes(started.body.id))
      .map((line) => JSON.parse(line) as { msg: string; tickets?: number });
    expect(lines.filter((line) => line.msg === 'simulation started')).toEqual([
      expect.objectContaining({ tickets: 20 }),
    ]);
    expect(lines.filter((line) => line.msg === 'simulation finished')).toHaveLength(1);
  });

  it('completes an empty dataset at once with zero tickets', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 0);
    const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    const simulation = await keyed.get(`/api/simulations/${body.id}`);
    expect(simulation.body).toMatchObject({ status: 'completed', total: 0, completed: 0 });
  });

  it('tries a ticket again when the model was unreachable, and records other model failures as review', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 10);
    gateway.next(
      { kind: 'status', status: 500 },
      { kind: 'status', status: 503 },
      { kind: 'content', content: 'garbage' },
    );
    const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    const done = await waitForStatus(keyed, body.id, ['completed']);
    expect(done.completed).toBe(10);
    expect(done.byStatus.review).toBe(1);
    // Ten tickets, two of them judged twice: the 500 and the 503 were tried again.
    expect(gateway.calls).toBe(12);
    const reasons = await queryDatabase(
      `SELECT result -> 'reviewReasons' ->> 0 AS reason, count(*)::int AS n FROM evaluations
        WHERE simulation_id = $1 AND status = 'review' GROUP BY 1 ORDER BY 1`,
      [body.id],
    );
    expect(reasons).toEqual([{ reason: 'invalid_model_output', n: 1 }]);
  });

  it("records an unreachable model as review (gateway_unavailable) on the job's last attempt only", async () => {
    const { keyed, user } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 1);
    // Recorded without a job, so only this test's calls judge it.
    const simulationId = randomUUID();
    await api.app.get(SimulationRepository).create(user.id, {
      id: simulationId,
      datasetId: dataset.id,
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      total: 1,
      name: null,
      status: 'queued',
      finishedAt: null,
    });
    await api.app.get(SimulationRepository).markRunning(simulationId);
    const [ticketId] = await api.app.get(DatasetRepository).ticketIds(dataset.id, 1);
    const runner = api.app.get(SimulationRunner);
    gateway.set({ kind: 'status', status: 503 });
    await expect(runner.judgeTicket(simulationId, ticketId, { lastAttempt: false })).rejects.toThrow(
      'the model gateway was unavailable',
    );
    expect((await keyed.get(`/api/simulations/${simulationId}`)).body.completed).toBe(0);
    expect(await runner.judgeTicket(simulationId, ticketId, { lastAttempt: true })).toBe('recorded');
    const done = (await keyed.get(`/api/simulations/${simulationId}`)).body;
    expect(done).toMatchObject({ status: 'completed', completed: 1, byStatus: { review: 1 } });
    const [evaluation] = await queryDatabase(
      `SELECT result -> 'reviewReasons' AS reasons FROM evaluations WHERE simulation_id = $1`,
      [simulationId],
    );
    expect(evaluation.reasons).toEqual(['gateway_unavailable']);
  });

  it('runs a named version (the draft) and compares it with the live run', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const draft = triageDocument();
    draft.questions[1].criteria.outcomeWhenTrue = 'review';
    const edited = (await keyed.patch(`/api/packs/${pack.id}`, { document: draft })).body;
    const dataset = await createDataset(keyed, 6);
    const live = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id })).body;
    await waitForStatus(keyed, live.id, ['completed']);
    const trial = await keyed.post('/api/simulations', {
      datasetId: dataset.id,
      packId: pack.id,
      packVersionId: edited.draftVersionId,
    });
    expect(trial.status).toBe(202);
    const trialDone = await waitForStatus(keyed, trial.body.id, ['completed']);
    expect(trialDone.packVersionId).toBe(edited.draftVersionId);
    expect(trialDone).toMatchObject({ packVersionNumber: null, packVersionLive: false });
    expect((await keyed.get(`/api/simulations/${live.id}`)).body).toMatchObject({
      packVersionNumber: 1,
      packVersionLive: true,
    });
    const comparison = await keyed.get(`/api/simulations/${live.id}/compare/${trial.body.id}`);
    expect(comparison.status).toBe(200);
    expect(comparison.body).toEqual({
      from: live.id,
      to: trial.body.id,
      tickets: 6,
      questions: [
        { questionId: 'abusive', changed: 0 },
        { questionId: 'complexity', changed: 0 },
        { questionId: 'department', changed: 0 },
      ],
      statusChanges: [{ from: 'reject', to: 'review', count: 6 }],
      // Every ticket moved status (no answer changed), listed in the dataset's order.
      changedTickets: Array.from({ length: 6 }, (_, i) => ({
        ticketId: expect.any(String),
        subject: 'Charged twice',
        externalId: `T-${i}`,
        fromEvaluationId: expect.any(String),
        toEvaluationId: expect.any(String),
        fromStatus: 'reject',
        toStatus: 'review',
        answers: [],
      })),
    });
    const [changed] = comparison.body.changedTickets;
    expect((await keyed.get(`/api/evaluations/${changed.toEvaluationId}`)).body).toMatchObject({
      status: 'review',
      redactedTicket: { externalId: 'T-0' },
    });
    // A ticket whose answer changed lists the answer before and after.
    gateway.set({ kind: 'answer', choose: { department: 'technical' } });
    const relabeled = (
      await keyed.post('/api/simulations', {
        datasetId: dataset.id,
        packId: pack.id,
        packVersionId: edited.draftVersionId,
      })
    ).body;
    await waitForStatus(keyed, relabeled.id, ['completed']);
    const byAnswer = await keyed.get(`/api/simulations/${trial.body.id}/compare/${relabeled.id}`);
    expect(byAnswer.body.questions).toContainEqual({ questionId: 'department', changed: 6 });
    expect(byAnswer.body.changedTickets).toHaveLength(6);
    expect(byAnswer.body.changedTickets[0]).toMatchObject({
      externalId: 'T-0',
      fromStatus: 'review',
      toStatus: 'review',
      answers: [
        {
          questionId: 'department',
          from: expect.objectContaining({ type: 'choice', choice: 'billing' }),
          to: expect.objectContaining({ type: 'choice', choice: 'technical' }),
        },
      ],
    });
    const otherDataset = await createDataset(keyed, 1);
    const other = (await keyed.post('/api/simulations', { datasetId: otherDataset.id, packId: pack.id }))
      .body;
    await waitForStatus(keyed, other.id, ['completed']);
    const mismatch = await keyed.get(`/api/simulations/${live.id}/compare/${other.id}`);
    expect(mismatch.status).toBe(409);
    expect(mismatch.body).toEqual({ error: 'simulations are over different datasets' });
  });

  it("reports agreement with the dataset's expected answers per question, and lists the disagreeing tickets", async () => {
    const { keyed } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = (await keyed.post('/api/datasets', { name: 'golden' })).body;
    const golden = (i: number, expected?: Record<string, unknown>) => ({
      externalId: `G-${i}`,
      subject: `Golden ${i}`,
      customerMessage: 'Please help me with this',
      ...(expected ? { expected } : {}),
    });
    const uploaded = await keyed.post(`/api/datasets/${dataset.id}/tickets`, {
      tickets: [
        golden(0, { department: 'billing', abusive: false, complexity: 1 }),
        golden(1, { department: 'technical', abusive: 'yes' }),
        golden(2, { department: ' billing ', complexity: '2' }),
        golden(3, { complexity: '1' }),
        golden(4, { department: 'legal', not_in_the_pack: 'x' }),
        golden(5),
      ],
    });
    expect(uploaded.status).toBe(200);
    // The fake model answers department billing, abusive true (0.9) and complexity 1, every time.
    const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    const done = await waitForStatus(keyed, body.id, ['completed']);
    // By hand: department 4 compared (G-0, G-1, G-2, G-4), G-0 and G-2 agree; abusive 2 (G-0, G-1),
    // G-1 agrees; complexity 3 (G-0, G-2, G-3), G-0 and G-3 agree. not_in_the_pack is not counted.
    expect(done.expectedAgreement).toEqual([
      { questionId: 'department', compared: 4, agreed: 2, rate: 0.5 },
      { questionId: 'abusive', compared: 2, agreed: 1, rate: 0.5 },
      { questionId: 'complexity', compared: 3, agreed: 2, rate: 2 / 3 },
    ]);
    const disagreement = (position: number, questionId: string, expected: unknown, answer: string) => ({
      ticketId: expect.any(String),
      position,
      externalId: `G-${position}`,
      subject: `Golden ${position}`,
      evaluationId: expect.any(String),
      questionId,
      expected,
      answer,
    });
    const all = await keyed.get(`/api/simulations/${body.id}/disagreements`);
    expect(all.status).toBe(200);
    expect(all.body).toEqual({
      items: [
        disagreement(0, 'abusive', false, 'true'),
        disagreement(1, 'department', 'technical', 'billing'),
        disagreement(2, 'complexity', '2', '1'),
        disagreement(4, 'department', 'legal', 'billing'),
      ],
      total: 4,
    });
    // Each names the simulation's own evaluation of that ticket.
    const evaluation = await keyed.get(`/api/evaluations/${all.body.items[0].evaluationId}`);
    expect(evaluation.status).toBe(200);
    expect(evaluation.body).toMatchObject({ source: 'simulation' });
    const department = await keyed.get(`/api/simulations/${body.id}/disagreements?questionId=department`);
    expect(department.body).toEqual({ items: [all.body.items[1], all.body.items[3]], total: 2 });
    const unknown = await keyed.get(`/api/simulations/${body.id}/disagreements?questionId=nothing_here`);
    expect(unknown.body).toEqual({ items: [], total: 0 });
    const malformed = await keyed.get(`/api/simulations/${body.id}/disagreements?questionId=a%20b`);
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({
      error: 'invalid request',
      issues: [expect.objectContaining({ path: 'questionId' })],
    });
    for (const res of [
      await other.keyed.get(`/api/simulations/${body.id}/disagreements`),
      await keyed.get('/api/simulations/not-a-uuid/disagreements'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'simulation not found' });
    }
    // A dataset without expected answers: no agreement field, and nothing disagrees.
    const plain = await createDataset(keyed, 2);
    const plainRun = (await keyed.post('/api/simulations', { datasetId: plain.id, packId: pack.id })).body;
    const plainDone = await waitForStatus(keyed, plainRun.id, ['completed']);
    expect(plainDone).not.toHaveProperty('expectedAgreement');
    expect((await keyed.get(`/api/simulations/${plainRun.id}/disagreements`)).body).toEqual({
      items: [],
      total: 0,
    });
  });

  it('cancels a running simulation; the rest of its tickets are skipped', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 60);
    gateway.set({ kind: 'answer', delayMs: 200 });
    const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    await eventually(async () =>
      (await keyed.get(`/api/simulations/${body.id}`)).body.completed > 0 ? true : undefined,
    );
    const cancelled = await keyed.post(`/api/simulations/${body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const after = (await keyed.get(`/api/simulations/${body.id}`)).body;
    expect(after.status).toBe('cancelled');
    expect(after.completed).toBeLessThan(60);
    const again = await keyed.post(`/api/simulations/${body.id}/cancel`);
    expect(again.status).toBe(409);
  });

  it('answers 404 for missing or foreign datasets, packs, versions and simulations, and 409 without a live version', async () => {
    const { keyed } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 1);
    const foreignPack = await createPublishedPack(other.keyed);
    const foreignDataset = await createDataset(other.keyed, 1);
    const cases: Array<[object, number, string]> = [
      [{ datasetId: foreignDataset.id, packId: pack.id }, 404, 'dataset not found'],
      [{ datasetId: 'nope', packId: pack.id }, 404, 'dataset not found'],
      [{ datasetId: dataset.id, packId: foreignPack.id }, 404, 'pack not found'],
      [
        { datasetId: dataset.id, packId: pack.id, packVersionId: foreignPack.liveVersionId },
        404,
        'version not found',
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await keyed.post('/api/simulations', body);
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error });
    }
    const draftOnly = await createPack(keyed);
    const noLive = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: draftOnly.id });
    expect(noLive.status).toBe(409);
    expect(noLive.body).toEqual({ error: 'pack has no published version' });
    const theirs = (
      await other.keyed.post('/api/simulations', { datasetId: foreignDataset.id, packId: foreignPack.id })
    ).body;
    for (const res of [
      await keyed.get(`/api/simulations/${theirs.id}`),
      await keyed.post(`/api/simulations/${theirs.id}/cancel`),
      await keyed.get('/api/simulations/not-a-uuid'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'simulation not found' });
    }
    expect((await keyed.get('/api/simulations')).body.items.map((s: { id: string }) => s.id)).not.toContain(
      theirs.id,
    );
  });

  it('stores an optional name, trimmed, returns it everywhere, and refuses a blank, long or non-text one', async () => {
    const { keyed } = await newTenant(api.url);
    const other = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 0, 'empty');
    const named = await keyed.post('/api/simulations', {
      datasetId: dataset.id,
      packId: pack.id,
      name: '  Stricter refunds \n',
    });
    expect(named.status).toBe(202);
    const read = (await keyed.get(`/api/simulations/${named.body.id}`)).body;
    expect(read).toMatchObject({ name: 'Stricter refunds', packVersionNumber: 1, packVersionLive: true });
    const listed = (await keyed.get('/api/simulations')).body.items;
    expect(listed.find((item: { id: string }) => item.id === named.body.id).name).toBe('Stricter refunds');
    expect((await keyed.get('/api/stats')).body.recentRuns[0]).toMatchObject({
      id: named.body.id,
      name: 'Stricter refunds',
    });
    const longest = 'n'.repeat(200);
    const atLimit = await keyed.post('/api/simulations', {
      datasetId: dataset.id,
      packId: pack.id,
      name: longest,
    });
    expect((await keyed.get(`/api/simulations/${atLimit.body.id}`)).body.name).toBe(longest);

    const cases: Array<[unknown, string]> = [
      ['n'.repeat(201), 'name must be shorter than or equal to 200 characters'],
      ['   ', 'name must not be blank'],
      [42, 'name must be a string'],
      [null, 'name must not be null'],
      [['a'], 'name must be a string'],
    ];
    for (const [name, message] of cases) {
      const res = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id, name });
      expect([res.status, res.body.error]).toEqual([400, 'invalid request']);
      expect(res.body.issues).toContainEqual({ path: 'name', message });
    }
    // Nothing was recorded by the refused requests, and another tenant sees no name of ours.
    expect((await keyed.get('/api/simulations')).body.items).toHaveLength(2);
    expect((await other.keyed.get('/api/simulations')).body.items).toEqual([]);
    expect((await other.keyed.get(`/api/simulations/${named.body.id}`)).status).toBe(404);
  });

  it('needs simulations:run', async () => {
    const { session } = await newTenant(api.url);
    const { client } = await createKey(session, ['packs:read', 'packs:write']);
    expect((await client.get('/api/simulations')).body).toEqual({
      error: 'missing permission simulations:run',
    });
  });
});

describe('simulations surviving crashes', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  const prefix = `${PREFIX}-crash`;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
  });
  afterAll(async () => {
    await api.close();
    await gateway.close();
  });

  it('finishes a 250-ticket simulation with exactly 250 evaluations after the worker is killed with SIGKILL', async () => {
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix, WORKER_CONCURRENCY: '8' };
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 250);
    gateway.set({ kind: 'answer', delayMs: 40 });
    const first = await startWorker(env);
    const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    await eventually(async () =>
      (await keyed.get(`/api/simulations/${body.id}`)).body.completed >= 40 ? true : undefined,
    );
    await stopWorker(first, 'SIGKILL');
    const killedAt = Date.now();
    const midway = (await keyed.get(`/api/simulations/${body.id}`)).body;
    expect(midway.status).toBe('running');
    expect(midway.completed).toBeLessThan(250);

    const second = await startWorker(env);
    try {
      const done = await waitForStatus(keyed, body.id, ['completed'], 90_000);
      expect(done.completed).toBe(250);
      expect(await evaluationCounts(body.id)).toEqual({ rows: 250, tickets: 250 });
      // The killed worker's jobs came back at its 3 s lock (WORKER_LOCK_MS): with BullMQ's 30 s
      // default the lock alone would outlast this.
      expect(Date.now() - killedAt).toBeLessThan(25_000);
    } finally {
      await stopWorker(second);
    }
  }, 120_000);

  it('makes at most WORKER_CONCURRENCY model calls at once, with as many more ticket jobs read and waiting', async () => {
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix, WORKER_CONCURRENCY: '2' };
    const queue = openQueue(QUEUES.simulations, prefix);
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 12);
    gateway.reset();
    gateway.set({ kind: 'answer', delayMs: 400 });
    const worker = await startWorker(env);
    try {
      const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
      // The worker takes 4 ticket jobs (TICKET_JOBS_PER_MODEL_CALL = 2 for each of its 2 calls):
      // 2 are at the gateway, the other 2 have read their ticket and wait for a call to end.
      const both = await eventually(async () => {
        const active = (await queue.getActive()).filter((job) => job.name === 'ticket').length;
        return active === 4 && gateway.inFlight === 2 ? { active, calls: gateway.inFlight } : undefined;
      }, 20_000);
      expect(both).toEqual({ active: 4, calls: 2 });
      const done = await waitForStatus(keyed, body.id, ['completed'], 60_000);
      expect(done.completed).toBe(12);
      expect(await evaluationCounts(body.id)).toEqual({ rows: 12, tickets: 12 });
      // Never more than 2 calls at the gateway at once, though 4 jobs ran at once.
      expect(gateway.maxInFlight).toBe(2);
      // A job that stalls on a busy machine (its 3 s lock) is run again: a call more, no row more.
      expect(gateway.calls).toBeGreaterThanOrEqual(12);
    } finally {
      await stopWorker(worker);
      await queue.close();
    }
  }, 120_000);

  it('shares one simulation between two workers with exactly one evaluation per ticket', async () => {
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix, WORKER_CONCURRENCY: '4' };
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 120);
    gateway.set({ kind: 'answer', delayMs: 20 });
    const workers = await Promise.all([startWorker(env), startWorker(env)]);
    try {
      const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
      const done = await waitForStatus(keyed, body.id, ['completed'], 60_000);
      expect(done.completed).toBe(120);
      expect(done.byStatus.accept + done.byStatus.review + done.byStatus.reject).toBe(120);
      expect(await evaluationCounts(body.id)).toEqual({ rows: 120, tickets: 120 });
    } finally {
      await Promise.all(workers.map((w) => stopWorker(w)));
    }
  }, 120_000);
});

describe('simulations accepted while Redis is away, and graceful shutdown', () => {
  let gateway: FakeGateway;
  const prefix = `${PREFIX}-sweep`;

  beforeAll(async () => {
    gateway = await startFakeGateway();
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('accepts a simulation with Redis down (202 at once), and the worker sweeper runs it later', async () => {
    // This API's queue connection points at a closed port; sign-up, keys and packs live in Postgres.
    const offline = await startApi({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: prefix,
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    let simulationId: string;
    let keyed: Client;
    try {
      const tenant = await newTenant(offline.url);
      keyed = tenant.keyed;
      const pack = await createPublishedPack(keyed);
      const dataset = await createDataset(keyed, 5);
      const started = Date.now();
      const res = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
      expect(res.status).toBe(202);
      expect(Date.now() - started).toBeLessThan(10_000);
      simulationId = res.body.id;
      // Recorded although it could not be enqueued. (Usually still `queued` here; but workers that
      // other spec files run at the same time share this database, and their sweepers may run it.)
      const recorded = await keyed.get(`/api/simulations/${simulationId}`);
      expect(recorded.status).toBe(200);
      expect(['queued', 'running', 'completed']).toContain(recorded.body.status);
    } finally {
      await offline.close();
    }
    const online = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
    const worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: prefix,
      WORKER_SWEEP_MS: '500',
    });
    try {
      const client = keyed!;
      const reader = new (client.constructor as typeof Client)(online.url).withKey(client.apiKey!);
      const done = await waitForStatus(reader, simulationId, ['completed'], 30_000);
      expect(done.completed).toBe(5);
      expect(await evaluationCounts(simulationId)).toEqual({ rows: 5, tickets: 5 });
    } finally {
      await stopWorker(worker);
      await online.close();
    }
  }, 120_000);

  it('stops on SIGTERM with exit code 0, finishing in-flight jobs, and a new worker completes the run exactly once', async () => {
    const api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix, WORKER_CONCURRENCY: '4' };
    try {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      const dataset = await createDataset(keyed, 40);
      gateway.set({ kind: 'answer', delayMs: 300 });
      const first = await startWorker(env);
      const { body } = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
      await eventually(async () =>
        (await keyed.get(`/api/simulations/${body.id}`)).body.completed >= 4 ? true : undefined,
      );
      first.child.kill('SIGTERM');
      const exit = await first.exited();
      expect(exit).toEqual({ code: 0, signal: null });
      expect(first.output()).toContain('worker stopped');
      const stopped = (await keyed.get(`/api/simulations/${body.id}`)).body;
      expect(stopped.completed).toBeLessThan(40);
      // Nothing in flight was lost: every evaluation counted is stored, once.
      expect(await evaluationCounts(body.id)).toEqual({
        rows: stopped.completed,
        tickets: stopped.completed,
      });

      gateway.set({ kind: 'answer' });
      const second = await startWorker(env);
      try {
        const done = await waitForStatus(keyed, body.id, ['completed'], 30_000);
        expect(done.completed).toBe(40);
        expect(await evaluationCounts(body.id)).toEqual({ rows: 40, tickets: 40 });
      } finally {
        await stopWorker(second);
      }
    } finally {
      await api.close();
    }
  }, 120_000);
});

describe('Bull Board for operators', () => {
  it('is served at /admin/queues only with ADMIN_TOKEN, and only to that token', async () => {
    const token = 'admin-token-0123456789abcdef';
    const api = await startApi({ ADMIN_TOKEN: token, REDIS_PREFIX: `${PREFIX}-board` });
    try {
      const anonymous = await fetch(`${api.url}/admin/queues`);
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toContain('Basic');
      const { keyed } = await newTenant(api.url);
      expect(
        (await fetch(`${api.url}/admin/queues`, { headers: { 'x-api-key': keyed.apiKey! } })).status,
      ).toBe(401);
      expect(
        (
          await fetch(`${api.url}/admin/queues`, {
            headers: { authorization: 'Bearer wrong-token-0123456789' },
          })
        ).status,
      ).toBe(401);
      const bearer = await fetch(`${api.url}/admin/queues`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(bearer.status).toBe(200);
      expect(await bearer.text()).toContain('<html');
      const basic = await fetch(`${api.url}/admin/queues/api/queues`, {
        headers: { authorization: `Basic ${Buffer.from(`ops:${token}`).toString('base64')}` },
      });
      expect(basic.status).toBe(200);
      const queues = (await basic.json()) as { queues: Array<{ name: string }> };
      expect(queues.queues.map((q) => q.name).sort()).toEqual([
        'maintenance',
        'shadow',
        'simulations',
        'webhooks',
      ]);
    } finally {
      await api.close();
    }
    const without = await startApi({ REDIS_PREFIX: `${PREFIX}-board` });
    try {
      const res = await fetch(`${without.url}/admin/queues`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(404);
    } finally {
      await without.close();
    }
  });

  it('is read-only with ADMIN_TOKEN; retry, clean and remove need ADMIN_WRITE_TOKEN', async () => {
    const read = 'admin-read-token-0123456789';
    const write = 'admin-write-token-0123456789';
    const retryFailed = (api: { url: string }, token: string) =>
      fetch(`${api.url}/admin/queues/api/queues/simulations/retry/failed`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}` },
      });
    const readOnly = await startApi({ ADMIN_TOKEN: read, REDIS_PREFIX: `${PREFIX}-board` });
    try {
      const refused = await retryFailed(readOnly, read);
      expect([refused.status, await refused.json()]).toEqual([403, { error: 'admin write token required' }]);
      const queues = await fetch(`${readOnly.url}/admin/queues/api/queues`, {
        headers: { authorization: `Bearer ${read}` },
      });
      const body = (await queues.json()) as { queues: Array<{ readOnlyMode: boolean }> };
      expect(body.queues.map((queue) => queue.readOnlyMode)).toEqual([true, true, true, true]);
    } finally {
      await readOnly.close();
    }
    const writable = await startApi({
      ADMIN_TOKEN: read,
      ADMIN_WRITE_TOKEN: write,
      REDIS_PREFIX: `${PREFIX}-board`,
    });
    try {
      expect((await retryFailed(writable, read)).status).toBe(403);
      expect((await retryFailed(writable, write)).status).toBe(200);
      const viewed = await fetch(`${writable.url}/admin/queues`, {
        headers: { authorization: `Bearer ${read}` },
      });
      expect(viewed.status).toBe(200);
    } finally {
      await writable.close();
    }
  });
});
