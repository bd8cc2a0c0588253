// `npm run bench:scale`: inbound judging throughput with 1, 2 and 4 worker processes at a fixed
// gateway latency, and the Postgres writes each judgment costs, to say where one machine stops.
// See docs/performance.md.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { BenchChild } from './child-process.js';
import { snapshotDist } from './dist-snapshot.js';
import { writeNamedSection } from './docs-section.js';
import { cpuBetween, Probe } from './inbound-probe.js';
import { otherCores, verificationLine, type CpuWindow, type Machine } from './inbound-report.js';
import * as setup from './inbound-setup.js';
import { median } from './load.js';
import * as postgres from './postgres-writes.js';
import * as stores from './scratch-stores.js';
import { createTenant, TICKET } from './tenant.js';
import { WorkerProcess } from './worker-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const APP = { api: 'tj-api', worker: 'tj-worker' } as const;
/** Postgres 15 reports an idle backend's statistics up to 10 s late. */
const STATS_SETTLE_MS = 11_000;
const POST_CONNECTIONS = 32;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

function setting(name: string, fallback: string): number[] {
  const values = (process.env[name] || fallback).split(',').map(Number);
  if (values.some((v) => !Number.isInteger(v) || v <= 0)) throw new Error(`${name}: positive integers`);
  return values;
}

const options = {
  workers: setting('BENCH_WORKERS', '1,2,4').sort((a, b) => a - b),
  rounds: setting('BENCH_RUNS', '3')[0],
  events: setting('BENCH_EVENTS', '1600')[0],
  warmupPerWorker: setting('BENCH_WARMUP_EVENTS', '150')[0],
  gatewayDelayMs: setting('BENCH_GATEWAY_DELAY_MS', '50')[0],
  concurrency: setting('BENCH_WORKER_CONCURRENCY', '8')[0],
  pgbench: { clients: 16, seconds: setting('BENCH_PGBENCH_SECONDS', '10')[0] },
  databaseUrl: process.env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
  redisUrl: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  writeDocs: process.env.BENCH_WRITE_DOCS !== '0',
};

/** One timed burst, from its first POST to the last succeeded delivery Postgres recorded. */
interface ScaleRun {
  workers: number;
  ms: number;
  /** server: the API; serverPostgres: the API's and the workers' backends; worker: the worker processes. */
  cpu: CpuWindow;
}

interface Bench {
  apiPid: number;
  /** On the maintenance database, so the probe's reads add no commits to the scratch one. */
  stats: pg.Client;
  probe: Probe;
  /** On the scratch database; its queries are counted and taken out of the commits. */
  db: pg.Client;
  queries: number;
  inbound: { url: string; headers: Record<string, string>; body: unknown };
  /** The worker app in the run's private copy of dist/, which others' rebuilds leave alone. */
  worker: { script: string; env: NodeJS.ProcessEnv };
  live: Set<WorkerProcess>;
  warnings: number;
}

async function count(bench: Bench, sql: string): Promise<{ n: number; last: Date | null }> {
  bench.queries++;
  return (await bench.db.query<{ n: number; last: Date | null }>(sql)).rows[0];
}

/** Posts `events`; once each has a succeeded delivery, returns when the last one was recorded. */
async function burst(bench: Bench, events: number, workers: WorkerProcess[]): Promise<number> {
  let left = events;
  const connection = async () => {
    for (; left > 0; left--) {
      const { status, body } = await setup.post(bench.inbound.url, bench.inbound.headers, bench.inbound.body);
      if (status !== 202) throw new Error(`inbound answered ${status}: ${JSON.stringify(body)}`);
    }
  };
  await Promise.all(Array.from({ length: POST_CONNECTIONS }, connection));
  const expected = (await count(bench, 'SELECT count(*)::float8 AS n FROM inbound_events')).n;
  const deadline = Date.now() + 120_000 + events * 50;
  for (;;) {
    const done = await count(
      bench,
      `SELECT count(*)::float8 AS n, max(updated_at) AS last FROM webhook_deliveries WHERE status = 'succeeded'`,
    );
    if (done.n === expected) return done.last!.getTime();
    if (workers.some((worker) => worker.died)) throw new Error('a worker died');
    if (Date.now() > deadline) throw new Error(`only ${done.n} of ${expected} deliveries succeeded in time`);
    await sleep(200);
  }
}

async function cpuSnapshot(bench: Bench, workers: WorkerProcess[]) {
  const backends = await Promise.all([APP.api, APP.worker].map((name) => bench.probe.postgresPids(name)));
  const worker = workers.map((w) => w.pid!);
  return bench.probe.snapshot({ server: bench.apiPid, serverPostgres: backends.flat(), worker });
}

