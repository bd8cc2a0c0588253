import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { newTenant, type Client } from '../support/client.js';
import { createDataset } from '../support/datasets.js';
import { queryDatabase } from '../support/db.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { candidateDocument, createPublishedPack, fromCandidate, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { Receiver } from '../support/receiver.js';
import { startRedisServer, type RedisServer } from '../support/redis-server.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

/**
 * Fault drills: the API, two workers and a Redis of their own run as real processes while a
 * simulation and a burst of inbound events are in flight, and something breaks. After recovery,
 * every accepted event has exactly one evaluation and one succeeded delivery, and the simulation
 * completes with one evaluation per ticket and its own completion.
 */
const APP_NAME = 'tj-fault-drill';

// Its worker draws from every active shadow run of its database: a database of its own.
useIsolatedDatabase('drills');
const TICKETS = 120;
const EVENTS = 80;

interface Workload {
  userId: string;
  keyed: Client;
  packId: string;
  simulationId: string;
  /** Events answered 202, the only ones the service promised anything for. */
  accepted: string[];
  /** Status and body of every event not accepted. */
  refused: string[];
  /** Sends `count` more inbound events, keeping the accepted ones. */
  send(count: number): Promise<void>;
}

describe('fault drills (API, workers and Redis as processes)', () => {
  let redis: RedisServer;
  let gateway: FakeGateway;
  let receiver: Receiver;
  let api: ApiProcess;
  let workers: RunningProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    redis = await startRedisServer();
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
    env = {
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'drill',
      MODEL_GATEWAY_URL: gateway.url,
      // Only this file's processes carry this name, so only their connections are killed.
      PGAPPNAME: APP_NAME,
      WORKER_CONCURRENCY: '4',
      WORKER_SWEEP_MS: '1000',
      WEBHOOK_BACKOFF_MS: '500',
      SHADOW_SAMPLE_MS: '300',
    };
    api = await startApi();
  });
  afterEach(async () => {
    for (const worker of workers) await stopWorker(worker, 'SIGKILL');
    workers = [];
    gateway.reset();
    // A drill that killed the API has failed (on `expectApiAlive`, or on a refused connection before
    // it): say why the API died, whatever failed first, and give the next drills a fresh one.
    if (apiExit) {
      console.error(apiExitReport());
      api = await startApi();
    }
  });

  /** The API process, its exit recorded as it happens (a fault must never kill it). */
  let apiExit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  async function startApi(): Promise<ApiProcess> {
    apiExit = null;
    const started = await startApiProcess(env);
    void started.exited().then((exit) => (apiExit = exit));
    return started;
  }

  /** How the API exited, and the end of what it wrote. */
  const apiExitReport = () =>
    `the API exited (${JSON.stringify(apiExit)}) during the drill; its last output:\n${api.output().slice(-6000)}`;

  /** The API still runs; if it exited, its code or signal and the end of what it wrote say why. */
  function expectApiAlive(): void {
    if (apiExit) throw new Error(apiExitReport());
  }
  afterAll(async () => {
    if (api) await stopWorker(api);
    await receiver?.close();
    await gateway?.close();
    await redis?.kill();
  });

  async function startWorkers(count: number): Promise<void> {
    for (let i = 0; i < count; i++) workers.push(await startWorker({ ...env, WORKER_NAME: `drill-${i}` }));
  }

  /** `beforeEvents` runs once the pack is published, before the first event is sent. */
  async function startWorkload(
    beforeEvents?: (keyed: Client, packId: string) => Promise<void>,
  ): Promise<Workload> {
    const { keyed, user } = await newTenant(api.url);
    expect((await keyed.post('/api/webhook-endpoints', { url: receiver.url })).status).toBe(201);
    const pack = await createPublishedPack(keyed);
    await beforeEvents?.(keyed, pack.id);
    const dataset = await createDataset(keyed, TICKETS);
    const started = await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id });
    expect(started.status).toBe(202);
    const accepted: string[] = [];
    const refused: string[] = [];
    const send = async (count: number) => {
      const responses = await Promise.all(
        Array.from({ length: count }, () =>
          keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }),
        ),
      );
      for (const res of responses) {
        if (res.status === 202) accepted.push(res.body.eventId);
        else refused.push(`${res.status} ${res.text}`);
      }
    };
    await send(EVENTS / 2);
    return {
      userId: user.id,
      keyed,
      packId: pack.id,
      simulationId: started.body.id,
      accepted,
      refused,
      send,
    };
  }

  async function evaluationsOf(userId: string): Promise<number> {
    const [row] = await queryDatabase(`SELECT count(*)::int AS n FROM evaluations WHERE user_id = $1`, [
      userId,
    ]);
    return row.n;
  }

  /** Waits until the run is past `count` evaluations, so the fault lands mid-run. */
  async function untilEvaluations(workload: Workload, count: number): Promise<void> {
    await eventually(
      async () => ((await evaluationsOf(workload.userId)) >= count ? true : undefined),
      60_000,
    );
  }

  async function expectExactlyOnce(workload: Workload, { deliveredOnce = true } = {}): Promise<void> {
    const { userId, simulationId, accepted } = workload;
    await eventually(
      async () => {
        const [row] = await queryDatabase(
          `SELECT (SELECT status FROM simulations WHERE id = $2) AS simulation,
                  (SELECT count(*)::int FROM webhook_deliveries WHERE user_id = $1 AND status = 'succeeded') AS delivered`,
          [userId, simulationId],
        );
        return row.simulation === 'completed' && row.delivered === accepted.length + 1 ? true : undefined;
      },
      90_000,
      250,
    );
    const [events] = await queryDatabase(
      `SELECT count(*)::int AS n, count(DISTINCT inbound_event_id)::int AS distinct_events
         FROM evaluations WHERE user_id = $1 AND inbound_event_id IS NOT NULL`,
      [userId],
    );
    expect(events).toEqual({ n: accepted.length, distinct_events: accepted.length });
    const [judgedAccepted] = await queryDatabase(
      `SELECT count(*)::int AS n FROM evaluations WHERE inbound_event_id = ANY($1::uuid[])`,
      [accepted],
    );
    expect(judgedAccepted.n).toBe(accepted.length);
    const [simulation] = await queryDatabase(
      `SELECT count(*)::int AS n, count(DISTINCT dataset_ticket_id)::int AS tickets FROM evaluations WHERE simulation_id = $1`,
      [simulationId],
    );
    expect(simulation).toEqual({ n: TICKETS, tickets: TICKETS });
    const [deliveries] = await queryDatabase(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
              count(DISTINCT event_id)::int AS events, count(simulation_id)::int AS simulations
         FROM webhook_deliveries WHERE user_id = $1`,
      [userId],
    );
    expect(deliveries).toEqual({
      n: accepted.length + 1,
      succeeded: accepted.length + 1,
      events: accepted.length,
      simulations: 1,
    });
    // Let any straggling duplicate arrive before counting what the receiver saw.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const ids = new Set(accepted);
    const perEvent = new Map<string, Set<string>>();
    let calls = 0;
    for (const call of receiver.calls) {
      if (!ids.has(call.body.eventId)) continue;
      calls++;
      perEvent.set(
        call.body.eventId,
        (perEvent.get(call.body.eventId) ?? new Set()).add(call.body.deliveryId),
      );
    }
    expect(perEvent.size).toBe(accepted.length);
    // One delivery id per event, whatever happened; a worker killed mid-send may send it twice.
    expect([...perEvent.values()].every((deliveryIds) => deliveryIds.size === 1)).toBe(true);
    if (deliveredOnce) expect(calls).toBe(accepted.length);
    const completions = receiver.calls.filter((call) => call.body.simulation?.id === simulationId);
    expect(completions.map((call) => call.body.type)).toEqual(
      deliveredOnce ? ['simulation.completed'] : completions.map(() => 'simulation.completed'),
    );
  }

  it('Redis killed and restarted empty mid-run (during a simulation and an inbound burst)', async () => {
    gateway.set({ kind: 'answer', delayMs: 150 });
    await startWorkers(2);
    const workload = await startWorkload();
    await untilEvaluations(workload, 40);
    await redis.kill();
    // Accepted while Redis is down: Postgres has them, the sweeper queues them later.
    await workload.send(EVENTS / 4);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await redis.restart();
    await workload.send(EVENTS / 4);
    expect(workload.accepted).toHaveLength(EVENTS);
    await expectExactlyOnce(workload);
  }, 150_000);

  // It once found the shadow sampler's cursor passing inbound evaluations: their rows were stamped
  // with a time the worker took before its write waited for a connection (shadow-sampling.int-spec).
  it('Redis killed and restarted empty during a shadow run at rate 1 whose version alone meets a failing gateway', async () => {
    // The candidate draft adds a question, by which the fake knows its calls: half of them fail
    // with 503 (retried with backoff); the live version's calls all succeed.
    gateway.set({ kind: 'answer', delayMs: 150 });
    gateway.route((request) =>
      fromCandidate(request) ? { kind: 'flaky', failRate: 0.5, delayMs: 50, seed: 11 } : undefined,
    );
    await startWorkers(2);
    // The run starts before the first event: it samples only evaluations written after it began, and
    // a quick worker judged some of the first events before a run started after them.
    const started: Array<{ status: number; body: { id: string } }> = [];
    const workload = await startWorkload(async (keyed, packId) => {
      const candidate = { document: candidateDocument() };
      expect((await keyed.patch(`/api/packs/${packId}`, candidate)).status).toBe(200);
      started.push(await keyed.post(`/api/packs/${packId}/shadow-runs`, { sampleRate: 1 }));
    });
    const [run] = started;
    expect(run.status).toBe(201);
    await untilEvaluations(workload, 40);
    // Killed while more judgments are drawn than the workers' shadow slots can be running (2 × 2):
    // the rest wait in Redis (queued, or delayed by a retry's backoff), and are lost with it.
    const pendingAtKill = await eventually(async () => {
      const [row] = await queryDatabase(
        `SELECT count(*)::int AS n FROM shadow_judgments WHERE shadow_run_id = $1 AND state = 'pending'`,
        [run.body.id],
      );
      return row.n >= 10 ? row.n : undefined;
    }, 60_000);
    await redis.kill();
    await workload.send(EVENTS / 4);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await redis.restart();
    await workload.send(EVENTS / 4);
    expect(workload.accepted).toHaveLength(EVENTS);
    expect(pendingAtKill).toBeGreaterThanOrEqual(10);
    // Live work is exactly once, untouched by the shadow version's failures.
    await expectExactlyOnce(workload);
    const [unavailable] = await queryDatabase(
      `SELECT count(*)::int AS n FROM evaluations WHERE user_id = $1 AND result -> 'reviewReasons' ? 'gateway_unavailable'`,
      [workload.userId],
    );
    expect(unavailable.n).toBe(0);
    // Every inbound evaluation (the live traffic; the simulation's are not) is judged once in shadow.
    let lastReport: unknown;
    const report = await eventually(
      async () => {
        const res = await workload.keyed.get(`/api/shadow-runs/${run.body.id}`);
        lastReport = res.body;
        return res.body.report.judged === EVENTS && res.body.report.pending === 0
          ? res.body.report
          : undefined;
      },
      // Shadow judgments yield to live work and back off after the gateway's failures; on a loaded
      // machine (a fresh-clone CI run replaying the Dockerfile beside this drill) 90 s was not enough.
      180_000,
      250,
    ).catch(async (error: unknown) => {
      // Two fresh-clone runs ended here with no clue: say where the run and its judgments stood.
      const states = await queryDatabase(
        `SELECT state, count(*)::int AS n, min(sampled_at)::text AS oldest
           FROM shadow_judgments WHERE shadow_run_id = $1 GROUP BY state`,
        [run.body.id],
      );
      const sampled = workers
        .flatMap((worker) => worker.output().split('\n'))
        .filter((line) => line.includes('shadow'))
        .slice(-10);
      throw new Error(
        `${String(error)}; the run: ${JSON.stringify(lastReport)}; its judgments: ${JSON.stringify(states)}; ` +
          `the workers' last shadow lines: ${sampled.join(' | ')}`,
      );
    });
    expect(report.sampled).toBe(EVENTS);
    const [shadow] = await queryDatabase(
      `SELECT count(*)::int AS n, count(DISTINCT j.evaluation_id)::int AS distinct_evaluations,
              count(*) FILTER (WHERE e.inbound_event_id = ANY($2::uuid[]))::int AS inbound
         FROM shadow_judgments j JOIN evaluations e ON e.id = j.evaluation_id
        WHERE j.shadow_run_id = $1`,
      [run.body.id, workload.accepted],
    );
    expect(shadow).toEqual({ n: EVENTS, distinct_evaluations: EVENTS, inbound: EVENTS });
    // Failed shadow calls were tried again: about half of the first calls failed, but a judgment is
    // recorded as failed only when its four attempts all did (1 in 16).
    expect(report.failed).toBeLessThan(EVENTS / 4);
    // The judgments whose jobs Redis lost were enqueued again by the sampler from Postgres.
    const requeued = workers
      .flatMap((worker) => worker.output().split('\n'))
      .filter((line) => line.includes('shadow runs sampled'))
      .map((line) => (JSON.parse(line) as { requeued: number }).requeued);
    expect(Math.max(0, ...requeued)).toBeGreaterThan(0);
  }, 330_000);

  it('Postgres connections of the API and workers terminated mid-run, twice', async () => {
    gateway.set({ kind: 'answer', delayMs: 150 });
    await startWorkers(2);
    const workload = await startWorkload();
    for (const progress of [40, 100]) {
      await untilEvaluations(workload, progress);
      // Connections die while requests are in flight.
      const sending = workload.send(EVENTS / 4);
      const killed = await queryDatabase(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1`,
        [APP_NAME],
      );
      expect(killed.length).toBeGreaterThan(0);
      await sending;
    }
    // A request whose connection was cut is refused as unavailable, to be sent again; never a 500.
    expect(new Set(workload.refused)).toEqual(
      new Set(workload.refused.length ? ['503 {"error":"service unavailable"}'] : []),
    );
    expect(workload.accepted.length).toBeGreaterThan(EVENTS / 2);
    expectApiAlive();
    await expectExactlyOnce(workload);
    expectApiAlive();
  }, 150_000);

  it('a worker SIGKILLed twice mid-run, each time replaced', async () => {
    gateway.set({ kind: 'answer', delayMs: 150 });
    await startWorkers(2);
    const workload = await startWorkload();
    for (const progress of [40, 100]) {
      await untilEvaluations(workload, progress);
      await stopWorker(workers.shift()!, 'SIGKILL');
      await workload.send(EVENTS / 4);
      workers.push(await startWorker({ ...env, WORKER_NAME: `drill-replacement-${progress}` }));
    }
    expect(workload.accepted).toHaveLength(EVENTS);
    await expectExactlyOnce(workload, { deliveredOnce: false });
  }, 150_000);

  it('the model gateway failing 30% of calls', async () => {
    gateway.set({ kind: 'flaky', failRate: 0.3, delayMs: 50, seed: 7 });
    await startWorkers(2);
    const workload = await startWorkload();
    await workload.send(EVENTS / 2);
    expect(workload.accepted).toHaveLength(EVENTS);
    await expectExactlyOnce(workload);
    // Failed calls were tried again: about 30% of the first calls failed, but a ticket is recorded
    // as unavailable only when all six of its attempts failed (0.3^6 each, about one run in seven
    // sees one among these 200 jobs).
    const [unavailable] = await queryDatabase(
      `SELECT count(*)::int AS n FROM evaluations WHERE user_id = $1 AND result -> 'reviewReasons' ? 'gateway_unavailable'`,
      [workload.userId],
    );
    expect(unavailable.n).toBeLessThanOrEqual(2);
    expect(gateway.calls).toBeGreaterThan(TICKETS + EVENTS + 30);
  }, 150_000);
});

describe('graceful shutdown of the API', () => {
  it('on SIGTERM answers every request in flight, then exits with 0 and takes no more', async () => {
    const gateway = await startFakeGateway();
    const api = await startApiProcess({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: 'drill-drain' });
    try {
      const { keyed } = await newTenant(api.url);
      const pack = await createPublishedPack(keyed);
      gateway.set({ kind: 'answer', delayMs: 1500 });
      const inFlight = Array.from({ length: 8 }, () =>
        keyed.post('/api/judge', { packId: pack.id, ticket: TICKET }),
      );
      await eventually(async () => (gateway.calls >= 8 ? true : undefined), 10_000, 20);
      api.child.kill('SIGTERM');
      const answers = await Promise.all(inFlight);
      expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
      expect(new Set(answers.map((res) => res.body.evaluationId)).size).toBe(8);
      expect(await api.exited()).toEqual({ code: 0, signal: null });
      expect(api.output()).toMatch(/API stopping: finishing requests in flight[\s\S]*API stopped/);
      await expect(keyed.get('/api/packs')).rejects.toThrow();
    } finally {
      await stopWorker(api, 'SIGKILL');
      await gateway.close();
    }
  }, 60_000);
});
