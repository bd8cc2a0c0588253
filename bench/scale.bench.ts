// `npm run bench:scale`: inbound judging throughput with 1, 2 and 4 worker processes at a fixed
// gateway latency, and the Postgres writes each judgment costs, to say where one machine stops.
// See docs/performance.md.
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { TICKET } from '../test/support/packs.js';
import { Completions, saveEndpoint, verificationLine, type Verification } from './harness/completions.js';
import { median } from './harness/load.js';
import { log, runMain, sleep } from './harness/log.js';
import { num, nums, readOptions, settingsOf } from './harness/options.js';
import { cpuBetween, otherCores, type CpuWindow, type Probe } from './harness/probes.js';
import type { Service } from './harness/processes.js';
import { fixed, publish, runHeading, table, type Results } from './harness/report.js';
import { BenchRun, createTenant, stopWorkers, type Tenant } from './harness/run.js';
import type { ReceiverStats } from './harness/serve-receiver.js';
import * as postgres from './scale.postgres.js';

/** Postgres 15 reports an idle backend's statistics up to 10 s late. */
const STATS_SETTLE_MS = 11_000;
const POST_CONNECTIONS = 32;
const options = readOptions({
  workers: nums(1, 2, 4),
  runs: num(3),
  events: num(1600),
  warmupEvents: num(150),
  gatewayDelayMs: num(50),
  workerConcurrency: num(8),
  pgbenchSeconds: num(10),
  /** 0 leaves out the floor: the same bursts through a bare route and bare workers (`scale.floor-worker.ts`). */
  floor: num(1),
});
const settings = settingsOf(options);
const workerCounts = [...options.workers].sort((a, b) => a - b);

/** One timed burst, from its first POST to the last succeeded delivery Postgres recorded. */
interface ScaleRun {
  workers: number;
  ms: number;
  /** server: the API; serverPostgres: the API's and the workers' backends; worker: the worker processes. */
  cpu: CpuWindow;
}

/** The floor's runs and what they cost Postgres: write transactions and WAL over all its events. */
interface FloorResults {
  runs: ScaleRun[];
  events: number;
  writeTransactions: number;
  walBytes: number;
  otherCommits: number;
  verification: { completions: number; duplicates: number; badSignatures: number };
}

interface ScaleResults extends Results<typeof settings> {
  runs: ScaleRun[];
  floor: FloorResults | null;
  writes: postgres.WriteCost;
  capacity: postgres.Capacity | null;
  verification: Verification;
}

interface Scale {
  run: BenchRun;
  api: Service;
  tenant: Tenant;
  probe: Probe;
  /** On the scratch database; its queries are counted and taken out of the commits. */
  db: pg.Client;
  queries: number;
  /** Worker log lines at warn or above. */
  warnings: number;
}

async function count(s: Scale, sql: string): Promise<{ n: number; last: Date | null }> {
  s.queries++;
  return (await s.db.query<{ n: number; last: Date | null }>(sql)).rows[0];
}

/**
 * Sends `events` requests, `POST_CONNECTIONS` at a time. Each connection counts its request off
 * before sending it, so exactly `events` go out (counting after the answer sent one more per
 * connection still waiting at the end: 31 more a burst, which the rates and CPU an event of runs
 * before 2026-11-30 15:49 UTC left out).
 */
async function sendEvents(events: number, send: () => Promise<void>): Promise<void> {
  let left = events;
  const connection = async () => {
    while (left > 0) {
      left--;
      await send();
    }
  };
  await Promise.all(Array.from({ length: POST_CONNECTIONS }, connection));
}

/** Posts `events`; once each has a succeeded delivery, returns when the last one was recorded. */
async function burst(s: Scale, events: number, workers: Service[]): Promise<number> {
  const body = { packId: s.tenant.packId, ticket: TICKET };
  await sendEvents(events, async () => {
    const { status, text } = await s.tenant.client.post('/api/webhooks/inbound', body);
    if (status !== 202) throw new Error(`inbound answered ${status}: ${text}`);
  });
  const expected = (await count(s, 'SELECT count(*)::float8 AS n FROM inbound_events')).n;
  const deadline = Date.now() + 120_000 + events * 50;
  for (;;) {
    const done = await count(
      s,
      `SELECT count(*)::float8 AS n, max(updated_at) AS last FROM webhook_deliveries WHERE status = 'succeeded'`,
    );
    if (done.n === expected) return done.last!.getTime();
    if (workers.some((worker) => worker.died)) throw new Error('a worker died');
    if (Date.now() > deadline) throw new Error(`only ${done.n} of ${expected} deliveries succeeded in time`);
    await sleep(200);
  }
}

