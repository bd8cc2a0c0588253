// `npm run bench:inbound`: how many tickets a second POST /api/webhooks/inbound accepts at 64
// connections, next to a bare Fastify route doing one Postgres insert and one BullMQ add, and how
// long the worker then takes to deliver every completion. See docs/performance.md.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { BenchChild } from './child-process.js';
import { writeNamedSection } from './docs-section.js';
import { docsSection } from './inbound-docs.js';
import { cpuBetween, Probe, type Watched } from './inbound-probe.js';
import {
  cpuTable,
  describeStates,
  drainCpuTable,
  drainTable,
  otherCores,
  PHASE_LABEL,
  resultsTable,
  runsTable,
  summarizePhase,
  verificationLine,
  type Drain,
  type InboundSettings,
  type LoadRun,
  type Phase,
  type Target,
  type Verification,
} from './inbound-report.js';
import {
  describeMachine,
  ensureServices,
  post,
  printProfile,
  saveEndpoint,
  withApplicationName,
} from './inbound-setup.js';
import { WorkerApp } from './inbound-worker.js';
import { runLoad, type LoadResult, type LoadTarget } from './load.js';
import {
  createScratchDatabase,
  deleteRedisNamespace,
  dropScratchDatabase,
  postgresVersion,
} from './scratch-stores.js';
import type { ReceiverStats } from './serve-receiver.js';
import { createTenant, TICKET } from './tenant.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST_BENCH = path.join(DIST, 'bench');
const SESSION_SECRET = 'bench-session-secret-0123456789abcdef0123456789';
/** application_name of each process's Postgres connections, to tell their backends apart. */
const APP_NAMES = { api: 'tj-api', bare: 'tj-bare', worker: 'tj-worker', bench: 'tj-bench' } as const;
const POLL_MS = 50;