/** Fresh workers, a warm-up burst (V8 compiles the hot paths, pools open), then the timed burst. */
async function measure(bench: Bench, workerCount: number, round: number): Promise<ScaleRun> {
  const starting = await Promise.allSettled(
    Array.from({ length: workerCount }, (_, i) =>
      WorkerProcess.start(`worker ${i + 1}`, bench.worker.script, bench.worker.env),
    ),
  );
  const workers = starting.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  workers.forEach((worker) => bench.live.add(worker));
  try {
    const failed = starting.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    await burst(bench, options.warmupPerWorker * workerCount, workers);
    const before = await cpuSnapshot(bench, workers);
    const startedAt = Date.now();
    const ms = (await burst(bench, options.events, workers)) - startedAt;
    const cpu = cpuBetween(before, await cpuSnapshot(bench, workers));
    const rate = (options.events / (ms / 1000)).toFixed(0);
    log(
      `round ${round}, ${workerCount} worker(s): ${rate} events/s, machine ${(cpu.machineBusy * 100).toFixed(0)}% busy`,
    );
    return { workers: workerCount, ms, cpu };
  } finally {
    await Promise.allSettled(workers.map((worker) => worker.stop()));
    for (const worker of workers) {
      bench.live.delete(worker);
      const warnings = worker.lines.filter((line) => line.level >= 40);
      warnings.forEach((line) => log(`${worker.name} of ${workerCount}, round ${round}: ${line.raw}`));
      bench.warnings += warnings.length;
    }
  }
}

const GROUPS = ['worker', 'server', 'serverPostgres', 'redis'] as const;

/** Medians over the rounds of one worker count; CPU as ms an event and as cores, in GROUPS' order. */
function summarize(runs: ScaleRun[], workers: number) {
  const mine = runs.filter((run) => run.workers === workers);
  const of = (pick: (run: ScaleRun) => number) => median(mine.map(pick));
  const rates = mine.map((run) => options.events / (run.ms / 1000));
  const msPerEvent = GROUPS.map((group) => of((run) => run.cpu[group] / options.events));
  return {
    workers,
    rates,
    rate: median(rates),
    msPerEvent,
    totalMs: msPerEvent.reduce((sum, ms) => sum + ms, 0),
    cores: GROUPS.map((group) => of((run) => run.cpu[group] / run.cpu.wallMs)),
    busy: of((run) => run.cpu.machineBusy),
    other: of((run) => otherCores(run.cpu)),
  };
}