/** The Postgres connections' names of the service's processes and of the floor's. */
const SERVICE_APPS = ['tj-api', 'tj-worker'];
const FLOOR_APPS = ['tj-floor-api', 'tj-floor-worker'];

async function snapshot(s: Scale, server: Service, workers: Service[], apps = SERVICE_APPS) {
  const backends = await Promise.all(apps.map((name) => s.probe.postgresPids(name)));
  const worker = workers.map((w) => w.pid);
  return s.probe.snapshot({ server: [server.pid], serverPostgres: backends.flat(), worker });
}

/** Fresh workers, a warm-up burst (V8 compiles the hot paths, pools open), then the timed burst. */
async function measure(s: Scale, workerCount: number, round: number): Promise<ScaleRun> {
  const env = { MIGRATE_ON_START: 'false', WORKER_CONCURRENCY: String(options.workerConcurrency) };
  const workers = await s.run.workers(workerCount, env);
  try {
    await burst(s, options.warmupEvents * workerCount, workers);
    const before = await snapshot(s, s.api, workers);
    const startedAt = Date.now();
    const ms = (await burst(s, options.events, workers)) - startedAt;
    const cpu = cpuBetween(before, await snapshot(s, s.api, workers));
    const rate = (options.events / (ms / 1000)).toFixed(0);
    log(
      `round ${round}, ${workerCount} worker(s): ${rate} events/s, machine ${(cpu.machineBusy * 100).toFixed(0)}% busy`,
    );
    return { workers: workerCount, ms, cpu };
  } finally {
    s.warnings += await stopWorkers(workers);
  }
}

/** The floor's bare route (`inbound.bare.js`), its workers' settings, its own receiver and its runs so far. */
interface Floor {
  route: Service;
  receiver: Service;
  workerEnv: NodeJS.ProcessEnv;
  runs: ScaleRun[];
  /** Whole-server write transactions, WAL and other databases' commits over the floor's runs. */
  writeTransactions: number;
  walBytes: number;
  otherCommits: number;
}

/**
 * The floor: the same bursts and worker counts through a bare insert-and-enqueue route and bare
 * workers that do one job an event (read, model call, the product's evaluation INSERT, signed POST,
 * delivery recorded), with the chat request the service's worker sent. Started once the service's
 * first runs have sent one and their writes are read: the floor's own writes would count in them.
 */
async function startFloor(s: Scale, gateway: Service): Promise<Floor> {
  await s.db.query(
    `CREATE TABLE bench_bare (id uuid PRIMARY KEY, body jsonb NOT NULL,
       created_at timestamptz NOT NULL DEFAULT now(), delivered_at timestamptz)`,
  );
  const chatRequest = await gateway.ask('last-request');
  if (typeof chatRequest !== 'string' || chatRequest === 'null')
    throw new Error('the gateway saw no request');
  const receiver = await s.run.receiver();
  const secret = randomBytes(32).toString('hex');
  const response = await fetch(`${receiver.url}/secret`, { method: 'PUT', body: secret });
  if (response.status !== 204) throw new Error('the floor receiver did not take the secret');
  const route = await s.run.serve('floor route', 'inbound.bare.js', s.run.appEnv(FLOOR_APPS[0]));
  const workerEnv = s.run.appEnv(FLOOR_APPS[1], {
    WORKER_CONCURRENCY: String(options.workerConcurrency),
    BENCH_CHAT_REQUEST: chatRequest,
    BENCH_PACK_ID: s.tenant.packId,
    BENCH_RECEIVER_URL: receiver.url,
    BENCH_RECEIVER_SECRET: secret,
  });
  return { route, receiver, workerEnv, runs: [], writeTransactions: 0, walBytes: 0, otherCommits: 0 };
}

