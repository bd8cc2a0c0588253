import { Metrics } from '@app/metrics';
import { Processor } from '@nestjs/bullmq';
import { Inject } from '@nestjs/common';
import { DelayedError, type Job } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { QUEUES, WEBHOOK_JOBS, type DeliverPayload, type JudgeEventPayload } from '@app/jobs';
import { CompletionSender, InboundJudge, type DeliveryOutcome } from '@app/webhooks';
import { ConfiguredWorkerHost, isLastAttempt } from '../configured-worker-host.js';

type WebhookJob =
  | Job<JudgeEventPayload, string, typeof WEBHOOK_JOBS.judge>
  | Job<DeliverPayload, DeliveryOutcome['kind'], typeof WEBHOOK_JOBS.deliver>;

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

  async process(job: WebhookJob, token?: string): Promise<string> {
    if (job.name === WEBHOOK_JOBS.judge)
      return this.inbound.judgeEvent(job.data.eventId, { lastAttempt: isLastAttempt(job) });
    const outcome = await this.completions.deliver(job.data.deliveryId, job.attemptsMade);
    if (outcome.kind !== 'claimed') return outcome.kind;
    // Another attempt holds the delivery: this job comes back when that claim ends (sending then
    // if its holder died), without spending one of its attempts.
    await job.moveToDelayed(Date.now() + outcome.retryInMs, token);
    throw new DelayedError();
  }
}
