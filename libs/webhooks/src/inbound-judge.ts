import { Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { isModelUnavailable, JudgeService } from '@app/judging';
import { PackVersionLookup, WebhookRepository } from '@app/persistence';
import { WebhookQueue } from './webhook-queue.js';

/**
 * The worker's judging of inbound events: each event's evaluation and its delivery are stored
 * exactly once, whatever the number of jobs that run it; the delivery is then queued.
 */
@Injectable()
export class InboundJudge {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly versions: PackVersionLookup,
    private readonly judge: JudgeService,
    private readonly queue: WebhookQueue,
  ) {}

  /** `lastAttempt` false: an unreachable model throws, for the job to be retried with backoff. */
  async judgeEvent(eventId: string, { lastAttempt = true } = {}): Promise<'judged' | 'duplicate'> {
    const event = await this.webhooks.findEvent(eventId);
    if (!event) throw new UnrecoverableError(`event ${eventId} does not exist`);
    if (event.evaluationId) {
      // Judged before (a retry after a crash): make sure its delivery is on its way.
      const delivery = await this.webhooks.findDeliveryForEvent(eventId);
      if (delivery?.status === 'pending' && delivery.attempts === 0)
        await this.queue.deliver(delivery.id, delivery.round);
      return 'duplicate';
    }
    const version = await this.versions.find(event.userId, event.packVersionId);
    if (!version) throw new UnrecoverableError(`version ${event.packVersionId} does not exist`);
    const evaluation = await this.judge.evaluate({
      userId: event.userId,
      packId: event.packId,
      packVersionId: version.id,
      document: version.document,
      ticket: event.ticket,
      source: 'webhook',
    });
    if (!lastAttempt && isModelUnavailable(evaluation.result))
      throw new Error('the model gateway was unavailable; the event will be judged again');
    const deliveryId = randomUUID();
    // evaluation.createdAt is added by the insert: the row's stamp is Postgres's, taken as it inserts.
    const payload = {
      type: 'evaluation.completed',
      eventId,
      deliveryId,
      evaluation: {
        id: evaluation.id,
        packId: evaluation.packId,
        packVersionId: evaluation.packVersionId,
        source: evaluation.source,
        status: evaluation.status,
        result: evaluation.result,
      },
    };
    const recorded = await this.webhooks.recordJudgment(evaluation, eventId, payload, deliveryId);
    if (!recorded.stored) return this.judgeEvent(eventId, { lastAttempt });
    if (recorded.deliveryId) await this.queue.deliver(recorded.deliveryId);
    return 'judged';
  }
}
