// `npm run bench:simulation`: a 250-ticket simulation over a fake gateway with a 200 ms latency,
// run by 1, 2 and 4 worker processes, against the bound tickets x latency / total concurrency.
// See docs/performance.md for the method and the figures.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import pg from 'pg';
import { QUEUES } from '@app/jobs';
import { BenchChild } from './child-process.js';
import { snapshotDist } from './dist-snapshot.js';
import { writeNamedSection } from './docs-section.js';
import { percentile } from './load.js';
import {
  createScratchDatabase,
  deleteRedisNamespace,
  dropScratchDatabase,
  postgresVersion,
} from './scratch-stores.js';
import {
  createFixture,
  runSimulation,
  type Fixture,
  type PollOptions,
  type TimedSimulation,
} from './simulation-client.js';
import {
  describeMachine,
  loadAverage,
  PostgresActivitySampler,
  printWorkerProfiles,
  type PostgresActivity,
} from './simulation-diagnostics.js';
import {
  checkEvaluations,
  cpuSnapshot,
  jobStamps,
  toRun,
  type RunProcesses,
} from './simulation-measurements.js';
import {
  breakdownTable,
  docsSection,
  lowerBoundMs,
  resultTable,
  runsTable,
  summarizeRuns,
  verdict,
  type SimulationRun,
  type SimulationSettings,
} from './simulation-report.js';
import { WorkerProcess } from './worker-process.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECRET = 'bench-session-secret-0123456789abcdef0123456789';
/** A dataset holds at most this many tickets. */
const MAX_TICKETS = 250;
/** pg_stat_activity sampling during a run: often enough for averages, cheap enough not to matter. */
const SAMPLE_EVERY_MS = 25;

interface Options extends SimulationSettings {
  databaseUrl: string;
  redisUrl: string;
  writeDocs: boolean;
  /** Workers under --cpu-prof; their profiles are summarized at the end. */
  profileDir?: string;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

function readOptions(env: NodeJS.ProcessEnv): Options {
  const workerCounts = (env.BENCH_WORKERS || '1,2,4').split(',').map(Number);
  if (workerCounts.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error('BENCH_WORKERS must be a comma-separated list of positive integers');
  return {
    tickets: Math.min(MAX_TICKETS, Math.round(positive(env, 'BENCH_TICKETS', MAX_TICKETS))),
    gatewayDelayMs: positive(env, 'BENCH_GATEWAY_DELAY_MS', 200),
    concurrency: Math.round(positive(env, 'BENCH_CONCURRENCY', 32)),
    workerCounts,
    rounds: Math.round(positive(env, 'BENCH_RUNS', 3)),
    pollMs: positive(env, 'BENCH_POLL_MS', 100),
    settleMs: positive(env, 'BENCH_SETTLE_MS', 1000),
    cpus: os.availableParallelism(),
    databaseUrl: env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    // A profiled run is slower than a real one, so its figures never reach the docs.
    writeDocs: env.BENCH_WRITE_DOCS !== '0' && env.BENCH_PROFILE !== '1',
    profileDir:
      env.BENCH_PROFILE === '1' ? mkdtempSync(path.join(os.tmpdir(), 'tjbench-worker-profile-')) : undefined,
    // Workers are long-lived in production; like bench:judge's warm-up of the API, one untimed
    // simulation gets them through V8's optimizing compiler first. BENCH_WARM_WORKERS=0 times the
    // first simulation of freshly started workers instead.
    warmWorkers: env.BENCH_WARM_WORKERS !== '0',
  };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ensureServices(databaseUrl: string, redisUrl: string): Promise<void> {
  const services = (await import(pathToFileURL(path.join(ROOT, 'scripts/services.mjs')).href)) as {
    ensureServices(urls: { databaseUrl: string; redisUrl: string }): Promise<void>;
  };
  await services.ensureServices({ databaseUrl, redisUrl });
}

interface Stores {
  databaseUrl: string;
  redisUrl: string;
  databaseName: string;
  db: pg.Client;
  queue: Queue;
}

interface Servers {
  api: BenchChild;
  gateway: BenchChild;
}

/** Everything a run needs; the worker script is in the private copy of dist/. */
interface Bench {
  options: Options;
  fixture: Fixture;
  stores: Stores;
  servers: Servers;
  worker: { script: string; env: NodeJS.ProcessEnv };
  /** Workers not yet stopped, so an interrupted benchmark can stop them too. */
  live: Set<WorkerProcess>;
}

async function startWorkers(bench: Bench, count: number, perWorker: number): Promise<WorkerProcess[]> {
  const { profileDir } = bench.options;
  const nodeArgs = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const env = { ...bench.worker.env, WORKER_CONCURRENCY: String(perWorker) };
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) =>
      WorkerProcess.start(`worker ${i + 1}/${count}`, bench.worker.script, env, { nodeArgs }),
    ),
  );
  for (const result of started) if (result.status === 'fulfilled') bench.live.add(result.value);
  const failed = started.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return started.map((result) => (result as PromiseFulfilledResult<WorkerProcess>).value);
}

