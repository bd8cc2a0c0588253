// `npm run bench:simulation`: a 250-ticket simulation over a fake gateway with a 200 ms latency,
// run by 1, 2 and 4 worker processes, against the bound tickets x latency / total concurrency.
// See docs/performance.md for the method and the figures.
import { Queue } from 'bullmq';
import type pg from 'pg';
import { QUEUES } from '@app/jobs';
import { uploadDataset } from '../test/support/dataset-upload.js';
import { percentile } from './harness/load.js';
import { log, runMain, sleep } from './harness/log.js';
import { flag, num, nums, readOptions, settingsOf } from './harness/options.js';
import { printProfiles, profileFlags } from './harness/profile.js';
import { cpuBetween, loadAverage, type Probe } from './harness/probes.js';
import type { Service } from './harness/processes.js';
import { publish } from './harness/report.js';
import { BenchRun, createTenant, stopWorkers, type Tenant } from './harness/run.js';
import {
  checkEvaluations,
  jobStamps,
  toRun,
  type SimulationRun,
  type TimedSimulation,
} from './simulation.measure.js';
import { lowerBoundMs, render, summarizeRuns, type SimulationResults } from './simulation.report.js';

/** A dataset holds at most this many tickets. */
const MAX_TICKETS = 250;
const options = readOptions({
  tickets: num(MAX_TICKETS),
  gatewayDelayMs: num(200),
  concurrency: num(32),
  workers: nums(1, 2, 4),
  runs: num(3),
  pollMs: num(100),
  settleMs: num(1000),
  // Workers are long-lived in production; like bench:judge's warm-up of the API, one untimed
  // simulation gets them through V8's optimizing compiler first. `BENCH_WARM_WORKERS=0` times the
  // first simulation of freshly started workers instead.
  warmWorkers: flag(true),
});
const tickets = Math.min(MAX_TICKETS, Math.round(options.tickets));
const profile = options.profile ? profileFlags() : undefined;

interface Simulations {
  run: BenchRun;
  tenant: Tenant;
  datasetId: string;
  api: Service;
  gateway: Service;
  probe: Probe;
  db: pg.Client;
  /** The simulations queue, to read BullMQ's stamps of each ticket job. */
  queue: Queue;
}

/**
 * Posts the simulation and polls until it is completed. Its wall time ends at the `finishedAt` the
 * service recorded, so the poll interval (and the load of polling) does not set the figure.
 */
async function runSimulation(s: Simulations, watch: Service[], timeoutMs: number): Promise<TimedSimulation> {
  const postedAt = Date.now();
  const started = performance.now();
  const body = { datasetId: s.datasetId, packId: s.tenant.packId };
  const posted = await s.tenant.client.post<{ id: string }>('/api/simulations', body);
  if (posted.status !== 202)
    throw new Error(`POST /api/simulations answered ${posted.status}: ${posted.text}`);
  const { id } = posted.body;
  for (;;) {
    const { body: view } = await s.tenant.client.get<{
      status: string;
      total: number;
      completed: number;
      reason: string | null;
      finishedAt: string | null;
    }>(`/api/simulations/${id}`);
    if (view.status === 'completed') {
      if (!view.finishedAt || view.completed !== tickets || view.total !== tickets)
        throw new Error(`simulation ${id}: ${JSON.stringify(view)}`);
      const seenMs = performance.now() - started;
      return { id, postedAt, wallMs: Date.parse(view.finishedAt) - postedAt, seenMs };
    }
    if (view.status === 'failed' || view.status === 'cancelled')
      throw new Error(`simulation ${id} is ${view.status}: ${view.reason}`);
    const dead = watch.find((service) => service.died);
    if (dead) throw new Error(`${dead.name} died during the simulation`);
    if (performance.now() - started > timeoutMs)
      throw new Error(`simulation ${id} not completed after ${timeoutMs} ms: ${JSON.stringify(view)}`);
    await sleep(options.pollMs);
  }
}

