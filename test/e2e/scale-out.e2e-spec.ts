import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { Client, newTenant, PASSWORD, signUp, uniqueEmail, type TestResponse } from '../support/client.js';
import { queryDatabase } from '../support/db.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { openQueue, REDIS_URL } from '../support/queues.js';
import { expectDailyLimitRefusal } from '../support/rate-limit.js';
import { Receiver, verifies } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * Two API processes and two workers (the built apps, as deployed) on one Postgres and one Redis
 * namespace must behave as one service: every request below is split over both APIs and sent in
 * parallel, and the answers must be those a single process would give.
 */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-scaleout`;
const WORKER_NAMES = ['scaleout-worker-1', 'scaleout-worker-2'];

/** Starts processes together; those that came up are kept in `into` (for afterAll) even when another failed. */
async function startAll<T extends RunningProcess>(
  into: RunningProcess[],
  starts: Promise<T>[],
): Promise<T[]> {
  const results = await Promise.allSettled(starts);
  const up = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  into.push(...up);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
  return up;
}

/** SIGTERM to every process (API or worker), then waits for them to exit. */
async function stopAll(running: RunningProcess[]): Promise<void> {
  await Promise.all(running.map((child) => stopWorker(child)));
}

const keyedOn = (api: ApiProcess, secret: string) => new Client(api.url).withKey(secret);

/** Request i goes to A when i is even, to B when odd; all at once. */
function split<T>(count: number, send: (api: 'a' | 'b', i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => send(i % 2 === 0 ? 'a' : 'b', i)));
}

const statuses = (responses: TestResponse[]) => responses.map((res) => res.status).sort();

describe('rate limits across two API processes', () => {
  const LIMIT = 12;
  const running: RunningProcess[] = [];
  let a: ApiProcess | undefined;
  let b: ApiProcess | undefined;

  beforeAll(async () => {
    const env = { REDIS_PREFIX: PREFIX, API_RATE_LIMIT_PER_DAY: String(LIMIT) };
    [a, b] = await startAll(running, [startApiProcess(env), startApiProcess(env)]);
  }, 90_000);
  afterAll(async () => {
    await stopAll(running);
  });

  it('counts one key once across both: the remaining budget, then exactly the limit of 2 x limit parallel requests', async () => {
    const { key } = await newTenant(a!.url);
    const on = { a: keyedOn(a!, key.secret), b: keyedOn(b!, key.secret) };
    const first = await on.a.get('/api/packs');
    expect(first.headers.get('ratelimit-policy')).toBe(`"daily";q=${LIMIT};w=86400`);
    const remaining = [first];
    for (const api of ['b', 'a', 'b'] as const) remaining.push(await on[api].get('/api/packs'));
    expect(remaining.map((res) => /r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1])).toEqual(
      [1, 2, 3, 4].map((spent) => String(LIMIT - spent)),
    );

    const { key: fresh } = await newTenant(b!.url);
    const both = { a: keyedOn(a!, fresh.secret), b: keyedOn(b!, fresh.secret) };
    const responses = await split(LIMIT * 2, (api) => both[api].get('/api/packs'));
    expect(statuses(responses)).toEqual([...Array(LIMIT).fill(200), ...Array(LIMIT).fill(429)]);
    for (const limited of responses.filter((res) => res.status === 429)) expectDailyLimitRefusal(limited);
    expect((await both.a.get('/api/packs')).status).toBe(429);
    expect((await both.b.get('/api/packs')).status).toBe(429);
  });

  it('checks at most 10 passwords for one email however many sign-ins reach both APIs at once', async () => {
    const email = uniqueEmail('scaleout');
    await signUp(a!.url, email);
    const attempts = await split(40, (api, i) =>
      new Client((api === 'a' ? a : b)!.url).post('/api/auth/sign-in', {
        email,
        password: `parallel-${i}-guess`,
      }),
    );
    expect(statuses(attempts)).toEqual([...Array(10).fill(401), ...Array(30).fill(429)]);
    for (const res of attempts.filter((r) => r.status === 429))
      expect(res.body).toEqual({ error: 'rate limit exceeded' });
    for (const api of [a!, b!]) {
      const correct = await new Client(api.url).post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(correct.status).toBe(429);
      expect(Number(correct.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });
});

describe('two API processes and two workers as one service', () => {
  let gateway: FakeGateway;
  let receiver: Receiver;
  let moved: Receiver;
  const running: RunningProcess[] = [];
  let a: ApiProcess | undefined;
  let b: ApiProcess | undefined;
  let workers: RunningProcess[] = [];
  let redis: Redis;
  const queues: Queue[] = [];

  beforeAll(async () => {
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
    moved = await new Receiver().start();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, API_RATE_LIMIT_PER_DAY: '100000' };
    const started = await startAll<RunningProcess>(running, [
      startApiProcess(env),
      startApiProcess(env),
      ...WORKER_NAMES.map((name) => startWorker({ ...env, WORKER_NAME: name, WORKER_CONCURRENCY: '8' })),
    ]);
    [a, b] = started.slice(0, 2) as ApiProcess[];
    workers = started.slice(2);
    // Caches serve entries only once subscribed to invalidations: wait for all four processes.
    await eventually(async () => {
      const [, subscribers] = (await redis.pubsub('NUMSUB', `${PREFIX}:cache-invalidation`)) as [
        string,
        number,
      ];
      return subscribers >= 4 ? true : undefined;
    }, 10_000);
  }, 90_000);
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await Promise.all(queues.map((queue) => queue.close()));
    await stopAll(running);
    redis?.disconnect();
    await receiver?.close();
    await moved?.close();
    await gateway?.close();
  });

  /** A tenant whose key is usable on both APIs, with a published pack and a completion endpoint. */
  async function tenant(endpoint = receiver) {
    const { session, key, user } = await newTenant(a!.url);
    const on = { a: keyedOn(a!, key.secret), b: keyedOn(b!, key.secret) };
    const saved = await on.a.post('/api/webhook-endpoints', { url: endpoint.url });
    expect(saved.status).toBe(201);
    const pack = await createPublishedPack(on.b);
    return { session, key, user, on, pack, endpoint: saved.body as { url: string; secret: string } };
  }

  const callsFor = (target: Receiver, eventId: string) =>
    target.calls.filter((call) => call.body.eventId === eventId);

  function queue(name: string): Queue {
    const opened = openQueue(name, PREFIX);
    queues.push(opened);
    return opened;
  }

  /** Which workers ran the completed jobs `mine` selects (BullMQ's processedBy). */
  async function processedBy(name: string, mine: (data: Record<string, string>) => boolean) {
    const jobs = await queue(name).getJobs(['completed'], 0, -1);
    const ours = jobs.filter((job) => mine(job.data as Record<string, string>));
    return { count: ours.length, workers: new Set(ours.map((job) => job.processedBy)) };
  }

  async function evaluationCount(userId: string, source: string): Promise<number> {
    const [row] = await queryDatabase<{ n: number }>(
      `SELECT count(*)::int AS n FROM evaluations WHERE user_id = $1 AND source = $2`,
      [userId, source],
    );
    return row.n;
  }

  it('runs one evaluation for one Idempotency-Key sent to both APIs at the same moment', async () => {
    const { on, pack, user } = await tenant();
    gateway.set({ kind: 'answer', delayMs: 300 });
    const headers = { 'idempotency-key': 'order-4711' };
    const judged = await split(6, (api) =>
      on[api].post('/api/judge', { packId: pack.id, ticket: TICKET }, { headers }),
    );
    expect(judged.map((res) => res.status)).toEqual(Array(6).fill(200));
    expect(new Set(judged.map((res) => res.body.evaluationId as string)).size).toBe(1);
    expect(gateway.calls).toBe(1);
    expect(await evaluationCount(user.id, 'api')).toBe(1);

    // The inbound webhook keeps its own surface: the same key there is one event, judged once.
    const accepted = await split(6, (api) =>
      on[api].post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }, { headers }),
    );
    expect(accepted.map((res) => res.status)).toEqual(Array(6).fill(202));
    const eventIds = new Set(accepted.map((res) => res.body.eventId as string));
    expect(eventIds.size).toBe(1);
    const [eventId] = eventIds;
    await eventually(async () => (callsFor(receiver, eventId).length ? true : undefined));
    const [rows] = await queryDatabase(
      `SELECT (SELECT count(*)::int FROM inbound_events WHERE user_id = $1) AS events,
              (SELECT count(*)::int FROM evaluations WHERE user_id = $1 AND source = 'webhook') AS evaluations,
              (SELECT count(*)::int FROM webhook_deliveries WHERE user_id = $1) AS deliveries`,
      [user.id],
    );
    expect(rows).toEqual({ events: 1, evaluations: 1, deliveries: 1 });
    expect(callsFor(receiver, eventId)).toHaveLength(1);
  });

  it('a new pack version published on A is the one B judges with at once', async () => {
    const { on, pack } = await tenant();
    const before = await on.b.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(before.body.packVersionId).toBe(pack.liveVersionId);
    expect((await on.a.patch(`/api/packs/${pack.id}`, { name: 'Triage v2' })).status).toBe(200);
    const published = await on.a.post(`/api/packs/${pack.id}/publish`);
    expect(published.status).toBe(200);
    expect(published.body.liveVersionId).not.toBe(pack.liveVersionId);
    const after = await on.b.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(after.status).toBe(200);
    expect(after.body.packVersionId).toBe(published.body.liveVersionId);
  });

  it('a key revoked or rotated on A is refused by B at once', async () => {
    const { session, key, on } = await tenant();
    expect((await on.b.get('/api/packs')).status).toBe(200);
    const rotated = await session.post(`/app/keys/${key.id}/rotate`);
    expect(rotated.status).toBe(200);
    const old = await on.b.get('/api/packs');
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: 'invalid API key' });

    const current = keyedOn(b!, rotated.body.secret);
    expect((await current.get('/api/packs')).status).toBe(200);
    expect((await session.delete(`/app/keys/${key.id}`)).status).toBe(204);
    const revoked = await current.get('/api/packs');
    expect(revoked.status).toBe(401);
    expect(revoked.body).toEqual({ error: 'invalid API key' });
  });

  it('a completion endpoint moved on A receives the completion of an event sent to B right after', async () => {
    const { on, pack } = await tenant();
    const first = await on.b.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(first.status).toBe(202);
    await eventually(async () => (callsFor(receiver, first.body.eventId).length ? true : undefined));

    const saved = await on.a.post('/api/webhook-endpoints', { url: moved.url });
    expect(saved.status).toBe(201);
    const next = await on.b.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(next.status).toBe(202);
    const [call] = await eventually(async () => {
      const calls = callsFor(moved, next.body.eventId);
      return calls.length ? calls : undefined;
    });
    expect(verifies(saved.body.secret, call.raw, call.headers['x-service-signature'])).toBe(true);
    expect(callsFor(receiver, next.body.eventId)).toHaveLength(0);
  });

  it('judges and delivers a burst of inbound events sent to both APIs exactly once, shared by both workers', async () => {
    const BURST = 120;
    const { on, pack, user } = await tenant();
    gateway.set({ kind: 'answer', delayMs: 50 });
    const accepted = await split(BURST, (api, i) =>
      on[api].post('/api/webhooks/inbound', {
        packId: pack.id,
        ticket: { ...TICKET, externalId: `SO-${i}` },
      }),
    );
    expect(accepted.every((res) => res.status === 202)).toBe(true);
    const ids = new Set(accepted.map((res) => res.body.eventId as string));
    expect(ids.size).toBe(BURST);
    await eventually(async () => {
      const [row] = await queryDatabase<{ n: number }>(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1 AND status = 'succeeded'`,
        [user.id],
      );
      return row.n === BURST ? true : undefined;
    }, 60_000);
    const [evaluations] = await queryDatabase(
      `SELECT count(*)::int AS n, count(DISTINCT inbound_event_id)::int AS events FROM evaluations WHERE user_id = $1`,
      [user.id],
    );
    expect(evaluations).toEqual({ n: BURST, events: BURST });
    const [deliveries] = await queryDatabase(
      `SELECT count(*)::int AS n, count(DISTINCT event_id)::int AS events FROM webhook_deliveries WHERE user_id = $1`,
      [user.id],
    );
    expect(deliveries).toEqual({ n: BURST, events: BURST });
    const perEvent = [...ids].map((id) => callsFor(receiver, id).length);
    expect(perEvent).toEqual(Array(BURST).fill(1));

    const judgedBy = await processedBy('webhooks', (data) => ids.has(data.eventId));
    expect(judgedBy.count).toBe(BURST);
    expect(judgedBy.workers).toEqual(new Set(WORKER_NAMES));
  }, 90_000);

  it('runs a simulation of 100 tickets on both workers with exactly one evaluation per ticket', async () => {
    const TICKETS = 100;
    const { on, pack } = await tenant();
    const dataset = await on.a.post('/api/datasets', { name: 'scale-out' });
    expect(dataset.status).toBe(201);
    const tickets = Array.from({ length: TICKETS }, (_, i) => ({ ...TICKET, externalId: `SIM-${i}` }));
    expect((await on.b.post(`/api/datasets/${dataset.body.id}/tickets`, { tickets })).status).toBe(200);
    gateway.set({ kind: 'answer', delayMs: 50 });
    const started = await on.a.post('/api/simulations', { datasetId: dataset.body.id, packId: pack.id });
    expect(started.status).toBe(202);
    const simulationId = started.body.id as string;
    const done = await eventually(async () => {
      const res = await on.b.get(`/api/simulations/${simulationId}`);
      return ['completed', 'failed'].includes(res.body.status) ? res.body : undefined;
    }, 60_000);
    expect(done).toMatchObject({ status: 'completed', total: TICKETS, completed: TICKETS });
    const [evaluations] = await queryDatabase(
      `SELECT count(*)::int AS n, count(DISTINCT dataset_ticket_id)::int AS tickets FROM evaluations WHERE simulation_id = $1`,
      [simulationId],
    );
    expect(evaluations).toEqual({ n: TICKETS, tickets: TICKETS });

    const ranBy = await processedBy(
      'simulations',
      (data) => data.simulationId === simulationId && data.ticketId !== undefined,
    );
    expect(ranBy.count).toBe(TICKETS);
    expect(ranBy.workers).toEqual(new Set(WORKER_NAMES));
    // One of the workers started it and one finished it, each once.
    const logged = (msg: string) =>
      workers.flatMap((worker) =>
        worker
          .output()
          .split('\n')
          .filter((line) => line.includes(simulationId) && line.includes(`"msg":"${msg}"`)),
      );
    await eventually(async () => (logged('simulation finished').length ? true : undefined), 5_000);
    expect(logged('simulation started')).toHaveLength(1);
    expect(logged('simulation finished')).toHaveLength(1);
  }, 90_000);
});