/** Posts `events` to the bare route; once each is delivered, returns when the last one was recorded. */
async function floorBurst(s: Scale, floor: Floor, events: number, workers: Service[]): Promise<number> {
  const body = JSON.stringify({ packId: s.tenant.packId, ticket: TICKET });
  await sendEvents(events, async () => {
    const response = await fetch(`${floor.route.url}/bare`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const text = await response.text();
    if (response.status !== 202) throw new Error(`the bare route answered ${response.status}: ${text}`);
  });
  const deadline = Date.now() + 120_000 + events * 50;
  for (;;) {
    const waiting = await count(
      s,
      'SELECT count(*) FILTER (WHERE delivered_at IS NULL)::float8 AS n, max(delivered_at) AS last FROM bench_bare',
    );
    if (waiting.n === 0) return waiting.last!.getTime();
    if (workers.some((worker) => worker.died)) throw new Error('a floor worker died');
    if (Date.now() > deadline) throw new Error(`${waiting.n} floor events still undelivered`);
    await sleep(200);
  }
}

/**
 * As `measure`, through the floor with `workerCount` bare workers. Nothing else writes meanwhile, so
 * the whole server's transaction ids and WAL between its start and end are the floor's.
 */
async function measureFloor(s: Scale, floor: Floor, workerCount: number, round: number): Promise<void> {
  const since = await postgres.serverCounters(s.probe.stats, s.run.databaseName);
  const started = await Promise.allSettled(
    Array.from({ length: workerCount }, (_, i) =>
      s.run.serve(`floor worker ${i + 1}/${workerCount}`, 'scale.floor-worker.js', floor.workerEnv),
    ),
  );
  const workers = started.flatMap((w) => (w.status === 'fulfilled' ? [w.value] : []));
  try {
    const failed = started.find((w) => w.status === 'rejected');
    if (failed) throw failed.reason;
    await floorBurst(s, floor, options.warmupEvents * workerCount, workers);
    const before = await snapshot(s, floor.route, workers, FLOOR_APPS);
    const startedAt = Date.now();
    const ms = (await floorBurst(s, floor, options.events, workers)) - startedAt;
    const cpu = cpuBetween(before, await snapshot(s, floor.route, workers, FLOOR_APPS));
    log(
      `floor, round ${round}, ${workerCount} worker(s): ${(options.events / (ms / 1000)).toFixed(0)} events/s`,
    );
    floor.runs.push({ workers: workerCount, ms, cpu });
  } finally {
    await Promise.allSettled(workers.map((worker) => worker.stop()));
  }
  const now = await postgres.serverCounters(s.probe.stats, s.run.databaseName);
  floor.writeTransactions += now.xid - since.xid;
  floor.walBytes += now.wal - since.wal;
  floor.otherCommits += postgres.otherCommits(since, now);
}

/** The floor's runs and writes; throws unless its receiver got every event once, signed. */
async function floorResults(s: Scale, floor: Floor): Promise<FloorResults> {
  const events = (await count(s, 'SELECT count(*)::float8 AS n, NULL::timestamptz AS last FROM bench_bare'))
    .n;
  const stats = (await (await fetch(`${floor.receiver.url}/stats`)).json()) as ReceiverStats;
  if (stats.events !== events || stats.duplicates || stats.badSignatures)
    throw new Error(`inconsistent floor: ${events} events, receiver ${JSON.stringify(stats)}`);
  const { runs, writeTransactions, walBytes, otherCommits } = floor;
  const verification = {
    completions: stats.events,
    duplicates: stats.duplicates,
    badSignatures: stats.badSignatures,
  };
  return { runs, events, writeTransactions, walBytes, otherCommits, verification };
}

const GROUPS = ['worker', 'server', 'serverPostgres'] as const;

/** Medians over the rounds of one worker count; CPU as ms an event and as cores: workers, API, Postgres, Redis. */
function summarize(runs: ScaleRun[], events: number, workers: number) {
  const mine = runs.filter((run) => run.workers === workers);
  const of = (pick: (run: ScaleRun) => number) => median(mine.map(pick));
  const rates = mine.map((run) => events / (run.ms / 1000));
  const cpuOf = (run: ScaleRun) => [...GROUPS.map((group) => run.cpu.groups[group]), run.cpu.redis];
  const msPerEvent = [0, 1, 2, 3].map((i) => of((run) => cpuOf(run)[i] / events));
  return {
    workers,
    rates,
    rate: median(rates),
    msPerEvent,
    totalMs: msPerEvent.reduce((sum, ms) => sum + ms, 0),
    cores: [0, 1, 2, 3].map((i) => of((run) => cpuOf(run)[i] / run.cpu.wallMs)),
    busy: of((run) => run.cpu.machineBusy),
    other: of((run) => otherCores(run.cpu)),
  };
}

function render(r: ScaleResults): string {
  const { gatewayDelayMs, workerConcurrency, events, warmupEvents, runs } = r.settings;
  const perWorker = workerConcurrency / (gatewayDelayMs / 1000);
  const counts = [...new Set(r.runs.map((run) => run.workers))].sort((a, b) => a - b);
  const rows = counts.map((workers) => summarize(r.runs, events, workers));
  const top = rows[rows.length - 1];
  const [f0, f2] = [fixed(0), fixed(2)];
  return [
    runHeading(
      r,
      `gateway delay ${gatewayDelayMs} ms a call, \`WORKER_CONCURRENCY=${workerConcurrency}\` per worker, bursts ` +
        `of ${events} events after ${warmupEvents} warm-up events a worker, ${runs} rounds; medians over the rounds`,
    ),
    '',
    table(
      [
        'Workers',
        'Events/s (each run)',
        'x 1 worker',
        'Latency bound',
        'Cores: workers / API / Postgres / Redis',
        'CPU ms an event (same order)',
        'Machine busy (other cores)',
      ],
      rows.map((s) => [
        String(s.workers),
        `**${f0(s.rate)}** (${s.rates.map(f0).join(', ')})`,
        f2(s.rate / rows[0].rate),
        f0(perWorker * s.workers),
        s.cores.map(f2).join(' / '),
        `${f2(s.totalMs)} (${s.msPerEvent.map(f2).join(' + ')})`,
        `${f0(s.busy * 100)}% (${f2(s.other)})`,
      ]),
    ),
    '',
    `At ${top.workers} workers an event cost ${f2(top.totalMs)} ms of CPU in the workers, the API, Postgres's ` +
      `backends and Redis: ${r.machine.cpus} cores give at most **${f0((r.machine.cpus * 1000) / top.totalMs)} events/s**.`,
    '',
    postgres.postgresTable(r.writes, r.capacity, r.machine.cpus, top.msPerEvent[2]),
    '',
    verificationLine(r.verification),
    ...(r.floor ? ['', renderFloor(r, r.floor, rows)] : []),
  ].join('\n');
}

/** The floor beside the service, worker count by worker count. */
function renderFloor(
  r: ScaleResults,
  floor: FloorResults,
  service: Array<ReturnType<typeof summarize>>,
): string {
  const { events } = r.settings;
  const rows = service.map((own) => ({ own, floor: summarize(floor.runs, events, own.workers) }));
  const top = rows[rows.length - 1];
  const [f0, f2] = [fixed(0), fixed(2)];
  const v = floor.verification;
  return [
    'The floor: the same bursts through a bare insert-and-enqueue route (`bench/inbound.bare.ts`) and bare workers ' +
      '(`bench/scale.floor-worker.ts`: one job an event that reads it, makes the same model call, inserts the ' +
      "evaluation with the product's INSERT, posts the signed completion and records it), each run beside the " +
      "service's with the same worker count:",
    '',
    table(
      [
        'Workers',
        'Floor events/s (each run)',
        'Cores: workers / route / Postgres / Redis',
        'Floor CPU ms an event (same order)',
        "Service's CPU ms an event",
        'Service / floor',
        'Machine busy (other cores)',
      ],
      rows.map(({ own, floor: f }) => [
        String(f.workers),
        `**${f0(f.rate)}** (${f.rates.map(f0).join(', ')})`,
        f.cores.map(f2).join(' / '),
        `**${f2(f.totalMs)}** (${f.msPerEvent.map(f2).join(' + ')})`,
        f2(own.totalMs),
        f2(own.totalMs / f.totalMs),
        `${f0(f.busy * 100)}% (${f2(f.other)})`,
      ]),
    ),
    '',
    `At ${top.floor.workers} workers the floor cost ${f2(top.floor.totalMs)} ms of CPU an event, the service ` +
      `${f2(top.own.totalMs)} (${f2(top.own.totalMs / top.floor.totalMs)}x). Over its ${floor.events} events ` +
      `(warm-ups included) the floor wrote ${f2(floor.writeTransactions / floor.events)} transactions and ` +
      `${(floor.walBytes / floor.events / 1024).toFixed(1)} kB of WAL an event (whole server; ${floor.otherCommits} ` +
      `commits in other databases meanwhile). Its receiver got ${v.completions} completions of ${floor.events} ` +
      `events (${v.duplicates} duplicates, ${v.badSignatures} bad signatures).`,
  ].join('\n');
}

async function scaleBenchmark(run: BenchRun): Promise<void> {
  const gateway = await run.gateway(options.gatewayDelayMs);
  const receiver = await run.receiver();
  const api = await run.api();
  const [probe, db] = [await run.probe(), await run.postgres()];
  const stats = probe.stats;
  const tenant = await createTenant(api.url);
  await saveEndpoint(tenant.client, receiver.url);
  const s: Scale = { run, api, tenant, probe, db, queries: 0, warnings: 0 };
  log(`gateway ${options.gatewayDelayMs} ms a call, API ${api.url}, database ${run.databaseName}`);
  // The set-up's statistics settle, then the scratch database's counters start from zero.
  await sleep(STATS_SETTLE_MS);
  await count(s, 'SELECT 0::float8 AS n, pg_stat_reset()');
  const since = await postgres.serverCounters(stats, run.databaseName);
  const runs: ScaleRun[] = [];
  let writes: postgres.WriteCost | null = null;
  let floor: Floor | null = null;
  for (let round = 1; round <= options.runs; round++) {
    // Worker counts take turns, one step later each round, to spread a noisy machine's drift.
    const order = workerCounts.map((_, i) => workerCounts[(i + round - 1) % workerCounts.length]);
    for (const workers of order) {
      runs.push(await measure(s, workers, round));
      // Side by side from the second round on: the floor right after the service, same worker count.
      if (floor) await measureFloor(s, floor, workers, round);
    }
    if (round > 1) continue;
    // The writes an event are the first round's (warm-ups included), read before the floor adds its own.
    log('waiting for Postgres to report its statistics');
    await sleep(STATS_SETTLE_MS);
    writes = await postgres.writeCost(db, stats, run.databaseName, since, s.queries);
    if (!options.floor) continue;
    floor = await startFloor(s, gateway);
    for (const workers of order) await measureFloor(s, floor, workers, round);
  }
  const verification = await new Completions(db, receiver.url).verify(s.warnings);
  const v = verification;
  if (v.completions !== v.events || v.deliveriesSucceeded !== v.events || v.eventsNotJudgedOnce)
    throw new Error(`inconsistent run: ${verificationLine(v)}`);
  const floorOutcome = floor ? await floorResults(s, floor) : null;
  log(`capacity run: pgbench simple-update for ${options.pgbenchSeconds} s`);
  const capacity = await postgres
    .pgbenchCapacity(stats, run.databaseUrl, run.databaseName, {
      clients: 16,
      seconds: options.pgbenchSeconds,
    })
    .catch((error: unknown) => {
      log(`no capacity run, pgbench failed: ${String(error)}`);
      return null;
    });
  const at = new Date().toISOString();
  const results = {
    benchmark: 'scale',
    at,
    machine: run.machine,
    settings,
    runs,
    floor: floorOutcome,
    writes: writes!,
    capacity,
    verification,
  };
  publish<ScaleResults>(results, render, options.writeDocs);
}

runMain(() => BenchRun.with('scale', options, { snapshot: true }, scaleBenchmark));
