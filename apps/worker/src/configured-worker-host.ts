import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import type { Job, WorkerOptions } from 'bullmq';
import type { AppConfig } from '@app/config';
import type { Metrics } from '@app/metrics';

/** Checking for stalled jobs this often moves a dead worker's jobs on soon after their lock lapses. */
const STALLED_CHECKS_PER_LOCK = 6;

/**
 * The options the Worker of a configured processor is built with: WORKER_CONCURRENCY jobs at once
 * per process, each holding a WORKER_LOCK_MS lock renewed every half of it. A killed worker's jobs
 * return to the queue once their lock lapses, at the next stalled-job check: half a lock to a lock
 * and one check interval after the kill (about 15 to 35 s by default).
 */
export function configuredWorkerOptions(config: AppConfig): Omit<WorkerOptions, 'connection'> {
  const lockMs = config.workerLockMs;
  return {
    // Started by ConfiguredWorkerHost once the application is up, its listeners attached.
    autorun: false,
    concurrency: config.workerConcurrency,
    lockDuration: lockMs,
    lockRenewTime: lockMs / 2,
    // Recorded on each job it takes (`processedBy`), so Bull Board shows which worker ran it.
    name: config.workerName,
    // The check only moves jobs whose lock is gone, so checking more often than the lock lasts
    // shortens a dead worker's window without touching jobs that are still running.
    stalledInterval: Math.max(1_000, Math.round(lockMs / STALLED_CHECKS_PER_LOCK)),
    // A busy process can miss a lock renewal; every handler is idempotent, so a job may stall a few
    // times (and be taken over) before BullMQ gives up on it.
    maxStalledCount: 5,
  };
}

/**
 * Declares `processor` the processor of `queue`, its Worker built with configuredWorkerOptions (and
 * `overrides`: the shadow queue's own concurrency and limiter, the simulations queue's concurrency).
 * @nestjs/bullmq builds each Worker (when BullRegistrar.register() runs) from the options given to
 * `@Processor(queue, options)` and only those: the shared BullModule configuration gives it just its
 * connection, prefix and telemetry. The options come from the configuration, which a decorator
 * written on the class cannot see, so the decorator is applied here, by WorkerModule.forRoot, once
 * per process and before Nest reads the class.
 */
export function configuredProcessor<T extends Type<ConfiguredWorkerHost>>(
  processor: T,
  queue: string,
  config: AppConfig,
  overrides: Pick<WorkerOptions, 'concurrency' | 'limiter'> = {},
): T {
  Processor(queue, { ...configuredWorkerOptions(config), ...overrides })(processor);
  return processor;
}

/**
 * A BullMQ processor whose Worker is built with the configured options (configuredProcessor) and
 * started once the application is up, with the job metrics recorded.
 */
export abstract class ConfiguredWorkerHost extends WorkerHost implements OnApplicationBootstrap {
  protected abstract readonly metrics: Metrics;
  private readonly hostLogger = new Logger(this.constructor.name);

  onApplicationBootstrap(): void {
    this.worker.on('completed', (job) => this.observe(job, 'completed'));
    this.worker.on('failed', (job) => job && this.observe(job, 'failed'));
    this.worker.run().catch((error: unknown) => this.hostLogger.error({ err: error }, 'worker stopped'));
  }

  /** How long the job ran, and how long it waited once runnable (after any delay or backoff). */
  private observe(job: Job, outcome: 'completed' | 'failed'): void {
    const labels = { queue: job.queueName, name: job.name };
    if (job.processedOn && job.finishedOn)
      this.metrics.jobs.observe({ ...labels, outcome }, (job.finishedOn - job.processedOn) / 1000);
    if (job.processedOn && outcome === 'completed' && job.attemptsMade <= 1)
      this.metrics.jobWait.observe(
        labels,
        Math.max(0, job.processedOn - job.timestamp - (job.delay ?? 0)) / 1000,
      );
  }
}