/** Fresh workers, one timed simulation, its checks and measurements; the workers stopped after. */
async function measureRun(s: Simulations, round: number, workerCount: number): Promise<SimulationRun> {
  const perWorker = Math.max(1, Math.round(options.concurrency / workerCount));
  const env = { WORKER_CONCURRENCY: String(perWorker) };
  const workers = await s.run.workers(workerCount, env, profile?.execArgv);
  try {
    const watch = [...workers, s.api, s.gateway];
    const bound = lowerBoundMs(tickets, options.gatewayDelayMs, options.concurrency);
    const timeoutMs = Math.max(60_000, 10 * bound);
    if (options.warmWorkers) await runSimulation(s, watch, timeoutMs);
    await sleep(options.settleMs);
    const watched = async () => ({
      workers: workers.map((worker) => worker.pid),
      api: [s.api.pid],
      gateway: [s.gateway.pid],
      postgres: await s.probe.postgresPids(),
    });
    const before = await s.probe.snapshot(await watched());
    // pg_stat_activity every 25 ms: often enough for averages, cheap enough not to matter.
    const sampler = s.probe.sampler(25);
    const simulation = await runSimulation(s, watch, timeoutMs).finally(() => sampler.stop());
    const activity = await sampler.stop();
    const cpu = cpuBetween(before, await s.probe.snapshot(await watched()));
    log(
      `Postgres backends of the scratch database, average over the run: ${activity.states
        .map(({ state, backends }) => `${state} ${backends.toFixed(1)}`)
        .join('; ')}; not idle per sample: p50 ${percentile(activity.notIdle, 50)}, ` +
        `p90 ${percentile(activity.notIdle, 90)}, max ${activity.notIdle.at(-1)}`,
    );
    const evaluations = await checkEvaluations(s.db, simulation.id, tickets);
    const ticketIds = evaluations.map((row) => row.dataset_ticket_id);
    const jobs = await jobStamps(s.queue, simulation.id, ticketIds);
    const observed = { round, workers, perWorker, simulation, cpu, activity, evaluations, jobs };
    const measured = toRun(tickets, observed);
    if (measured.gatewayMsMean < options.gatewayDelayMs)
      throw new Error(
        `model calls took ${measured.gatewayMsMean} ms: the workers did not call the fake gateway`,
      );
    return measured;
  } finally {
    await stopWorkers(workers);
  }
}

async function simulationBenchmark(run: BenchRun): Promise<void> {
  const gateway = await run.gateway(options.gatewayDelayMs);
  const api = await run.api();
  log(`gateway ${gateway.url}, API ${api.url} (pid ${api.pid}), database ${run.databaseName}`);
  const tenant = await createTenant(api.url);
  const dataset = await uploadDataset(tenant.client, tickets, `bench ${tickets} tickets`);
  const redis = { url: options.redisUrl, maxRetriesPerRequest: 1 };
  const queue = new Queue(QUEUES.simulations, { prefix: run.redisPrefix, connection: redis });
  run.onClose(() => queue.close());
  const s: Simulations = {
    run,
    tenant,
    datasetId: dataset.id,
    api,
    gateway,
    probe: await run.probe(),
    db: await run.postgres(),
    queue,
  };
  const runs: SimulationRun[] = [];
  for (let round = 1; round <= options.runs; round++) {
    for (const workers of options.workers) {
      const r = await measureRun(s, round, workers);
      runs.push(r);
      log(
        `round ${round}/${options.runs}, ${workers} x ${r.perWorker}: wall ${r.wallMs.toFixed(0)} ms, ` +
          `first job after ${r.firstJobMs} ms, job mean ${r.jobMsMean.toFixed(1)} ms ` +
          `(model ${r.gatewayMsMean.toFixed(1)} ms), ${r.modelCallsInFlight.toFixed(1)} calls and ` +
          `${r.inFlightMean.toFixed(1)} jobs in flight, ` +
          `machine busy ${(r.machineBusy * 100).toFixed(0)}%, load ${loadAverage()}`,
      );
    }
  }
  const settings = { ...settingsOf(options), tickets };
  const results: SimulationResults = {
    benchmark: 'simulation',
    at: new Date().toISOString(),
    machine: run.machine,
    settings,
    summaries: summarizeRuns(runs, settings),
    runs,
  };
  publish(results, render, options.writeDocs);
  log(`load average: before ${run.machine.loadAverage}, after ${loadAverage()}`);
}

runMain(async () => {
  await BenchRun.with('simulation', options, { snapshot: true }, simulationBenchmark);
  if (profile) printProfiles(profile.dir, 'Worker', 20);
});
