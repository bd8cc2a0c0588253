import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { AlertCheckResult, AlertMonitor } from '@app/alerts';
import { defineJob, QUEUES, type JobHandler } from '@app/jobs';
import { CLEANUP_JOB } from './cleanup.job.js';

export type AlertCheckPayload = Record<string, never>;

/**
 * Checks every pack's quality alert rules (docs/alerts.md): every ALERT_CHECK_MS, under one
 * scheduler id for all workers. An alert is unique per (pack, rule, question) while not closed,
 * so a second run opens and sends nothing more.
 */
export const ALERT_CHECK_JOB = defineJob<AlertCheckPayload, AlertCheckResult>()({
  queue: QUEUES.maintenance,
  name: 'alert-check',
  schedulerId: 'maintenance-alert-check',
  options: CLEANUP_JOB.options,
});

export class AlertCheckJob implements JobHandler<typeof ALERT_CHECK_JOB> {
  readonly definition = ALERT_CHECK_JOB;
  private readonly logger = new Logger('MaintenanceProcessor');

  constructor(private readonly monitor: AlertMonitor) {}

  async handle(job: Job<AlertCheckPayload>): Promise<AlertCheckResult> {
    const result = await this.monitor.run();
    if (result.opened || result.closed)
      this.logger.log({ jobId: job.id, ...result }, 'quality alerts checked');
    return result;
  }
}
