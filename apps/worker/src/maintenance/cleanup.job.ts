import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { defineJob, QUEUES, retriedJobOptions, type JobHandler } from '@app/jobs';
import type { Cleanup, CleanupResult } from './cleanup.js';

export type CleanupPayload = Record<string, never>;

/** Removes expired sessions, idempotency keys and OAuth credentials, and never-approved OAuth clients. */
export const CLEANUP_JOB = defineJob<CleanupPayload, CleanupResult>()({
  queue: QUEUES.maintenance,
  name: 'cleanup',
  /** Scheduled hourly by every worker under one scheduler id, so there is one schedule. */
  schedulerId: 'maintenance-cleanup-hourly',
  everyMs: 60 * 60 * 1000,
  options: retriedJobOptions({ attempts: 3, delayMs: 10_000, keepCompleted: 24, keepFailed: 100 }),
});

export class CleanupJob implements JobHandler<typeof CLEANUP_JOB> {
  readonly definition = CLEANUP_JOB;
  private readonly logger = new Logger('MaintenanceProcessor');

  constructor(private readonly cleanup: Cleanup) {}

  async handle(job: Job<CleanupPayload>): Promise<CleanupResult> {
    const result = await this.cleanup.run();
    this.logger.log({ jobId: job.id, ...result }, 'maintenance cleanup done');
    return result;
  }
}