/** Stops them (SIGTERM, in-flight jobs finish) and prints what they logged at warn or above. */
async function stopWorkers(bench: Bench): Promise<void> {
  const workers = [...bench.live];
  await Promise.allSettled(workers.map((worker) => worker.stop()));
  for (const worker of workers) {
    bench.live.delete(worker);
    for (const line of worker.lines.filter((entry) => entry.level >= 40)) log(`${worker.name}: ${line.raw}`);
  }
}

/** Fresh workers, one timed simulation, its checks and measurements; the workers stopped after. */
async function measureRun(bench: Bench, round: number, workerCount: number): Promise<SimulationRun> {
  const { options, fixture, stores, servers } = bench;
  const perWorker = Math.max(1, Math.round(options.concurrency / workerCount));
  try {
    const workers = await startWorkers(bench, workerCount, perWorker);
    const poll: PollOptions = {
      pollMs: options.pollMs,
      timeoutMs: Math.max(
        60_000,
        10 * lowerBoundMs(options.tickets, options.gatewayDelayMs, options.concurrency),
      ),
      watch: [...workers, servers.api, servers.gateway],
    };
    if (options.warmWorkers) await runSimulation(fixture, poll);
    await sleep(options.settleMs);
    const processes: RunProcesses = {
      databaseUrl: stores.databaseUrl,
      databaseName: stores.databaseName,
      redisUrl: stores.redisUrl,
      apiPid: servers.api.pid!,
      gatewayPid: servers.gateway.pid!,
      workerPids: workers.map((worker) => worker.pid!),
    };
    const before = await cpuSnapshot(processes);
    const sampler = await PostgresActivitySampler.start(
      stores.databaseUrl,
      stores.databaseName,
      SAMPLE_EVERY_MS,
    );
    let activity: PostgresActivity;
    let simulation: TimedSimulation;
    try {
      simulation = await runSimulation(fixture, poll);
    } finally {
      activity = await sampler.stop();
    }
    const after = await cpuSnapshot(processes);
    printActivity(activity);
    if (simulation.view.completed !== options.tickets || simulation.view.total !== options.tickets)
      throw new Error(`simulation ${simulation.id}: ${JSON.stringify(simulation.view)}`);
    const evaluations = await checkEvaluations(stores.db, simulation.id, options.tickets);
    const ticketIds = evaluations.map((row) => row.dataset_ticket_id);
    const jobs = await jobStamps(stores.queue, simulation.id, ticketIds);
    return toRun(options.tickets, {
      round,
      workers,
      perWorker,
      simulation,
      before,
      after,
      activity,
      evaluations,
      jobs,
    });
  } finally {
    await stopWorkers(bench);
  }
}

function printActivity(activity: PostgresActivity): void {
  log(
    `Postgres backends of the scratch database, average over the run: ${activity.byState
      .map(([state, count]) => `${state} ${count.toFixed(1)}`)
      .join('; ')}; not idle per sample: p50 ${percentile(activity.notIdle, 50)}, ` +
      `p90 ${percentile(activity.notIdle, 90)}, max ${activity.notIdle.at(-1)}`,
  );
}

function notesFor(runs: SimulationRun[]): string[] {
  const restarted = runs.reduce((sum, run) => sum + run.restartedJobs, 0);
  const warnings = runs.reduce((sum, run) => sum + run.workerWarnings, 0);
  return [
    `Ticket jobs started more than once over all runs: ${restarted}. Worker log lines at warn or above: ${warnings}.`,
  ];
}