function section(machine: Machine, runs: ScaleRun[], postgresLines: (cpuMsPerEvent: number) => string[]) {
  const { gatewayDelayMs, concurrency, events, warmupPerWorker, rounds } = options;
  const perWorker = concurrency / (gatewayDelayMs / 1000);
  const rows = options.workers.map((workers) => summarize(runs, workers));
  const top = rows[rows.length - 1];
  const [f0, f2] = [(v: number) => v.toFixed(0), (v: number) => v.toFixed(2)];
  const header = ['Workers', 'Events/s (each run)', 'x 1 worker', 'Latency bound'];
  header.push(
    'Cores: workers / API / Postgres / Redis',
    'CPU ms an event (same order)',
    'Machine busy (other cores)',
  );
  const table = rows.map((s) => [
    String(s.workers),
    `**${f0(s.rate)}** (${s.rates.map(f0).join(', ')})`,
    f2(s.rate / rows[0].rate),
    f0(perWorker * s.workers),
    s.cores.map(f2).join(' / '),
    `${f2(s.totalMs)} (${s.msPerEvent.map(f2).join(' + ')})`,
    `${f0(s.busy * 100)}% (${f2(s.other)})`,
  ]);
  return [
    `### Latest run (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `Machine: ${machine.cpus} CPUs (\`nproc\`), ${machine.cpuModel}, Node.js ${machine.node}, PostgreSQL ` +
      `${machine.postgres}; load average before the run ${machine.loadAverage}.`,
    `Settings: gateway delay ${gatewayDelayMs} ms a call, \`WORKER_CONCURRENCY=${concurrency}\` per worker, bursts ` +
      `of ${events} events after ${warmupPerWorker} warm-up events a worker, ${rounds} rounds; medians over the rounds.`,
    '',
    ...[header, header.map(() => '-'), ...table].map((cells) => `| ${cells.join(' | ')} |`),
    '',
    'Where one machine stops:',
    '',
    `- Latency: a worker runs ${concurrency} jobs at once and each waits ${gatewayDelayMs} ms on the gateway, so ` +
      `one worker cannot pass ${f0(perWorker)} events/s.`,
    `- This machine: at ${top.workers} workers an event cost ${f2(top.totalMs)} ms of CPU in the workers, the API, ` +
      `Postgres's backends and Redis: ${machine.cpus} cores give at most **${f0((machine.cpus * 1000) / top.totalMs)} events/s**.`,
    ...postgresLines(top.msPerEvent[2]),
  ].join('\n');
}

async function main(): Promise<void> {
  const stamp = Date.now();
  const databaseName = `ticket_judge_bench_scale_${stamp}`;
  const redisPrefix = `tjbench-${stamp}`;
  const live = new Set<WorkerProcess>();
  // Undone last first, each step even if an earlier one failed, so a failure leaves nothing behind.
  const undo: Array<() => unknown> = [() => stores.deleteRedisNamespace(options.redisUrl, redisPrefix)];
  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      for (const step of undo.reverse())
        await Promise.resolve()
          .then(step)
          .catch((error: unknown) => log(`clean-up step failed: ${String(error)}`));
      log(
        `cleaned up: processes stopped, database ${databaseName} dropped, Redis keys ${redisPrefix}:* deleted`,
      );
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () => void cleanUp().finally(() => process.exit(130)));

  try {
    await setup.ensureServices(ROOT, options.databaseUrl, options.redisUrl);
    const snapshot = await snapshotDist(ROOT);
    undo.push(() => snapshot.remove());
    const databaseUrl = await stores.createScratchDatabase(options.databaseUrl, databaseName);
    undo.push(() => stores.dropScratchDatabase(options.databaseUrl, databaseName));
    const machine = setup.describeMachine(await stores.postgresVersion(options.databaseUrl));
    const start = async (name: string, script: string, env: NodeJS.ProcessEnv) => {
      const child = await BenchChild.start(name, path.join(snapshot.dist, 'bench', script), { env });
      undo.push(() => child.stop());
      return child;
    };
    const delay = { BENCH_GATEWAY_DELAY_MS: String(options.gatewayDelayMs) };
    const gateway = await start('fake gateway', 'serve-gateway.js', { ...process.env, ...delay });
    const receiver = await start('receiver', 'serve-receiver.js', process.env);
    const common = {
      ...process.env,
      NODE_ENV: 'test',
      SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: redisPrefix,
      MODEL_GATEWAY_URL: gateway.url,
    };
    const api = await start('API', 'serve-api.js', {
      ...common,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'silent',
      API_RATE_LIMIT_PER_DAY: '100000000',
      DATABASE_URL: setup.withApplicationName(databaseUrl, APP.api),
    });
    const maintenance = Object.assign(new URL(options.databaseUrl), { pathname: '/postgres' }).toString();
    const [stats, db] = [maintenance, databaseUrl].map((url) => new pg.Client({ connectionString: url }));
    const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    for (const client of [stats, db, redis]) {
      await client.connect();
      undo.push(() => (client instanceof Redis ? client.disconnect() : client.end()));
    }
    undo.push(() => Promise.allSettled([...live].map((worker) => worker.stop())));
    const tenant = await createTenant(api.url);
    await setup.saveEndpoint(api.url, tenant.apiKey, receiver.url);
    const bench: Bench = {
      apiPid: api.pid!,
      stats,
      probe: new Probe(stats, redis, databaseName, receiver.url),
      db,
      queries: 0,
      inbound: {
        url: `${api.url}/api/webhooks/inbound`,
        headers: { 'x-api-key': tenant.apiKey },
        body: { packId: tenant.packId, ticket: TICKET },
      },
      worker: {
        script: path.join(snapshot.dist, 'apps/worker/src/main.js'),
        env: {
          ...common,
          DATABASE_URL: setup.withApplicationName(databaseUrl, APP.worker),
          LOG_LEVEL: 'info',
          MIGRATE_ON_START: 'false',
          WORKER_CONCURRENCY: String(options.concurrency),
        },
      },
      live,
      warnings: 0,
    };
    log(`gateway ${options.gatewayDelayMs} ms a call, API ${api.url}, database ${databaseName}`);
    // The set-up's statistics settle, then the scratch database's counters start from zero.
    await sleep(STATS_SETTLE_MS);
    await count(bench, 'SELECT 0::float8 AS n, pg_stat_reset()');
    const since = await postgres.serverCounters(stats, databaseName);

    const runs: ScaleRun[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      // Worker counts take turns, one step later each round, to spread a noisy machine's drift.
      const order = options.workers.map((_, i) => options.workers[(i + round - 1) % options.workers.length]);
      for (const workers of order) runs.push(await measure(bench, workers, round));
    }
    log('waiting for Postgres to report its statistics');
    await sleep(STATS_SETTLE_MS);
    const writes = await postgres.writeCost(db, stats, databaseName, since, bench.queries);
    const v = await new Probe(db, redis, databaseName, receiver.url).verify(bench.warnings);
    if (v.completions !== v.events || v.deliveriesSucceeded !== v.events || v.eventsNotJudgedOnce)
      throw new Error(`inconsistent run: ${verificationLine(v)}`);
    log(`capacity run: pgbench simple-update for ${options.pgbench.seconds} s`);
    const capacity = await postgres
      .pgbenchCapacity(stats, databaseUrl, databaseName, options.pgbench)
      .catch((error: unknown) => {
        log(`no capacity run, pgbench failed: ${String(error)}`);
        return null;
      });

    const lines = (ms: number) => postgres.postgresLines(writes, capacity, machine.cpus, ms);
    const text = `${section(machine, runs, lines)}\n\n${verificationLine(v)}`;
    console.log(`\n${text}`);
    if (options.writeDocs) writeNamedSection(path.join(ROOT, 'docs/performance.md'), 'scale', text);
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
