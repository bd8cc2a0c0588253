import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { AlertMonitor } from '@app/alerts';
import { JobTable, QUEUES } from '@app/jobs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { CalibrationFitService } from '@app/reviews';
import { SimulationRunner } from '@app/simulations';
import { WebhookSweeper } from '@app/webhooks';
import {
  CALIBRATION_REFIT_JOB,
  CalibrationRefitJob,
  type CalibrationRefitPayload,
} from './calibration-refit.job.js';
import { ALERT_CHECK_JOB, AlertCheckJob, type AlertCheckPayload } from './alert-check.job.js';
import { Cleanup } from './cleanup.js';
import { CLEANUP_JOB, CleanupJob, type CleanupPayload } from './cleanup.job.js';
import { SWEEP_JOB, SweepJob, type SweepPayload } from './sweep.job.js';

type MaintenancePayload = CleanupPayload | SweepPayload | CalibrationRefitPayload | AlertCheckPayload;

/**
 * Housekeeping on a schedule: `cleanup` deletes expired sessions, idempotency keys and OAuth
 * codes, tokens and grants, and clients never approved (see Cleanup), so tables stay the size of live data; `sweep` enqueues work that was recorded while Redis was away;
 * `calibration-refit` refits the calibration maps of packs with enough new labels; `alert-check`
 * checks every pack's quality alert rules.
 */
@Processor(QUEUES.maintenance)
export class MaintenanceProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MaintenanceProcessor.name);
  private readonly jobs: JobTable;
  private refresh: NodeJS.Timeout | undefined;

  constructor(
    @InjectQueue(QUEUES.maintenance)
    private readonly queue: Queue<MaintenancePayload>,
    cleanup: Cleanup,
    simulations: SimulationRunner,
    webhooks: WebhookSweeper,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    calibrationFits: CalibrationFitService,
    alerts: AlertMonitor,
  ) {
    super();
    this.jobs = new JobTable(QUEUES.maintenance, [
      new CleanupJob(cleanup),
      new SweepJob(simulations, webhooks, config.workerSweepMs),
      new CalibrationRefitJob(calibrationFits),
      new AlertCheckJob(alerts),
    ]);
  }
  /**
   * Every worker upserts the same scheduler ids, so there is one schedule however many workers run.
   * The schedules live in Redis: a Redis restarted without its data loses them, and with them the
   * sweep that recovers everything else, so each worker upserts them again every sweep interval.
   */
  async onApplicationBootstrap(): Promise<void> {
    await this.upsertSchedulers();
    this.refresh = setInterval(() => {
      this.upsertSchedulers().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'could not refresh the maintenance schedules'),
      );
    }, this.config.workerSweepMs);
    this.refresh.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.refresh);
  }

  private async upsertSchedulers(): Promise<void> {
    await this.queue.upsertJobScheduler(
      CLEANUP_JOB.schedulerId,
      { every: CLEANUP_JOB.everyMs },
      { name: CLEANUP_JOB.name, data: {}, opts: CLEANUP_JOB.options },
    );
    await this.queue.upsertJobScheduler(
      SWEEP_JOB.schedulerId,
      { every: this.config.workerSweepMs },
      { name: SWEEP_JOB.name, data: {}, opts: SWEEP_JOB.options },
    );
    // A new schedule's first check is one interval away, not at once: a worker's start (every test's
    // too) does not refit every pack of the database. An existing schedule keeps its next time.
    const every = this.config.calibrationRefitCheckMs;
    await this.queue.upsertJobScheduler(
      CALIBRATION_REFIT_JOB.schedulerId,
      { every, startDate: Date.now() + every },
      { name: CALIBRATION_REFIT_JOB.name, data: {}, opts: CALIBRATION_REFIT_JOB.options },
    );
    // Likewise one interval away: a worker's start does not check every pack at once.
    const alertEvery = this.config.alertCheckMs;
    await this.queue.upsertJobScheduler(
      ALERT_CHECK_JOB.schedulerId,
      { every: alertEvery, startDate: Date.now() + alertEvery },
      { name: ALERT_CHECK_JOB.name, data: {}, opts: ALERT_CHECK_JOB.options },
    );
  }

  process(job: Job<MaintenancePayload>): Promise<unknown> {
    return this.jobs.run(job);
  }
}
