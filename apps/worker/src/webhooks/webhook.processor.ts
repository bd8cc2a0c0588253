import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Inject, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { QUEUES, WEBHOOK_JOBS, type DeliverPayload, type JudgeEventPayload } from '@app/jobs';
import { WebhookRunner, type DeliveryOutcome } from '@app/webhooks';

type WebhookJob =
  | Job<JudgeEventPayload, string, typeof WEBHOOK_JOBS.judge>
  | Job<DeliverPayload, DeliveryOutcome, typeof WEBHOOK_JOBS.deliver>;

/** Judges inbound events and sends their signed completions. */
@Processor(QUEUES.webhooks, { autorun: false })
export class WebhookProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookProcessor.name);

  constructor(
    private readonly runner: WebhookRunner,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super();
  }

  /** Same settings as the simulation worker: WORKER_CONCURRENCY and WORKER_LOCK_MS. */
  onApplicationBootstrap(): void {
    this.worker.concurrency = this.config.workerConcurrency;
    this.worker.opts.lockDuration = this.config.workerLockMs;
    this.worker.opts.stalledInterval = this.config.workerLockMs;
    this.worker.run().catch((error: unknown) => this.logger.error({ err: error }, 'webhook worker stopped'));
  }

  async process(job: WebhookJob): Promise<string> {
    if (job.name === WEBHOOK_JOBS.judge) return this.runner.judgeEvent(job.data.eventId);
    return this.runner.deliver(job.data.deliveryId, job.attemptsMade);
  }
}
