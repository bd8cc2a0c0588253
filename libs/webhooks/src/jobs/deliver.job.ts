import { DelayedError, type Job } from 'bullmq';
import { defineJob, QUEUES, retriedJobOptions, type JobHandler } from '@app/jobs';
import type { CompletionSender, DeliveryOutcome } from '../completion-sender.js';

export interface DeliverPayload {
  deliveryId: string;
}

type Sent = Exclude<DeliveryOutcome['kind'], 'claimed'>;

/** Sends one completion delivery; BullMQ's attempts and backoff are the retry schedule. */
export const DELIVER_JOB = defineJob<DeliverPayload, Sent>()({
  queue: QUEUES.webhooks,
  name: 'deliver',
  /** `round` distinguishes a manual redelivery from the first run of the same delivery. */
  jobId: (deliveryId: string, round = 0) => `delivery-${deliveryId}-${round}`,
  /** Exponential backoff from `backoffMs`, with jitter so receivers are not hit in waves. */
  options: (maxAttempts: number, backoffMs: number) =>
    retriedJobOptions({
      attempts: maxAttempts,
      delayMs: backoffMs,
      jitter: 0.3,
      keepCompleted: 5_000,
      keepFailed: 5_000,
    }),
});

export class DeliverJob implements JobHandler<typeof DELIVER_JOB> {
  readonly definition = DELIVER_JOB;

  constructor(private readonly completions: CompletionSender) {}

  async handle(job: Job<DeliverPayload>, token?: string): Promise<Sent> {
    const outcome = await this.completions.deliver(job.data.deliveryId, job.attemptsMade);
    if (outcome.kind !== 'claimed') return outcome.kind;
    // Another attempt holds the delivery: this job comes back when that claim ends (sending then
    // if its holder died), without spending one of its attempts.
    await job.moveToDelayed(Date.now() + outcome.retryInMs, token);
    throw new DelayedError();
  }
}
