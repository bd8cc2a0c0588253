// `npm run bench:inbound`: how many tickets a second POST /api/webhooks/inbound accepts at 64
// connections, next to a bare Fastify route doing one Postgres insert and one BullMQ add, and how
// long the worker then takes to deliver every completion. See docs/performance.md.
import { Queue } from 'bullmq';
import { TICKET } from '../test/support/packs.js';
import { Completions, saveEndpoint, type Verification } from './harness/completions.js';
import { runLoad, type LoadResult, type LoadTarget } from './harness/load.js';
import { log, runMain, sleep } from './harness/log.js';
import { growthInputs, type GrowthResults, type GrowthRun } from './harness/growth.js';
import { flag, num, readOptions, settingsOf, words } from './harness/options.js';
import { printProfiles, profileFlags } from './harness/profile.js';
import { cpuBetween, describeStates, otherCores, type Probe, type Watched } from './harness/probes.js';
import type { Service } from './harness/processes.js';
import { publish } from './harness/report.js';
import { BenchRun, createTenant, stopWorkers } from './harness/run.js';
import { render } from './inbound.render.js';
import {
  PHASE_LABEL,
  summarizePhase,
  type Drain,
  type LoadRun,
  type Phase,
  type ShadowProgress,
  type Target,
} from './inbound.report.js';

const options = readOptions({
  phases: words('worker-off', 'worker-on', 'shadow-on'),
  connections: num(64),
  gatewayDelayMs: num(20),
  warmup: num(3),
  duration: num(10),
  runs: num(3),
  workerConcurrency: num(32),
  drainTimeout: num(900),
  // Cost growth (issue 26): larger tickets and a larger pack, each sent for this long and drained.
  growth: flag(true),
  growthDuration: num(3),
});
const phases = options.phases as Phase[];
if (phases.some((phase) => !(phase in PHASE_LABEL)))
  throw new Error('phases: any of worker-off, worker-on and shadow-on');
/** application_name of each process's Postgres connections, to tell their backends apart. */
const APP = { inbound: 'tj-api', bare: 'tj-bare', worker: 'tj-worker' } as const;

interface Inbound {
  run: BenchRun;
  probe: Probe;
  completions: Completions;
  targets: Record<Target, LoadTarget>;
  servers: Record<Target, Service>;
  /** The bare route's queue, which no one consumes. */
  bareQueue: Queue;
  worker?: Service;
  /** 202s autocannon saw from the inbound route over the whole run, and the loads that sent them. */
  seen202: number;
  loads: number;
  /** Warnings logged by workers already stopped. */
  workerWarnings: number;
  /** The tenant's API client and pack, for the shadow run of the `shadow-on` phase. */
  tenant: { client: Awaited<ReturnType<typeof createTenant>>['client']; packId: string };
}

async function load(b: Inbound, target: Target, seconds: number): Promise<LoadResult> {
  const result = await runLoad(b.targets[target], options.connections, seconds);
  if (target === 'inbound') {
    b.seen202 += result.statusCodes['202'] ?? 0;
    b.loads++;
  }
  // Nothing consumes the bare jobs: dropped between loads, so Redis does not grow by a few
  // hundred thousand jobs over the run.
  if (target === 'bare') await b.bareQueue.drain();
  const dead = [...Object.values(b.servers), ...(b.worker ? [b.worker] : [])].find((s) => s.died);
  if (dead) throw new Error(`${dead.name} died during the run`);
  return result;
}

/** The server under test, its Postgres backends and the worker's, as of now (pools grow and shrink). */
async function watch(b: Inbound, target: Target): Promise<Watched> {
  return {
    server: [b.servers[target].pid],
    serverPostgres: await b.probe.postgresPids(APP[target]),
    worker: b.worker ? [b.worker.pid, ...(await b.probe.postgresPids(APP.worker))] : [],
  };
}

async function measureOnce(b: Inbound, phase: Phase, round: number, target: Target): Promise<LoadRun> {
  await load(b, target, options.warmup);
  const sampler = b.probe.sampler(100, APP[target]);
  const before = await b.probe.snapshot(await watch(b, target));
  const result = await load(b, target, options.duration);
  const cpu = cpuBetween(before, await b.probe.snapshot(await watch(b, target)));
  const postgres = (await sampler.stop()).states;
  const perResponse = (value: number) => (value / Math.max(1, result.responses)).toFixed(2);
  log(
    `${PHASE_LABEL[phase]}, round ${round}/${options.runs}, ${target}: ${result.rps.toFixed(0)} rps, ` +
      `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, CPU/req ${perResponse(cpu.groups.server)} ms ` +
      `(+ Postgres ${perResponse(cpu.groups.serverPostgres)} ms, Redis ${perResponse(cpu.redis)} ms), ` +
      `worker ${(cpu.groups.worker / cpu.wallMs).toFixed(2)} cores, machine ${(cpu.machineBusy * 100).toFixed(0)}% busy ` +
      `(${otherCores(cpu).toFixed(2)} cores other), non-2xx ${result.non2xx}, errors ${result.errors}; ` +
      `Postgres backends: ${describeStates(postgres)}`,
  );
  return { phase, round, target, result, cpu, postgres };
}

