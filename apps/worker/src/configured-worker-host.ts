import { WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@app/config';

/**
 * A BullMQ processor declared with `autorun: false` and started once the configuration is applied:
 * WORKER_CONCURRENCY jobs at once per process, and a killed worker's jobs return to the queue
 * after WORKER_LOCK_MS (its lock lapses and the stalled-job check hands them on, up to 5 times).
 */
export abstract class ConfiguredWorkerHost extends WorkerHost implements OnApplicationBootstrap {
  protected abstract readonly config: AppConfig;
  private readonly hostLogger = new Logger(this.constructor.name);

  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.workerConcurrency;
    this.worker.opts.lockDuration = this.config.workerLockMs;
    this.worker.opts.stalledInterval = this.config.workerLockMs;
    // A busy process can miss a lock renewal; every handler is idempotent, so a job may stall a few
    // times (and be taken over) before BullMQ gives up on it.
    this.worker.opts.maxStalledCount = 5;
    this.worker.run().catch((error: unknown) => this.hostLogger.error({ err: error }, 'worker stopped'));
  }
}