interface Options extends InboundSettings {
  phases: Phase[];
  databaseUrl: string;
  redisUrl: string;
  drainTimeoutMs: number;
  profileDir?: string;
  writeDocs: boolean;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

function readOptions(env: NodeJS.ProcessEnv): Options {
  const phases = (env.BENCH_PHASES || 'worker-off,worker-on').split(',') as Phase[];
  if (!phases.length || phases.some((p) => !(p in PHASE_LABEL)))
    throw new Error('BENCH_PHASES must list worker-off and/or worker-on');
  const profile = env.BENCH_PROFILE === '1';
  return {
    phases,
    connections: Math.round(positive(env, 'BENCH_CONNECTIONS', 64)),
    gatewayDelayMs: positive(env, 'BENCH_GATEWAY_DELAY_MS', 20),
    warmupSeconds: positive(env, 'BENCH_WARMUP', 3),
    durationSeconds: positive(env, 'BENCH_DURATION', 10),
    rounds: Math.round(positive(env, 'BENCH_RUNS', 3)),
    workerConcurrency: Math.round(positive(env, 'BENCH_WORKER_CONCURRENCY', 32)),
    drainTimeoutMs: positive(env, 'BENCH_DRAIN_TIMEOUT', 900) * 1000,
    databaseUrl: env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    profileDir: profile ? mkdtempSync(path.join(os.tmpdir(), 'tjbench-inbound-profile-')) : undefined,
    // A profiled API is slower than a real one, so its figures never reach the docs.
    writeDocs: env.BENCH_WRITE_DOCS !== '0' && !profile,
  };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Run {
  options: Options;
  probe: Probe;
  targets: Record<Target, LoadTarget>;
  servers: Record<Target, BenchChild>;
  /** The bare route's queue, which no one consumes. */
  bareQueue: Queue;
  children: BenchChild[];
  worker?: WorkerApp;
  workerEnv: NodeJS.ProcessEnv;
  /** 202s autocannon saw from the inbound route over the whole run. */
  seen202: number;
  loads: number;
  /** Warnings logged by workers already stopped. */
  earlierWorkerWarnings: number;
}

async function load(run: Run, target: Target, seconds: number): Promise<LoadResult> {
  const result = await runLoad(run.targets[target], run.options.connections, seconds);
  if (target === 'inbound') {
    run.seen202 += result.statusCodes['202'] ?? 0;
    run.loads++;
  }
  // Nothing consumes the bare jobs: dropped between loads, so Redis does not grow by a few
  // hundred thousand jobs over the run.
  if (target === 'bare') await run.bareQueue.drain();
  const dead = run.children.find((child) => child.died) ?? (run.worker?.died ? run.worker : undefined);
  if (dead) throw new Error(`${dead instanceof WorkerApp ? 'the worker' : dead.name} died during the run`);
  return result;
}

const workerPids = async (run: Run): Promise<number[]> =>
  run.worker ? [run.worker.pid!, ...(await run.probe.postgresPids(APP_NAMES.worker))] : [];

/** The server under test, its Postgres backends and the worker's, as of now (pools grow and shrink). */
async function watch(run: Run, target: Target): Promise<Watched> {
  return {
    server: run.servers[target].pid!,
    serverPostgres: await run.probe.postgresPids(APP_NAMES[target === 'inbound' ? 'api' : 'bare']),
    worker: await workerPids(run),
  };
}

async function measureOnce(run: Run, phase: Phase, round: number, target: Target): Promise<LoadRun> {
  await load(run, target, run.options.warmupSeconds);
  const appName = APP_NAMES[target === 'inbound' ? 'api' : 'bare'];
  const sampler = run.probe.sampler(appName).start();
  const before = await run.probe.snapshot(await watch(run, target));
  const result = await load(run, target, run.options.durationSeconds);
  const cpu = cpuBetween(before, await run.probe.snapshot(await watch(run, target)));
  const postgres = await sampler.stop();
  const perResponse = (value: number) => (value / Math.max(1, result.responses)).toFixed(2);
  log(
    `${PHASE_LABEL[phase]}, round ${round}/${run.options.rounds}, ${target}: ${result.rps.toFixed(0)} rps, ` +
      `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
      `CPU/req ${perResponse(cpu.server)} ms (+ Postgres ${perResponse(cpu.serverPostgres)} ms, ` +
      `Redis ${perResponse(cpu.redis)} ms), worker ${(cpu.worker / cpu.wallMs).toFixed(2)} cores, ` +
      `machine ${(cpu.machineBusy * 100).toFixed(0)}% busy (${otherCores(cpu).toFixed(2)} cores other), non-2xx ${result.non2xx}, errors ${result.errors}; ` +
      `Postgres backends: ${describeStates(postgres)}`,
  );
  return { phase, round, target, result, cpu, postgres };
}

async function startWorker(run: Run): Promise<void> {
  run.worker = await WorkerApp.start(path.join(DIST, 'apps/worker/src/main.js'), run.workerEnv);
  log(`worker ready (pid ${run.worker.pid}, concurrency ${run.options.workerConcurrency})`);
}

async function stopWorker(run: Run): Promise<void> {
  if (!run.worker) return;
  await run.worker.stop();
  run.earlierWorkerWarnings += run.worker.warnings;
  run.worker = undefined;
}

/** Polls the receiver until it has one completion for each of `expected` events. */
async function waitForCompletions(run: Run, expected: number): Promise<ReceiverStats> {
  const deadline = Date.now() + run.options.drainTimeoutMs;
  let lastLog = Date.now();
  for (;;) {
    const stats = await run.probe.receiver();
    if (stats.events >= expected) return stats;
    if (run.worker?.died) throw new Error('the worker died while draining');
    if (Date.now() > deadline)
      throw new Error(`only ${stats.events} of ${expected} completions arrived within the drain timeout`);
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`draining: ${stats.events} of ${expected} completions`);
    }
    await sleep(POLL_MS);
  }
}

/** The rounds of one phase, bare then inbound each time. */
async function runRounds(run: Run, phase: Phase): Promise<LoadRun[]> {
  const runs: LoadRun[] = [];
  for (let round = 1; round <= run.options.rounds; round++)
    for (const target of ['bare', 'inbound'] as const)
      runs.push(await measureOnce(run, phase, round, target));
  return runs;
}

/**
 * The rounds of one phase, then the wait until every accepted event has its completion: from the
 * end of the load with the worker running, from `worker ready` when it starts only now.
 */
async function runPhase(run: Run, phase: Phase, first: boolean): Promise<{ runs: LoadRun[]; drain: Drain }> {
  if (phase === 'worker-on' && !run.worker) {
    await startWorker(run);
    await sleep(1000);
  }
  if (phase === 'worker-off') await stopWorker(run);
  const seconds = Math.max(10, run.options.warmupSeconds);
  if (first) {
    // A few seconds of load do not get Nest, TypeORM, pg and BullMQ through V8's optimizing
    // compiler; without this, the first round measures the JIT.
    log(`warming both routes up for ${seconds} s each`);
    await load(run, 'inbound', seconds);
    await load(run, 'bare', seconds);
  }
  const deliveredBefore = (await run.probe.receiver()).events;
  const backlogStart = Date.now();
  if (phase === 'worker-on') {
    // A backlog first, so the worker is busy from the first measured window (the bare one) on.
    log(`giving the worker a backlog: ${seconds} s of inbound load`);
    await load(run, 'inbound', seconds);
  }
  const runs = await runRounds(run, phase);
  const loadEnd = Date.now();
  const atLoadEnd = await run.probe.receiver();
  const events = await run.probe.settledEventCount();
  const workerBootMs = run.worker ? undefined : await startWorker(run).then(() => Date.now() - loadEnd);
  const from = workerBootMs === undefined ? loadEnd : loadEnd + workerBootMs;
  log(`${events} events accepted so far, ${events - atLoadEnd.events} waiting for their completion`);

  const sampler = run.probe.sampler(APP_NAMES.worker).start();
  const before = await run.probe.snapshot(await watch(run, 'inbound'));
  const drained = await waitForCompletions(run, events);
  const cpu = cpuBetween(before, await run.probe.snapshot(await watch(run, 'inbound')));
  const workerPostgres = await sampler.stop();
  const judgedAt = await run.probe.lastJudgedAt();
  const firstFrom = workerBootMs === undefined ? backlogStart : from;
  const firstArrival = (await run.probe.arrivals()).find((at) => at >= firstFrom);
  const drain: Drain = {
    phase,
    events,
    seen202: run.seen202,
    backlogAtLoadEnd: events - atLoadEnd.events,
    drainedFrom: workerBootMs === undefined ? 'load end' : 'worker ready',
    workerBootMs,
    judgedMs: Math.max(0, (judgedAt ?? from) - from),
    drainMs: Math.max(0, (drained.lastNewEventAt ?? from) - from),
    firstCompletionMs: firstArrival === undefined ? null : firstArrival - firstFrom,
    deliveredDuringLoad: atLoadEnd.events - deliveredBefore,
    workerCpuMsPerEvent: cpu.worker / Math.max(1, events - atLoadEnd.events),
    machineBusy: cpu.machineBusy,
    otherCores: otherCores(cpu),
    workerPostgres,
  };
  log(
    `every event judged ${(drain.judgedMs / 1000).toFixed(1)} s and completed ${(drain.drainMs / 1000).toFixed(1)} s ` +
      `after ${drain.drainedFrom}; worker CPU ${drain.workerCpuMsPerEvent.toFixed(2)} ms an event; ` +
      `its Postgres backends: ${describeStates(workerPostgres)}`,
  );
  return { runs, drain };
}

/** The figures are only worth recording if every accepted event was judged once and delivered. */
function assertConsistent(run: Run, v: Verification): void {
  const problems: string[] = [];
  if (v.completions !== v.events) problems.push(`${v.completions} completions for ${v.events} events`);
  if (v.eventsNotJudgedOnce) problems.push(`${v.eventsNotJudgedOnce} events without exactly one evaluation`);
  if (v.badSignatures) problems.push(`${v.badSignatures} completions with a bad signature`);
  if (v.gatewayFailures) problems.push(`${v.gatewayFailures} evaluations with a gateway failure`);
  if (v.deliveriesSucceeded !== v.events) problems.push(`${v.deliveriesSucceeded} deliveries succeeded`);
  // Requests in flight when autocannon stops a load are committed but never counted as 202s.
  const unseen = v.events - run.seen202;
  if (unseen < 0 || unseen > run.loads * run.options.connections)
    problems.push(`${v.events} events in Postgres but autocannon saw ${run.seen202} 202s`);
  if (problems.length) throw new Error(`inconsistent run: ${problems.join('; ')}`);
}

async function checkTargets(run: Run): Promise<void> {
  for (const target of ['inbound', 'bare'] as const) {
    const { url, headers, body } = run.targets[target];
    const response = await post(url, headers, JSON.parse(body));
    if (response.status !== 202 || typeof response.body.eventId !== 'string')
      throw new Error(
        `${target} answered ${response.status} ${JSON.stringify(response.body)} (BENCH_LOG_LEVEL=error shows the API's log)`,
      );
    if (target === 'inbound') run.seen202++;
  }
}

async function main(): Promise<void> {
  const options = readOptions(process.env);
  const stamp = Date.now();
  const databaseName = `ticket_judge_bench_inbound_${stamp}`;
  const redisPrefix = `tjbench-${stamp}`;
  const children: BenchChild[] = [];
  let run: Run | undefined;
  let databaseCreated = false;
  let db: pg.Client | undefined;
  const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });

