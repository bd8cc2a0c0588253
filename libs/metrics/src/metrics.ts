import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The process's Prometheus metrics (API and worker alike), served at `/metrics` on the API and on
 * each worker's health port. Names and labels are documented in docs/operations.md; labels hold
 * route patterns and kinds, never ids or user data, so their number stays bounded.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'rate_limit_refusals_total',
    help: 'Requests refused with 429, by route pattern',
    labelNames: ['route'] as const,
    registers: [this.registry],
  });

  readonly judgments = new Counter({
    name: 'judgments_total',
    help: "Judgments by source (shadow: a shadow run's), status and failure kind (none when the model answered)",
    labelNames: ['source', 'status', 'failure'] as const,
    registers: [this.registry],
  });

  readonly modelCalls = new Histogram({
    name: 'model_call_duration_seconds',
    help: 'Model gateway calls by outcome (ok, or the failure kind)',
    labelNames: ['outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  readonly deliveryAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Completion delivery attempts by outcome (succeeded, failed, skipped, claimed, unrecorded)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly jobs = new Histogram({
    name: 'queue_job_duration_seconds',
    help: 'Jobs run by this worker, by queue, job name and outcome (completed, failed)',
    labelNames: ['queue', 'name', 'outcome'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  readonly jobWait = new Histogram({
    name: 'queue_job_wait_seconds',
    help: 'Time from a job becoming runnable to a worker taking it, by queue and job name',
    labelNames: ['queue', 'name'] as const,
    buckets: SECONDS,
    registers: [this.registry],
  });

  /** Filled at each scrape by whoever can read the queues (see QueueMetrics in @app/jobs). */
  readonly queueJobs = new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each queue by state (waiting, active, delayed, failed, completed)',
    labelNames: ['queue', 'state'] as const,
    registers: [this.registry],
    collect: () => this.collectQueues?.(),
  });

  private collectQueues?: () => Promise<void>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  onQueueScrape(collect: () => Promise<void>): void {
    this.collectQueues = collect;
  }
}