async function startWorker(b: Inbound): Promise<void> {
  [b.worker] = await b.run.workers(
    1,
    { WORKER_CONCURRENCY: String(options.workerConcurrency) },
    workerProfile?.execArgv ?? [],
  );
  log(`worker ready (pid ${b.worker.pid}, concurrency ${options.workerConcurrency})`);
}

/** A shadow run at rate 1 on the tenant's pack (the draft, frozen: the live document). */
async function startShadowRun(b: Inbound): Promise<string> {
  const res = await b.tenant.client.post(`/api/packs/${b.tenant.packId}/shadow-runs`, { sampleRate: 1 });
  if (res.status !== 201) throw new Error(`shadow run: ${res.status} ${res.text}`);
  const { id } = res.body as { id: string };
  log(`shadow run ${id} started at rate 1`);
  return id;
}

/** How long the shadow run is watched once live work has drained, for the pace it then keeps. */
const SHADOW_CATCH_UP_MS = 20_000;

/**
 * Its progress once the live events have drained; then how many it judges a second over the next
 * SHADOW_CATCH_UP_MS, with the live queues empty; then stopped.
 */
async function stopShadowRun(b: Inbound, id: string): Promise<ShadowProgress> {
  // Read before stopping: stopping drops the waiting judgments, and `sampled` no longer counts them.
  const read = async () =>
    (
      (await b.tenant.client.get(`/api/shadow-runs/${id}`)).body as {
        report: Omit<ShadowProgress, 'catchUpPerSecond'>;
      }
    ).report;
  const { sampled, judged, pending } = await read();
  await sleep(SHADOW_CATCH_UP_MS);
  const later = await read();
  const catchUpPerSecond = ((later.judged - judged) * 1000) / SHADOW_CATCH_UP_MS;
  const res = await b.tenant.client.post(`/api/shadow-runs/${id}/stop`);
  if (res.status !== 200) throw new Error(`shadow stop: ${res.status} ${res.text}`);
  log(
    `shadow run: ${sampled} drawn, ${judged} judged, ${pending} waiting when live work had drained; ` +
      `then ${catchUpPerSecond.toFixed(1)} judged a second; stopped`,
  );
  return { sampled, judged, pending, catchUpPerSecond };
}

/** Polls the receiver until it has one completion for each of `expected` events. */
async function waitForCompletions(b: Inbound, expected: number) {
  const deadline = Date.now() + options.drainTimeout * 1000;
  let lastLog = Date.now();
  for (;;) {
    const stats = await b.completions.receiver();
    if (stats.events >= expected) return stats;
    if (b.worker?.died) throw new Error('the worker died while draining');
    if (Date.now() > deadline)
      throw new Error(`only ${stats.events} of ${expected} completions arrived within the drain timeout`);
    if (Date.now() - lastLog > 10_000) {
      lastLog = Date.now();
      log(`draining: ${stats.events} of ${expected} completions`);
    }
    await sleep(50);
  }
}

/**
 * The rounds of one phase (bare then inbound each time), then the wait until every accepted event
 * has its completion: from the end of the load with the worker running, from `worker ready` when
 * it starts only now.
 */
