import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import {
  MAINTENANCE_EVERY_MS,
  MAINTENANCE_JOB_OPTIONS,
  MAINTENANCE_JOBS,
  MAINTENANCE_SCHEDULER_ID,
  QUEUES,
  SWEEP_SCHEDULER_ID,
  type CleanupPayload,
  type SweepPayload,
} from '@app/jobs';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { SimulationRunner } from '@app/simulations';
import { WebhookSweeper } from '@app/webhooks';
import { Cleanup, type CleanupResult } from './cleanup.js';

export interface SweepResult {
  simulations: number;
  events: number;
  deliveries: number;
}

/**
 * Housekeeping on a schedule: `cleanup` deletes expired sessions, idempotency keys and OAuth
 * codes, tokens and grants, and clients never approved (see Cleanup), so tables stay the size of live data; `sweep` enqueues work that was recorded while Redis was away.
 */
@Processor(QUEUES.maintenance)
export class MaintenanceProcessor extends WorkerHost implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MaintenanceProcessor.name);
  private refresh: NodeJS.Timeout | undefined;

  constructor(
    @InjectQueue(QUEUES.maintenance) private readonly queue: Queue<CleanupPayload | SweepPayload>,
    private readonly cleanup: Cleanup,
    private readonly simulations: SimulationRunner,
    private readonly webhooks: WebhookSweeper,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
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
      MAINTENANCE_SCHEDULER_ID,
      { every: MAINTENANCE_EVERY_MS },
      { name: MAINTENANCE_JOBS.cleanup, data: {}, opts: MAINTENANCE_JOB_OPTIONS },
    );
    await this.queue.upsertJobScheduler(
      SWEEP_SCHEDULER_ID,
      { every: this.config.workerSweepMs },
      { name: MAINTENANCE_JOBS.sweep, data: {}, opts: MAINTENANCE_JOB_OPTIONS },
    );
  }

  async process(job: Job<CleanupPayload | SweepPayload>): Promise<CleanupResult | SweepResult> {
    if (job.name === MAINTENANCE_JOBS.sweep) {
      const simulations = await this.simulations.sweep(2 * this.config.workerSweepMs);
      const { events, deliveries } = await this.webhooks.sweep(2 * this.config.workerSweepMs);
      if (simulations || events || deliveries)
        this.logger.log({ jobId: job.id, simulations, events, deliveries }, 'sweep looked at stuck work');
      return { simulations, events, deliveries };
    }
    const result = await this.cleanup.run();
    this.logger.log({ jobId: job.id, ...result }, 'maintenance cleanup done');
    return result;
  }
}
