import { Metrics } from '@app/metrics';
import { Processor } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import type { Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { QUEUES, WEBHOOK_JOBS, type DeliverPayload, type JudgeEventPayload } from '@app/jobs';
import { CompletionSender, InboundJudge, type DeliveryOutcome } from '@app/webhooks';
import { ConfiguredWorkerHost, isLastAttempt } from '../configured-worker-host.js';

type WebhookJob =
  | Job<JudgeEventPayload, string, typeof WEBHOOK_JOBS.judge>
  | Job<DeliverPayload, DeliveryOutcome, typeof WEBHOOK_JOBS.deliver>;

/** Judges inbound events and sends their signed completions. */
@Processor(QUEUES.webhooks, { autorun: false })
export class WebhookProcessor extends ConfiguredWorkerHost {
  constructor(
    private readonly inbound: InboundJudge,
    private readonly completions: CompletionSender,
    @Inject(APP_CONFIG) protected readonly config: AppConfig,
    protected readonly metrics: Metrics,
  ) {
    super();
  }

  async process(job: WebhookJob): Promise<string> {
    if (job.name === WEBHOOK_JOBS.judge)
      return this.inbound.judgeEvent(job.data.eventId, { lastAttempt: isLastAttempt(job) });
    return this.completions.deliver(job.data.deliveryId, job.attemptsMade);
  }
}
