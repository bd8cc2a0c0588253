import { InjectQueue, Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import {
  MAINTENANCE_EVERY_MS,
  MAINTENANCE_JOB_OPTIONS,
  MAINTENANCE_JOBS,
  MAINTENANCE_SCHEDULER_ID,
  QUEUES,
  type CleanupPayload,
} from '@app/jobs';
import { IdempotencyKeyRepository, SessionRepository } from '@app/persistence';

export interface CleanupResult {
  sessions: number;
  idempotencyKeys: number;
}

/** Deletes expired sessions and idempotency keys, so both tables stay the size of live data. */
@Processor(QUEUES.maintenance)
export class MaintenanceProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    @InjectQueue(QUEUES.maintenance) private readonly queue: Queue<CleanupPayload>,
    private readonly sessions: SessionRepository,
    private readonly idempotencyKeys: IdempotencyKeyRepository,
  ) {
    super();
  }

  /** Every worker upserts the same scheduler id, so there is one schedule however many workers run. */
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      MAINTENANCE_SCHEDULER_ID,
      { every: MAINTENANCE_EVERY_MS, immediately: true },
      { name: MAINTENANCE_JOBS.cleanup, data: {}, opts: MAINTENANCE_JOB_OPTIONS },
    );
  }

  async process(job: Job<CleanupPayload>): Promise<CleanupResult> {
    const result = {
      sessions: await this.sessions.deleteExpired(),
      idempotencyKeys: await this.idempotencyKeys.deleteExpired(),
    };
    this.logger.log({ jobId: job.id, ...result }, 'maintenance cleanup done');
    return result;
  }
}