async function main(): Promise<void> {
  const options = readOptions(process.env);
  const stamp = Date.now();
  const databaseName = `ticket_judge_bench_sim_${stamp}`;
  const redisPrefix = `tjbench-${stamp}`;
  const children: BenchChild[] = [];
  let databaseCreated = false;
  let db: pg.Client | undefined;
  let queue: Queue | undefined;
  let snapshot: { dist: string; remove(): void } | undefined;
  const live = new Set<WorkerProcess>();

  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      // Each step on its own, so one failure does not leave the rest behind.
      const step = async (name: string, work: () => unknown) => {
        try {
          await work();
        } catch (error) {
          log(`clean-up: ${name} failed: ${String(error)}`);
        }
      };
      await step('stopping the workers', () => Promise.allSettled([...live].map((worker) => worker.stop())));
      await step('closing the queue', () => queue?.close());
      await step('closing the database client', () => db?.end());
      await step('stopping the API and gateway', () =>
        Promise.allSettled(children.map((child) => child.stop())),
      );
      if (databaseCreated)
        await step('dropping the database', () => dropScratchDatabase(options.databaseUrl, databaseName));
      await step('deleting the Redis keys', () => deleteRedisNamespace(options.redisUrl, redisPrefix));
      await step('removing the copy of dist/', () => snapshot?.remove());
      log(
        `cleaned up: processes stopped, database ${databaseName} dropped, Redis keys ${redisPrefix}:* deleted`,
      );
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  }

  try {
    snapshot = await snapshotDist(ROOT);
    const dist = snapshot.dist;
    await ensureServices(options.databaseUrl, options.redisUrl);
    const databaseUrl = await createScratchDatabase(options.databaseUrl, databaseName);
    databaseCreated = true;
    const machine = describeMachine(await postgresVersion(options.databaseUrl));

    const gateway = await BenchChild.start('fake gateway', path.join(dist, 'bench/serve-gateway.js'), {
      env: { ...process.env, BENCH_GATEWAY_DELAY_MS: String(options.gatewayDelayMs) },
    });
    children.push(gateway);
    const shared = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: redisPrefix,
      MODEL_GATEWAY_URL: gateway.url,
      SESSION_SECRET: SECRET,
      NODE_ENV: 'test',
    };
    const apiChild = await BenchChild.start('API', path.join(dist, 'bench/serve-api.js'), {
      env: {
        ...process.env,
        ...shared,
        LOG_LEVEL: 'silent',
        MIGRATE_ON_START: 'true',
        API_RATE_LIMIT_PER_DAY: '100000000',
      },
    });
    children.push(apiChild);
    log(
      `gateway ${gateway.url} (pid ${gateway.pid}), API ${apiChild.url} (pid ${apiChild.pid}), database ${databaseName}`,
    );

    const fixture = await createFixture(apiChild.url, options.tickets);
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    queue = new Queue(QUEUES.simulations, {
      prefix: redisPrefix,
      connection: { url: options.redisUrl, maxRetriesPerRequest: 1 },
    });
    const stores: Stores = {
      databaseUrl: options.databaseUrl,
      redisUrl: options.redisUrl,
      databaseName,
      db,
      queue,
    };
    const bench: Bench = {
      options,
      fixture,
      stores,
      servers: { api: apiChild, gateway },
      live,
      // `worker ready` is logged at info; nothing else is logged per ticket at that level.
      worker: {
        script: path.join(dist, 'apps/worker/src/main.js'),
        env: { ...process.env, ...shared, LOG_LEVEL: 'info' },
      },
    };

    const runs: SimulationRun[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      for (const workers of options.workerCounts) {
        const run = await measureRun(bench, round, workers);
        runs.push(run);
        log(
          `round ${round}/${options.rounds}, ${workers} x ${run.perWorker}: wall ${run.wallMs.toFixed(0)} ms, ` +
            `first job after ${run.firstJobMs} ms, job mean ${run.jobMsMean.toFixed(1)} ms ` +
            `(model ${run.gatewayMsMean.toFixed(1)} ms), ${run.inFlightMean.toFixed(1)} in flight, ` +
            `machine busy ${(run.machineBusy * 100).toFixed(0)}%, load ${loadAverage()}`,
        );
      }
    }

    const summaries = summarizeRuns(runs, options);
    console.log(
      `\n${options.tickets}-ticket simulation over a ${options.gatewayDelayMs} ms gateway, total concurrency ${options.concurrency} (medians of ${options.rounds} rounds)\n`,
    );
    console.log(resultTable(summaries));
    console.log(`\n${verdict(summaries, options)}`);
    console.log(`\n${breakdownTable(summaries)}`);
    console.log(`\nEvery run:\n\n${runsTable(runs)}`);
    console.log(`\nLoad average: before ${machine.loadAverage}, after ${loadAverage()}`);
    if (options.writeDocs) {
      const docs = path.join(ROOT, 'docs/performance.md');
      writeNamedSection(docs, 'simulation', docsSection(summaries, runs, machine, options, notesFor(runs)));
      log(`wrote the results to ${path.relative(ROOT, docs)}`);
    }
  } finally {
    await cleanUp();
  }
  if (options.profileDir) printWorkerProfiles(options.profileDir);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(
      `[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  })
  // Cleaned up by now; a stray handle (a socket, a timer) must not keep the benchmark alive.
  .finally(() => setTimeout(() => process.exit(), 5_000).unref());
