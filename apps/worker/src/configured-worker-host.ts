import { WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { AppConfig } from '@app/config';
import type { Metrics } from '@app/metrics';

/** Checking for stalled jobs this often moves a dead worker's jobs on soon after their lock lapses. */
const STALLED_CHECKS_PER_LOCK = 6;

/**
 * A BullMQ processor declared with `autorun: false` and started once the configuration is applied:
 * WORKER_CONCURRENCY jobs at once per process, each holding a WORKER_LOCK_MS lock renewed every half
 * of it. A killed worker's jobs return to the queue once their lock lapses, at the next stalled-job
 * check: half a lock to a lock and one check interval after the kill (about 15 to 35 s by default).
 */
export abstract class ConfiguredWorkerHost extends WorkerHost implements OnApplicationBootstrap {
  protected abstract readonly config: AppConfig;
  protected abstract readonly metrics: Metrics;
  private readonly hostLogger = new Logger(this.constructor.name);

  onApplicationBootstrap(): void {
    const lockMs = this.config.workerLockMs;
    this.worker.concurrency = this.config.workerConcurrency;
    this.worker.opts.lockDuration = lockMs;
    this.worker.opts.lockRenewTime = lockMs / 2;
    // Recorded on each job it takes (`processedBy`), so Bull Board shows which worker ran it.
    this.worker.opts.name = this.config.workerName;
    // The Worker built its lock manager with BullMQ's 30 s defaults; rebuilt before run(), renewals
    // extend by WORKER_LOCK_MS, so a shorter lock cannot lapse under a running job.
    (this.worker as unknown as { createLockManager(): void }).createLockManager();
    // The check only moves jobs whose lock is gone, so checking more often than the lock lasts
    // shortens a dead worker's window without touching jobs that are still running.
    this.worker.opts.stalledInterval = Math.max(1_000, Math.round(lockMs / STALLED_CHECKS_PER_LOCK));
    // A busy process can miss a lock renewal; every handler is idempotent, so a job may stall a few
    // times (and be taken over) before BullMQ gives up on it.
    this.worker.opts.maxStalledCount = 5;
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
