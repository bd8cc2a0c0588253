import type { Job } from 'bullmq';
import { defineJob, isLastAttempt, QUEUES, retriedJobOptions, type JobHandler } from '@app/jobs';
import type { SimulationRunner, TicketOutcome } from '../simulation-runner.js';

export interface JudgeTicketPayload {
  simulationId: string;
  ticketId: string;
}

/** Judges one ticket of the simulation and records its evaluation exactly once. */
export const JUDGE_TICKET_JOB = defineJob<JudgeTicketPayload, TicketOutcome>()({
  queue: QUEUES.simulations,
  name: 'ticket',
  /** The same ticket job is never queued twice. */
  jobId: (simulationId: string, ticketId: string) => `simulation-${simulationId}-${ticketId}`,
  /** Transient failures (database, Redis) are retried; model failures are results, not errors. */
  options: retriedJobOptions({ attempts: 6, delayMs: 1_000, keepCompleted: 5_000, keepFailed: 5_000 }),
});

export class JudgeTicketJob implements JobHandler<typeof JUDGE_TICKET_JOB> {
  readonly definition = JUDGE_TICKET_JOB;

  constructor(private readonly runner: SimulationRunner) {}

  handle(job: Job<JudgeTicketPayload>): Promise<TicketOutcome> {
    const { simulationId, ticketId } = job.data;
    return this.runner.judgeTicket(simulationId, ticketId, { lastAttempt: isLastAttempt(job) });
  }
}
