import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { defineJob, QUEUES, type JobHandler } from '@app/jobs';
import type { SimulationRunner } from '@app/simulations';
import type { WebhookSweeper } from '@app/webhooks';
import { CLEANUP_JOB } from './cleanup.job.js';

export type SweepPayload = Record<string, never>;

export interface SweepResult {
  simulations: number;
  events: number;
  deliveries: number;
}

/**
 * Re-enqueues work that was accepted in Postgres but never reached the queue (Redis was away):
 * every WORKER_SWEEP_MS, work still queued twice that long after it was accepted.
 */
export const SWEEP_JOB = defineJob<SweepPayload, SweepResult>()({
  queue: QUEUES.maintenance,
  name: 'sweep',
  schedulerId: 'maintenance-sweep',
  options: CLEANUP_JOB.options,
});

export class SweepJob implements JobHandler<typeof SWEEP_JOB> {
  readonly definition = SWEEP_JOB;
  private readonly logger = new Logger('MaintenanceProcessor');

  constructor(
    private readonly simulations: SimulationRunner,
    private readonly webhooks: WebhookSweeper,
    private readonly sweepMs: number,
  ) {}

  async handle(job: Job<SweepPayload>): Promise<SweepResult> {
    const simulations = await this.simulations.sweep(2 * this.sweepMs);
    const { events, deliveries } = await this.webhooks.sweep(2 * this.sweepMs);
    if (simulations || events || deliveries)
      this.logger.log({ jobId: job.id, simulations, events, deliveries }, 'sweep looked at stuck work');
    return { simulations, events, deliveries };
  }
}
