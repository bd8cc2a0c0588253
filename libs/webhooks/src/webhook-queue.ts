import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  deliveryJobId,
  deliveryJobOptions,
  ENQUEUE_TIMEOUT_MS,
  inboundEventJobId,
  JUDGE_EVENT_JOB_OPTIONS,
  QUEUES,
  WEBHOOK_JOBS,
  within,
  type DeliverPayload,
  type JudgeEventPayload,
} from '@app/jobs';

/** Enqueues inbound judging and completion deliveries; job ids make repeats harmless. */
@Injectable()
export class WebhookQueue {
  constructor(
    @InjectQueue(QUEUES.webhooks) private readonly queue: Queue<JudgeEventPayload | DeliverPayload>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async judge(eventId: string): Promise<void> {
    await within(
      this.queue.add(
        WEBHOOK_JOBS.judge,
        { eventId },
        { ...JUDGE_EVENT_JOB_OPTIONS, jobId: inboundEventJobId(eventId) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }

  /**
   * For the sweeper: enqueues the event's job unless it is already waiting or running; a job that
   * failed for good (its attempts spent while Postgres was away, say) is retried rather than lost.
   */
  async requeueJudge(eventId: string): Promise<void> {
    const job = await within(this.queue.getJob(inboundEventJobId(eventId)), ENQUEUE_TIMEOUT_MS);
    if (!job) return this.judge(eventId);
    const state = await job.getState();
    if (state === 'failed') await job.retry('failed');
    else if (state === 'completed') {
      await job.remove();
      await this.judge(eventId);
    }
  }

  /**
   * For the sweeper: the same, for a pending delivery in `round`. A job still waiting, delayed for
   * its backoff or running is left alone, so a delivery is never sent by two chains at once.
   */
  async requeueDeliver(deliveryId: string, round: number): Promise<void> {
    const job = await within(this.queue.getJob(deliveryJobId(deliveryId, round)), ENQUEUE_TIMEOUT_MS);
    if (!job) return this.deliver(deliveryId, round);
    const state = await job.getState();
    if (state === 'failed') await job.retry('failed');
    else if (state === 'completed') {
      await job.remove();
      await this.deliver(deliveryId, round);
    }
  }

  /** `round` distinguishes a manual redelivery from the first run of the same delivery. */
  async deliver(deliveryId: string, round = 0): Promise<void> {
    const { maxAttempts, backoffMs } = this.config.webhooks;
    await within(
      this.queue.add(
        WEBHOOK_JOBS.deliver,
        { deliveryId },
        { ...deliveryJobOptions(maxAttempts, backoffMs), jobId: deliveryJobId(deliveryId, round) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }
}
