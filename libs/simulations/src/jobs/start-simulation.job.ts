import type { Job } from 'bullmq';
import { defineJob, QUEUES, retriedJobOptions, type JobHandler } from '@app/jobs';
import type { SimulationRunner } from '../simulation-runner.js';

export interface StartSimulationPayload {
  simulationId: string;
}

/** Marks the simulation running and fans out one `ticket` job per dataset ticket; returns their number. */
export const START_SIMULATION_JOB = defineJob<StartSimulationPayload, number>()({
  queue: QUEUES.simulations,
  name: 'start',
  /** The same start job is never queued twice. */
  jobId: (simulationId: string) => `simulation-${simulationId}`,
  /** Transient failures (database, Redis) are retried; model failures are results, not errors. */
  options: retriedJobOptions({ attempts: 6, delayMs: 1_000, keepCompleted: 5_000, keepFailed: 5_000 }),
});

export class StartSimulationJob implements JobHandler<typeof START_SIMULATION_JOB> {
  readonly definition = START_SIMULATION_JOB;

  constructor(private readonly runner: SimulationRunner) {}

  handle(job: Job<StartSimulationPayload>): Promise<number> {
    return this.runner.start(job.data.simulationId);
  }
}
