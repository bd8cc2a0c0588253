// `npm run bench:scale`: inbound judging throughput with 1, 2 and 4 worker processes at a fixed
// gateway latency, and the Postgres writes each judgment costs, to say where one machine stops.
// See docs/performance.md.
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

interface ScaleResults extends Results<typeof settings> {
  runs: ScaleRun[];
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

/** Posts `events`; once each has a succeeded delivery, returns when the last one was recorded. */
async function burst(s: Scale, events: number, workers: Service[]): Promise<number> {
  let left = events;
  const body = { packId: s.tenant.packId, ticket: TICKET };
  const connection = async () => {
    for (; left > 0; left--) {
      const { status, text } = await s.tenant.client.post('/api/webhooks/inbound', body);
      if (status !== 202) throw new Error(`inbound answered ${status}: ${text}`);
    }
  };
  await Promise.all(Array.from({ length: POST_CONNECTIONS }, connection));
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

async function snapshot(s: Scale, workers: Service[]) {
  const backends = await Promise.all(['tj-api', 'tj-worker'].map((name) => s.probe.postgresPids(name)));
  const worker = workers.map((w) => w.pid);
  return s.probe.snapshot({ server: [s.api.pid], serverPostgres: backends.flat(), worker });
}

/** Fresh workers, a warm-up burst (V8 compiles the hot paths, pools open), then the timed burst. */
async function measure(s: Scale, workerCount: number, round: number): Promise<ScaleRun> {
  const env = { MIGRATE_ON_START: 'false', WORKER_CONCURRENCY: String(options.workerConcurrency) };
  const workers = await s.run.workers(workerCount, env);
  try {
    await burst(s, options.warmupEvents * workerCount, workers);
    const before = await snapshot(s, workers);
    const startedAt = Date.now();
    const ms = (await burst(s, options.events, workers)) - startedAt;
    const cpu = cpuBetween(before, await snapshot(s, workers));
    const rate = (options.events / (ms / 1000)).toFixed(0);
    log(
      `round ${round}, ${workerCount} worker(s): ${rate} events/s, machine ${(cpu.machineBusy * 100).toFixed(0)}% busy`,
    );
    return { workers: workerCount, ms, cpu };
  } finally {
    s.warnings += await stopWorkers(workers);
  }
}

const GROUPS = ['worker', 'server', 'serverPostgres'] as const;

/** Medians over the rounds of one worker count; CPU as ms an event and as cores: workers, API, Postgres, Redis. */
function summarize(r: ScaleResults, workers: number) {
  const mine = r.runs.filter((run) => run.workers === workers);
  const of = (pick: (run: ScaleRun) => number) => median(mine.map(pick));
  const events = r.settings.events;
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
  const rows = counts.map((workers) => summarize(r, workers));
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
  ].join('\n');
}

async function scaleBenchmark(run: BenchRun): Promise<void> {
  await run.gateway(options.gatewayDelayMs);
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
  for (let round = 1; round <= options.runs; round++) {
    // Worker counts take turns, one step later each round, to spread a noisy machine's drift.
    const order = workerCounts.map((_, i) => workerCounts[(i + round - 1) % workerCounts.length]);
    for (const workers of order) runs.push(await measure(s, workers, round));
  }
  log('waiting for Postgres to report its statistics');
  await sleep(STATS_SETTLE_MS);
  const writes = await postgres.writeCost(db, stats, run.databaseName, since, s.queries);
  const verification = await new Completions(db, receiver.url).verify(s.warnings);
  const v = verification;
  if (v.completions !== v.events || v.deliveriesSucceeded !== v.events || v.eventsNotJudgedOnce)
    throw new Error(`inconsistent run: ${verificationLine(v)}`);
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
    writes,
    capacity,
    verification,
  };
  publish<ScaleResults>(results, render, options.writeDocs);
}

runMain(() => BenchRun.with('scale', options, { snapshot: true }, scaleBenchmark));
