import { InjectQueue } from '@nestjs/bullmq';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { ENQUEUE_TIMEOUT_MS, QUEUES, within } from '@app/jobs';
import { DELIVER_JOB, type DeliverPayload } from './jobs/deliver.job.js';
import { JUDGE_EVENT_JOB, type JudgeEventPayload } from './jobs/judge-event.job.js';

/** Enqueues inbound judging and completion deliveries; job ids make repeats harmless. */
@Injectable()
export class WebhookQueue {
  private readonly logger = new Logger(WebhookQueue.name);

  constructor(
    @InjectQueue(QUEUES.webhooks) private readonly queue: Queue<JudgeEventPayload | DeliverPayload>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async judge(eventId: string): Promise<void> {
    await within(
      this.queue.add(
        JUDGE_EVENT_JOB.name,
        { eventId },
        { ...JUDGE_EVENT_JOB.options, jobId: JUDGE_EVENT_JOB.jobId(eventId) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }

  /** For the sweeper: the event's judge job, unless it is already waiting or running. */
  async requeueJudge(eventId: string): Promise<void> {
    await this.requeue(JUDGE_EVENT_JOB.jobId(eventId), () => this.judge(eventId));
  }

  /** For the sweeper: the delivery's job in `round`, unless it is already waiting, delayed or running. */
  async requeueDeliver(deliveryId: string, round: number): Promise<void> {
    await this.requeue(DELIVER_JOB.jobId(deliveryId, round), () => this.deliver(deliveryId, round));
  }

  /** `round` distinguishes a manual redelivery from the first run of the same delivery. */
  async deliver(deliveryId: string, round = 0): Promise<void> {
    const { maxAttempts, backoffMs } = this.config.webhooks;
    await within(
      this.queue.add(
        DELIVER_JOB.name,
        { deliveryId },
        { ...DELIVER_JOB.options(maxAttempts, backoffMs), jobId: DELIVER_JOB.jobId(deliveryId, round) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }

  /**
   * A new delivery's first attempt, for callers that must not fail with Redis away: its row is
   * pending already, so the sweeper sends it later.
   */
  async deliverSoon(deliveryId: string): Promise<void> {
    await this.deliver(deliveryId).catch((error: unknown) =>
      this.logger.warn({ err: error, deliveryId }, 'enqueue failed; the sweeper will send it'),
    );
  }

  /**
   * A job that is waiting, delayed or running is left alone (never two chains for one piece of
   * work); one that failed for good is retried, one that completed without its work recorded is
   * replaced, and a missing one (lost with Redis) is enqueued again.
   */
  private async requeue(jobId: string, enqueue: () => Promise<void>): Promise<void> {
    const job = await within(this.queue.getJob(jobId), ENQUEUE_TIMEOUT_MS);
    if (!job) return enqueue();
    const state = await job.getState();
    if (state === 'failed') await job.retry('failed');
    else if (state === 'completed') {
      await job.remove();
      await enqueue();
    }
  }
}
