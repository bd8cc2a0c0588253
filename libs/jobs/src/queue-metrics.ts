import { getQueueToken } from '@nestjs/bullmq';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Queue } from 'bullmq';
import { Metrics } from '@app/metrics';
import { ALL_QUEUES } from './queues.js';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;
/** A scrape while Redis is away answers without queue figures rather than hanging. */
const SCRAPE_TIMEOUT_MS = 1_000;

/** Fills the `queue_jobs` gauge from Redis at each scrape, in the API and the worker alike. */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly metrics: Metrics,
  ) {}

  onModuleInit(): void {
    const queues = ALL_QUEUES.map((name) => ({
      name,
      queue: this.moduleRef.get<Queue>(getQueueToken(name), { strict: false }),
    }));
    this.metrics.onQueueScrape(async () => {
      this.metrics.queueJobs.reset();
      // The read's own failure is caught where it starts: after a timeout nobody awaits it any more,
      // and an unhandled rejection would stop the process.
      const read = Promise.all(
        queues.map(async ({ name, queue }) => ({ name, counts: await queue.getJobCounts(...STATES) })),
      ).catch(() => null);
      const counts = await Promise.race([
        read,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), SCRAPE_TIMEOUT_MS).unref()),
      ]);
      for (const { name, counts: byState } of counts ?? [])
        for (const state of STATES) this.metrics.queueJobs.set({ queue: name, state }, byState[state] ?? 0);
    });
  }
}
