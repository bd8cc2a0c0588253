import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { defineJob, QUEUES, type JobHandler } from '@app/jobs';
import type { CalibrationFitService } from '@app/reviews';
import { CLEANUP_JOB } from './cleanup.job.js';

export type CalibrationRefitPayload = Record<string, never>;

export interface CalibrationRefitResult {
  packs: number;
}

/**
 * Refits the calibration maps of every pack that is due (docs/quality.md, "Calibration"): 20 labels
 * written since its last fit, or a day-old fit and any label since. Every CALIBRATION_REFIT_CHECK_MS,
 * under one scheduler id for all workers. A refit replaces the maps, so running it twice is harmless.
 */
export const CALIBRATION_REFIT_JOB = defineJob<CalibrationRefitPayload, CalibrationRefitResult>()({
  queue: QUEUES.maintenance,
  name: 'calibration-refit',
  schedulerId: 'maintenance-calibration-refit',
  options: CLEANUP_JOB.options,
});

export class CalibrationRefitJob implements JobHandler<typeof CALIBRATION_REFIT_JOB> {
  readonly definition = CALIBRATION_REFIT_JOB;
  private readonly logger = new Logger('MaintenanceProcessor');

  constructor(private readonly fits: CalibrationFitService) {}

  async handle(job: Job<CalibrationRefitPayload>): Promise<CalibrationRefitResult> {
    const packs = await this.fits.refitDue();
    if (packs) this.logger.log({ jobId: job.id, packs }, 'calibration maps refitted');
    return { packs };
  }
}
