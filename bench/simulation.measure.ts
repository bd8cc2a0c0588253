import type { Queue } from 'bullmq';
import type pg from 'pg';
import { JUDGE_TICKET_JOB } from '@app/simulations';
import { percentile } from './harness/load.js';
import { measuredCpuMs, type CpuWindow, type PostgresActivity } from './harness/probes.js';
import type { Service } from './harness/processes.js';

export interface SimulationSettings {
  tickets: number;
  gatewayDelayMs: number;
  concurrency: number;
  workers: number[];
  runs: number;
  pollMs: number;
  settleMs: number;
  /** One untimed simulation on the fresh workers before the timed one (JIT warm-up). */
  warmWorkers: boolean;
}

/** One simulation, timed from the benchmark's POST; the job times come from BullMQ's own stamps. */
export interface SimulationRun {
  round: number;
  workers: number;
  perWorker: number;
  /** POST -> the simulation's recorded `finishedAt`. */
  wallMs: number;
  /** POST -> the first poll that showed it completed. */
  seenMs: number;
  /** POST -> the first ticket job starts: the API's insert and enqueue, the start job, the fan-out. */
  firstJobMs: number;
  /** POST -> the last ticket job has finished. */
  lastJobMs: number;
  /** A ticket job from its start to its end (reads, the wait for a model slot, the call, the recording). */
  jobMsMean: number;
  jobMsP95: number;
  /** The model call as the worker timed it (`latencyMs` of the evaluation). */
  gatewayMsMean: number;
  /** Sum of job times over the judging span: how many jobs ran at once on average. */
  inFlightMean: number;
  /** The model calls' summed latency over the judging span: calls at once on average (at most the concurrency). */
  modelCallsInFlight: number;
  /** Ticket jobs that were started more than once (retried or stalled). */
  restartedJobs: number;
  /** Backends waiting for a lock, on average over the run (sampled from pg_stat_activity). */
  lockWaiting: number;
  /** Mean time a job spent waiting for a lock: lockWaiting x run time / tickets (Little's law). */
  lockWaitMsPerJob: number;
  /** The statement seen waiting most often, if any. */
  lockStatement: string | null;
  /** Backends inside a transaction waiting for the worker's next command, on average. */
  idleInTransaction: number;
  cpuMsPerTicket: { workers: number; api: number; postgres: number; redis: number; gateway: number };
  /** Share of all CPUs busy during the run, every process of the machine included. */
  machineBusy: number;
  /** Share of all CPUs used by the run's own processes (benchmark, API, gateway, workers, Postgres, Redis). */
  runShare: number;
  /** Worker log lines at warn or above. */
  workerWarnings: number;
}

/** What the benchmark saw of one simulation: its POST, its recorded end and the first poll that showed it. */
export interface TimedSimulation {
  id: string;
  /** Epoch ms of the POST, to compare with BullMQ's job stamps (same machine, same clock). */
  postedAt: number;
  /** POST -> the simulation's recorded `finishedAt` (Postgres's clock, on the same machine). */
  wallMs: number;
  /** POST -> the first poll that showed `completed`: the wall time plus up to one poll interval. */
  seenMs: number;
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
    ticketIds.map((ticketId) => queue.getJob(JUDGE_TICKET_JOB.jobId(simulationId, ticketId))),
  );
  return jobs.map((job, i) => {
    if (!job?.processedOn || !job.finishedOn)
      throw new Error(`ticket job of ${ticketIds[i]} has no timestamps`);
    return { start: job.processedOn, end: job.finishedOn, attempts: job.attemptsStarted };
  });
}

export interface RunObservations {
  round: number;
  workers: Service[];
  perWorker: number;
  simulation: TimedSimulation;
  /** CPU over the timed simulation, by group: workers, api, gateway, postgres (the scratch database's backends). */
  cpu: CpuWindow;
  activity: PostgresActivity;
  evaluations: Awaited<ReturnType<typeof checkEvaluations>>;
  jobs: Awaited<ReturnType<typeof jobStamps>>;
}

/** One run's figures from what was observed; per-ticket values divide by the ticket count. */
export function toRun(tickets: number, o: RunObservations): SimulationRun {
  const { cpu, jobs } = o;
  const durations = jobs.map((job) => job.end - job.start).sort((a, b) => a - b);
  const firstStart = Math.min(...jobs.map((job) => job.start));
  const lastEnd = Math.max(...jobs.map((job) => job.end));
  const jobMsTotal = durations.reduce((sum, value) => sum + value, 0);
  const gatewayMsTotal = o.evaluations.reduce((sum, row) => sum + row.latency_ms, 0);
  const spanMs = Math.max(1, lastEnd - firstStart);
  const perTicket = (ms: number) => ms / tickets;
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
    gatewayMsMean: gatewayMsTotal / o.evaluations.length,
    inFlightMean: jobMsTotal / spanMs,
    modelCallsInFlight: gatewayMsTotal / spanMs,
    restartedJobs: jobs.filter((job) => job.attempts > 1).length,
    lockWaiting: o.activity.lockWaiting,
    // Little's law: backends waiting on average x the time sampled / tickets = wait per ticket.
    lockWaitMsPerJob: (o.activity.lockWaiting * o.activity.elapsedMs) / tickets,
    lockStatement: o.activity.lockStatement,
    idleInTransaction: o.activity.idleInTransaction,
    cpuMsPerTicket: {
      workers: perTicket(cpu.groups.workers),
      api: perTicket(cpu.groups.api),
      postgres: perTicket(cpu.groups.postgres),
      redis: perTicket(cpu.redis),
      gateway: perTicket(cpu.groups.gateway),
    },
    machineBusy: cpu.machineBusy,
    runShare: measuredCpuMs(cpu) / cpu.machineTotalMs,
    workerWarnings: o.workers.reduce((sum, worker) => sum + worker.warnings.length, 0),
  };
}