  let cleaning: Promise<void> | undefined;
  // Every step runs even if an earlier one failed, so a failure never leaves the stores behind.
  const step = (what: string, work: () => Promise<unknown>) =>
    work().catch((error: unknown) => log(`clean-up: ${what} failed: ${String(error)}`));
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await step('stopping the worker', async () => run?.worker?.stop());
      await Promise.allSettled(children.map((child) => child.stop()));
      await step('closing connections', async () => {
        await run?.bareQueue.close();
        await db?.end();
        redis.disconnect();
      });
      if (databaseCreated)
        await step('dropping the database', () => dropScratchDatabase(options.databaseUrl, databaseName));
      await step('deleting the Redis keys', () => deleteRedisNamespace(options.redisUrl, redisPrefix));
      log(
        `cleaned up: processes stopped, database ${databaseName} dropped, Redis keys ${redisPrefix}:* deleted`,
      );
    })());
  // `on`, not `once`: a second signal while cleaning up must not kill the process half-way.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log(cleaning ? `${signal}: still cleaning up` : `${signal}: stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  }

  try {
    await ensureServices(ROOT, options.databaseUrl, options.redisUrl);
    const databaseUrl = await createScratchDatabase(options.databaseUrl, databaseName);
    databaseCreated = true;
    const machine = describeMachine(await postgresVersion(options.databaseUrl));
    const start = async (name: string, script: string, env: NodeJS.ProcessEnv, execArgv: string[] = []) => {
      const child = await BenchChild.start(name, path.join(DIST_BENCH, script), { env, execArgv });
      children.push(child);
      return child;
    };
    const gateway = await start('fake gateway', 'serve-gateway.js', {
      ...process.env,
      BENCH_GATEWAY_DELAY_MS: String(options.gatewayDelayMs),
    });
    const receiver = await start('receiver', 'serve-receiver.js', process.env);
    const common = {
      ...process.env,
      NODE_ENV: 'test',
      SESSION_SECRET,
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: redisPrefix,
      MODEL_GATEWAY_URL: gateway.url,
    };
    const api = await start(
      'API',
      'serve-api.js',
      {
        ...common,
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'silent',
        MIGRATE_ON_START: 'true',
        API_RATE_LIMIT_PER_DAY: '100000000',
        DATABASE_URL: withApplicationName(databaseUrl, APP_NAMES.api),
      },
      options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [],
    );

    db = new pg.Client({ connectionString: withApplicationName(databaseUrl, APP_NAMES.bench) });
    await db.connect();
    await db.query(`CREATE TABLE bench_bare (
      id uuid PRIMARY KEY,
      body jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    const bare = await start('bare route', 'serve-bare-inbound.js', {
      ...common,
      DATABASE_URL: withApplicationName(databaseUrl, APP_NAMES.bare),
    });
    await redis.connect();
    log(
      `gateway ${gateway.url}, receiver ${receiver.url}, API ${api.url} (pid ${api.pid}), ` +
        `bare route ${bare.url} (pid ${bare.pid}), database ${databaseName}`,
    );

    const tenant = await createTenant(api.url);
    await saveEndpoint(api.url, tenant.apiKey, receiver.url);
    const body = JSON.stringify({ packId: tenant.packId, ticket: TICKET });
    const json = { 'content-type': 'application/json' };
    run = {
      options,
      probe: new Probe(db, redis, databaseName, receiver.url),
      targets: {
        inbound: {
          url: `${api.url}/api/webhooks/inbound`,
          headers: { ...json, 'x-api-key': tenant.apiKey },
          body,
        },
        bare: { url: `${bare.url}/bare`, headers: json, body },
      },
      servers: { inbound: api, bare },
      bareQueue: new Queue('bare', {
        prefix: redisPrefix,
        connection: { url: options.redisUrl, maxRetriesPerRequest: null },
      }),
      children,
      workerEnv: {
        ...common,
        DATABASE_URL: withApplicationName(databaseUrl, APP_NAMES.worker),
        // `worker ready` is logged at info; the worker logs nothing per job at info either.
        LOG_LEVEL: 'info',
        WORKER_CONCURRENCY: String(options.workerConcurrency),
      },
      seen202: 0,
      loads: 0,
      earlierWorkerWarnings: 0,
    };
    await checkTargets(run);

    const runs: LoadRun[] = [];
    const drains: Drain[] = [];
    for (const [index, phase] of options.phases.entries()) {
      const result = await runPhase(run, phase, index === 0);
      runs.push(...result.runs);
      drains.push(result.drain);
    }
    const verification = await run.probe.verify(run.earlierWorkerWarnings + (run.worker?.warnings ?? 0));
    assertConsistent(run, verification);

    const summaries = options.phases.map((phase) => summarizePhase(runs, phase));
    console.log(`\nPOST /api/webhooks/inbound and the bare route at ${options.connections} connections\n`);
    console.log(resultsTable(summaries));
    console.log(`\n${drainTable(drains)}\n\n${drainCpuTable(drains)}\n\n${cpuTable(summaries)}`);
    console.log(`\n${runsTable(runs)}`);
    console.log(`\n${verificationLine(verification)}`);
    if (options.writeDocs) {
      const docs = path.join(ROOT, 'docs/performance.md');
      writeNamedSection(
        docs,
        'inbound',
        docsSection({ summaries, drains, runs, verification, machine, options }),
      );
      log(`wrote the results to ${path.relative(ROOT, docs)}`);
    }
  } finally {
    await cleanUp();
  }
  if (options.profileDir) printProfile(options.profileDir);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