async function runPhase(
  b: Inbound,
  phase: Phase,
  first: boolean,
): Promise<{ runs: LoadRun[]; drain: Drain }> {
  if (phase !== 'worker-off' && !b.worker) {
    await startWorker(b);
    await sleep(1000);
  }
  if (phase === 'worker-off' && b.worker) {
    b.workerWarnings += await stopWorkers([b.worker]);
    b.worker = undefined;
  }
  const seconds = Math.max(10, options.warmup);
  if (first) {
    // A few seconds of load do not get Nest, TypeORM, pg and BullMQ through V8's optimizing
    // compiler; without this, the first round measures the JIT.
    log(`warming both routes up for ${seconds} s each`);
    await load(b, 'inbound', seconds);
    await load(b, 'bare', seconds);
  }
  const shadowRun = phase === 'shadow-on' ? await startShadowRun(b) : undefined;
  const deliveredBefore = (await b.completions.receiver()).events;
  const backlogStart = Date.now();
  if (phase !== 'worker-off') {
    // A backlog first, so the worker is busy from the first measured window (the bare one) on.
    log(`giving the worker a backlog: ${seconds} s of inbound load`);
    await load(b, 'inbound', seconds);
  }
  const runs: LoadRun[] = [];
  for (let round = 1; round <= options.runs; round++)
    for (const target of ['bare', 'inbound'] as const) runs.push(await measureOnce(b, phase, round, target));
  const loadEnd = Date.now();
  const atLoadEnd = await b.completions.receiver();
  const events = await b.completions.settledEventCount();
  const workerBootMs = b.worker ? undefined : await startWorker(b).then(() => Date.now() - loadEnd);
  const from = workerBootMs === undefined ? loadEnd : loadEnd + workerBootMs;
  log(`${events} events accepted so far, ${events - atLoadEnd.events} waiting for their completion`);

  const sampler = b.probe.sampler(100, APP.worker);
  const before = await b.probe.snapshot(await watch(b, 'inbound'));
  const drained = await waitForCompletions(b, events);
  const cpu = cpuBetween(before, await b.probe.snapshot(await watch(b, 'inbound')));
  const workerPostgres = (await sampler.stop()).states;
  const judgedAt = await b.completions.lastJudgedAt();
  const firstFrom = workerBootMs === undefined ? backlogStart : from;
  const firstArrival = (await b.completions.arrivals()).find((at) => at >= firstFrom);
  const shadow = shadowRun ? await stopShadowRun(b, shadowRun) : undefined;
  const drain: Drain = {
    phase,
    ...(shadow ? { shadow } : {}),
    events,
    seen202: b.seen202,
    backlogAtLoadEnd: events - atLoadEnd.events,
    drainedFrom: workerBootMs === undefined ? 'load end' : 'worker ready',
    workerBootMs,
    judgedMs: Math.max(0, (judgedAt ?? from) - from),
    drainMs: Math.max(0, (drained.lastNewEventAt ?? from) - from),
    firstCompletionMs: firstArrival === undefined ? null : firstArrival - firstFrom,
    deliveredDuringLoad: atLoadEnd.events - deliveredBefore,
    workerCpuMsPerEvent: cpu.groups.worker / Math.max(1, events - atLoadEnd.events),
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

/**
 * Cost growth (issue 26): with the worker running and nothing waiting, each input in turn is sent
 * for `BENCH_GROWTH_DURATION` seconds and then drained to its last completion; the CPU of the API,
 * the worker, the two apps' Postgres backends and Redis over load and drain, per event.
 */
async function measureGrowth(
  b: Inbound,
  inputs: Awaited<ReturnType<typeof growthInputs>>,
): Promise<GrowthResults> {
  if (!b.worker) await startWorker(b);
  const worker = b.worker!;
  const watched = async (): Promise<Watched> => ({
    API: [b.servers.inbound.pid],
    worker: [worker.pid],
    // The apps' backends only: the benchmark's own connection polls counts while it waits.
    Postgres: [...(await b.probe.postgresPids(APP.inbound)), ...(await b.probe.postgresPids(APP.worker))],
  });
  const runs: GrowthRun[] = [];
  for (let round = 1; round <= options.runs; round++) {
    for (const input of inputs) {
      const target = { ...b.targets.inbound, body: input.body };
      const eventsBefore = await b.completions.settledEventCount();
      await waitForCompletions(b, eventsBefore);
      const before = await b.probe.snapshot(await watched());
      const result = await runLoad(target, options.connections, options.growthDuration);
      b.seen202 += result.statusCodes['202'] ?? 0;
      b.loads++;
      if (result.non2xx || result.errors)
        throw new Error(`growth input ${input.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const events = await b.completions.settledEventCount();
      await waitForCompletions(b, events);
      const cpu = cpuBetween(before, await b.probe.snapshot(await watched()));
      const n = Math.max(1, events - eventsBefore);
      const cpuMs: Record<string, number> = {
        API: cpu.groups.API / n,
        worker: cpu.groups.worker / n,
        Postgres: cpu.groups.Postgres / n,
        Redis: cpu.redis / n,
      };
      cpuMs.all = cpuMs.API + cpuMs.worker + cpuMs.Postgres + cpuMs.Redis;
      const { rps, p50, p99 } = result;
      runs.push({ round, input: input.name, connections: options.connections, rps, p50, p99, cpuMs });
      log(
        `growth round ${round}/${options.runs} ${input.name}: ${n} events, ${rps.toFixed(0)} accepted a second; ` +
          `CPU an event: API ${cpuMs.API.toFixed(2)}, worker ${cpuMs.worker.toFixed(2)}, ` +
          `Postgres ${cpuMs.Postgres.toFixed(2)}, Redis ${cpuMs.Redis.toFixed(2)} ms`,
      );
    }
  }
  return {
    inputs: inputs.map(({ body: _body, ...input }) => input),
    groups: ['API', 'worker', 'Postgres', 'Redis', 'all'],
    runs,
  };
}

/** The figures are only worth recording if every accepted event was judged once and delivered. */
function assertConsistent(b: Inbound, v: Verification): void {
  const problems: string[] = [];
  if (v.completions !== v.events) problems.push(`${v.completions} completions for ${v.events} events`);
  if (v.eventsNotJudgedOnce) problems.push(`${v.eventsNotJudgedOnce} events without exactly one evaluation`);
  if (v.badSignatures) problems.push(`${v.badSignatures} completions with a bad signature`);
  if (v.gatewayFailures) problems.push(`${v.gatewayFailures} evaluations with a gateway failure`);
  if (v.deliveriesSucceeded !== v.events) problems.push(`${v.deliveriesSucceeded} deliveries succeeded`);
  // Requests in flight when autocannon stops a load are committed but never counted as 202s.
  const unseen = v.events - b.seen202;
  if (unseen < 0 || unseen > b.loads * options.connections)
    problems.push(`${v.events} events in Postgres but autocannon saw ${b.seen202} 202s`);
  if (problems.length) throw new Error(`inconsistent run: ${problems.join('; ')}`);
}

/** One request to each route before measuring: both must answer 202 with an event id. */
async function checkTargets(b: Inbound): Promise<void> {
  for (const target of ['inbound', 'bare'] as const) {
    const { url, headers, body } = b.targets[target];
    const response = await fetch(url, { method: 'POST', headers, body });
    const answer = (await response.json()) as { eventId?: unknown };
    if (response.status !== 202 || typeof answer.eventId !== 'string')
      throw new Error(
        `${target} answered ${response.status} ${JSON.stringify(answer)} (BENCH_LOG_LEVEL=error shows the API's log)`,
      );
    if (target === 'inbound') b.seen202++;
  }
}

async function inboundBenchmark(run: BenchRun, execArgv: string[]): Promise<void> {
  const gateway = await run.gateway(options.gatewayDelayMs);
  const receiver = await run.receiver();
  const api = await run.api({}, execArgv);
  const db = await run.postgres();
  await db.query(
    'CREATE TABLE bench_bare (id uuid PRIMARY KEY, body jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now())',
  );
  const bare = await run.serve('bare route', 'inbound.bare.js', run.appEnv(APP.bare));
  log(
    `gateway ${gateway.url}, receiver ${receiver.url}, API ${api.url} (pid ${api.pid}), bare route ${bare.url}`,
  );
  const tenant = await createTenant(api.url);
  await saveEndpoint(tenant.client, receiver.url);
  const body = JSON.stringify({ packId: tenant.packId, ticket: TICKET });
  const json = { 'content-type': 'application/json' };
  const bareQueue = new Queue('bare', {
    prefix: run.redisPrefix,
    connection: { url: options.redisUrl, maxRetriesPerRequest: null },
  });
  run.onClose(() => bareQueue.close());
  const b: Inbound = {
    run,
    probe: await run.probe(),
    completions: new Completions(db, receiver.url),
    targets: {
      inbound: {
        url: `${api.url}/api/webhooks/inbound`,
        headers: { ...json, 'x-api-key': tenant.apiKey },
        body,
      },
      bare: { url: `${bare.url}/bare`, headers: json, body },
    },
    servers: { inbound: api, bare },
    bareQueue,
    seen202: 0,
    loads: 0,
    workerWarnings: 0,
    tenant: { client: tenant.client, packId: tenant.packId },
  };
  await checkTargets(b);
  const runs: LoadRun[] = [];
  const drains: Drain[] = [];
  for (const [index, phase] of phases.entries()) {
    const result = await runPhase(b, phase, index === 0);
    runs.push(...result.runs);
    drains.push(result.drain);
  }
  const growth = options.growth
    ? await measureGrowth(b, await growthInputs(tenant.client, tenant.packId))
    : undefined;
  const verification = await b.completions.verify(b.workerWarnings + (b.worker?.warnings.length ?? 0));
  assertConsistent(b, verification);
  const at = new Date().toISOString();
  const summaries = phases.map((phase) => summarizePhase(runs, phase));
  const settings = settingsOf(options);
  publish(
    {
      benchmark: 'inbound',
      at,
      machine: run.machine,
      settings,
      summaries,
      drains,
      runs,
      verification,
      ...(growth ? { growth } : {}),
    },
    render,
    options.writeDocs,
  );
}

// Profiled: the API and the worker, each into its own directory (the worker's profile covers every
// worker process the phases start, one file each).
const profile = options.profile ? profileFlags() : undefined;
const workerProfile = options.profile ? profileFlags() : undefined;
runMain(async () => {
  await BenchRun.with('inbound', options, {}, (run) => inboundBenchmark(run, profile?.execArgv ?? []));
  if (profile) printProfiles(profile.dir, 'API', 40);
  if (workerProfile) printProfiles(workerProfile.dir, 'Worker', 40);
});
