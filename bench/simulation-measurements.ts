import type { Queue } from 'bullmq';
import type pg from 'pg';
import { simulationTicketJobId } from '@app/jobs';
import { processCpuMs, totalCpuMs } from './cpu-usage.js';
import { percentile } from './load.js';
import type { TimedSimulation } from './simulation-client.js';
import { machineCpuMs, ownCpuMs, redisCpuMs, type PostgresActivity } from './simulation-diagnostics.js';
import type { SimulationRun } from './simulation-report.js';
import { backendPids } from './scratch-stores.js';
import type { WorkerProcess } from './worker-process.js';

export interface RunProcesses {
  /** The server of the scratch database (its backends are found by database name) and that name. */
  databaseUrl: string;
  databaseName: string;
  redisUrl: string;
  apiPid: number;
  gatewayPid: number;
  workerPids: number[];
}

/** CPU so far of the processes a run involves, Postgres backends by pid (they come and go). */
export async function cpuSnapshot(processes: RunProcesses) {
  const backends = await backendPids(processes.databaseUrl, processes.databaseName);
  return {
    redis: await redisCpuMs(processes.redisUrl),
    workers: totalCpuMs(processes.workerPids),
    api: processCpuMs(processes.apiPid),
    gateway: processCpuMs(processes.gatewayPid),
    postgres: new Map(backends.map((pid) => [pid, processCpuMs(pid)])),
    machine: machineCpuMs(),
    bench: ownCpuMs(),
  };
}

/** Exactly one evaluation per ticket, none of them a gateway failure; with each one's model latency. */
export async function checkEvaluations(db: pg.Client, simulationId: string, tickets: number) {
  const { rows } = await db.query<{ dataset_ticket_id: string; latency_ms: number; reasons: string[] }>(
    `SELECT dataset_ticket_id, latency_ms, result -> 'reviewReasons' AS reasons FROM evaluations WHERE simulation_id = $1`,
    [simulationId],
  );
  const distinct = new Set(rows.map((row) => row.dataset_ticket_id)).size;
  if (rows.length !== tickets || distinct !== tickets)
    throw new Error(
      `simulation ${simulationId}: ${rows.length} evaluations for ${distinct} tickets, not ${tickets}`,
    );
  const failed = rows.filter((row) =>
    row.reasons.some((reason) => reason.startsWith('gateway_') || reason === 'invalid_model_output'),
  );
  if (failed.length) throw new Error(`${failed.length} evaluations did not go through the gateway`);
  return rows;
}

/** BullMQ's own stamps of each ticket job: when a worker took it, when it finished, how often it started. */
export async function jobStamps(queue: Queue, simulationId: string, ticketIds: string[]) {
  const jobs = await Promise.all(
    ticketIds.map((ticketId) => queue.getJob(simulationTicketJobId(simulationId, ticketId))),
  );
  return jobs.map((job, i) => {
    if (!job?.processedOn || !job.finishedOn)
      throw new Error(`ticket job of ${ticketIds[i]} has no timestamps`);
    return { start: job.processedOn, end: job.finishedOn, attempts: job.attemptsStarted };
  });
}

type CpuSnapshot = Awaited<ReturnType<typeof cpuSnapshot>>;

export interface RunObservations {
  round: number;
  workers: WorkerProcess[];
  perWorker: number;
  simulation: TimedSimulation;
  before: CpuSnapshot;
  after: CpuSnapshot;
  activity: PostgresActivity;
  evaluations: Awaited<ReturnType<typeof checkEvaluations>>;
  jobs: Awaited<ReturnType<typeof jobStamps>>;
}

/** One run's figures from what was observed; per-ticket values divide by the ticket count. */
export function toRun(tickets: number, o: RunObservations): SimulationRun {
  const { before, after, jobs } = o;
  const durations = jobs.map((job) => job.end - job.start).sort((a, b) => a - b);
  const firstStart = Math.min(...jobs.map((job) => job.start));
  const lastEnd = Math.max(...jobs.map((job) => job.end));
  const jobMsTotal = durations.reduce((sum, value) => sum + value, 0);
  let postgresMs = 0;
  for (const [pid, cpu] of after.postgres) postgresMs += cpu - (before.postgres.get(pid) ?? 0);
  const delta = (key: 'workers' | 'api' | 'gateway' | 'redis' | 'bench') => after[key] - before[key];
  const capacityMs = Math.max(1, after.machine.total - before.machine.total);
  const ownMs = delta('workers') + delta('api') + delta('gateway') + delta('redis') + delta('bench');
  return {
    round: o.round,
    workers: o.workers.length,
    perWorker: o.perWorker,
    wallMs: o.simulation.wallMs,
    seenMs: o.simulation.seenMs,
    firstJobMs: firstStart - o.simulation.postedAt,
    lastJobMs: lastEnd - o.simulation.postedAt,
    jobMsMean: jobMsTotal / durations.length,
    jobMsP95: percentile(durations, 95),
    gatewayMsMean: o.evaluations.reduce((sum, row) => sum + row.latency_ms, 0) / o.evaluations.length,
    inFlightMean: jobMsTotal / Math.max(1, lastEnd - firstStart),
    restartedJobs: jobs.filter((job) => job.attempts > 1).length,
    lockWaiting: o.activity.lockWaiting,
    // Little's law: backends waiting on average x the time sampled / tickets = wait per ticket.
    lockWaitMsPerJob: (o.activity.lockWaiting * o.activity.elapsedMs) / tickets,
    lockStatement: o.activity.lockStatement,
    idleInTransaction: o.activity.idleInTransaction,
    cpuMsPerTicket: {
      workers: delta('workers') / tickets,
      api: delta('api') / tickets,
      postgres: postgresMs / tickets,
      redis: delta('redis') / tickets,
      gateway: delta('gateway') / tickets,
    },
    machineBusy: (after.machine.busy - before.machine.busy) / capacityMs,
    runShare: (ownMs + postgresMs) / capacityMs,
    workerWarnings: o.workers.reduce(
      (sum, worker) => sum + worker.lines.filter((line) => line.level >= 40).length,
      0,
    ),
  };
}
