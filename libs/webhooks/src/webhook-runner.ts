import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { nextAttemptAfter, planAttempt, signBody } from '@app/domain';
import { isModelUnavailable, JudgeService } from '@app/judging';
import { Metrics } from '@app/metrics';
import {
  EndpointLookup,
  PackVersionLookup,
  retryTransient,
  SimulationRepository,
  WebhookRepository,
  type DeliveryRow,
} from '@app/persistence';
import { evaluationCompletion, simulationCompletion, type CompletionRequest } from './completion-body.js';
import { DELIVERY_TIMEOUT_MS, DeliveryClient } from './delivery-client.js';
import { WebhookQueue } from './webhook-queue.js';

export type DeliveryOutcome = 'succeeded' | 'failed' | 'skipped';

/** How long an attempt holds its delivery: the request's own timeout, and time to record it. */
const DELIVERY_CLAIM_MS = DELIVERY_TIMEOUT_MS + 5_000;

/**
 * The worker side of webhooks. Judging an event stores its evaluation and delivery exactly once;
 * a delivery job sends one attempt and throws on failure, so BullMQ's backoff schedules the next.
 */
@Injectable()
export class WebhookRunner {
  private readonly logger = new Logger(WebhookRunner.name);

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly endpoints: EndpointLookup,
    private readonly versions: PackVersionLookup,
    private readonly simulations: SimulationRepository,
    private readonly judge: JudgeService,
    private readonly queue: WebhookQueue,
    private readonly client: DeliveryClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
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
    const createdAt = new Date();
    const deliveryId = randomUUID();
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
        createdAt: createdAt.toISOString(),
      },
    };
    const recorded = await this.webhooks.recordJudgment(evaluation, eventId, createdAt, payload, deliveryId);
    if (!recorded.stored) return this.judgeEvent(eventId, { lastAttempt });
    if (recorded.deliveryId) await this.queue.deliver(recorded.deliveryId);
    return 'judged';
  }

  /**
   * One attempt; throws when it failed and attempts remain, so the job is retried with backoff.
   * The row is claimed first: a second job for the same delivery while this one sends (BullMQ took
   * the job over after a missed lock renewal, or the sweeper recreated it) skips instead of sending
   * twice. A claim left by a dead worker lapses and the sweeper sends again.
   */
  async deliver(deliveryId: string, attemptsMade: number): Promise<DeliveryOutcome> {
    try {
      const outcome = await this.attempt(deliveryId, attemptsMade);
      this.metrics.deliveryAttempts.inc({ outcome });
      return outcome;
    } catch (error) {
      this.metrics.deliveryAttempts.inc({ outcome: 'failed' });
      throw error;
    }
  }

  private async attempt(deliveryId: string, attemptsMade: number): Promise<DeliveryOutcome> {
    const delivery = await this.webhooks.claimDelivery(deliveryId, DELIVERY_CLAIM_MS);
    if (!delivery) return 'skipped';
    const endpoint = await this.endpoints.findFresh(delivery.userId);
    const { roundAttempts, final } = planAttempt(delivery, attemptsMade, this.config.webhooks.maxAttempts);
    const request = endpoint ? await this.completionRequest(delivery) : null;
    if (!endpoint || !request) {
      const error = endpoint ? 'the simulation no longer exists' : 'no completion endpoint saved';
      this.logger.warn({ deliveryId, userId: delivery.userId, error }, 'completion delivery gave up');
      await this.webhooks.recordAttempt(deliveryId, {
        ok: false,
        statusCode: null,
        error,
        final: true,
        nextAttemptAt: null,
      });
      return 'failed';
    }
    // The exact bytes signed are the bytes sent.
    const result = await this.client.post(endpoint.url, request.body, {
      'x-service-signature': signBody(endpoint.secret, request.body),
      'x-service-delivery-id': deliveryId,
      ...request.headers,
    });
    const ok = result.error === null;
    const nextAttemptAt = nextAttemptAfter(new Date(), this.config.webhooks.backoffMs, roundAttempts);
    // Sent now: a record lost to a dropped connection would send it again, so it is retried.
    await retryTransient(() =>
      this.webhooks.recordAttempt(deliveryId, {
        ok,
        statusCode: result.statusCode,
        error: result.error,
        final,
        nextAttemptAt,
      }),
    );
    if (ok) return 'succeeded';
    this.logger.warn(
      {
        deliveryId,
        type: delivery.type,
        eventId: delivery.eventId,
        simulationId: delivery.simulationId,
        attempt: roundAttempts + 1,
        final,
        statusCode: result.statusCode,
      },
      final ? 'completion delivery gave up' : 'completion delivery failed',
    );
    if (final) return 'failed';
    throw new Error(`delivery attempt ${roundAttempts + 1} failed: ${result.error}`);
  }

  /** The signed request for this attempt; null when what it completes is gone. */
  private async completionRequest(delivery: DeliveryRow): Promise<CompletionRequest | null> {
    const sentAt = new Date();
    if (!delivery.simulationId) return evaluationCompletion(delivery, sentAt);
    const simulation = await this.simulations.findForWorker(delivery.simulationId);
    return simulation ? simulationCompletion(delivery, simulation, sentAt) : null;
  }

  /**
   * Work recorded while Redis was away, or whose job Redis lost (it keeps nothing on disk): events
   * never judged, and pending deliveries long past their next attempt. Job ids keep either from
   * running twice. Returns how many of each were looked at.
   */
  async sweep(olderThanMs: number): Promise<{ events: number; deliveries: number }> {
    const ids = await this.webhooks.stuckEvents(olderThanMs);
    for (const id of ids) await this.queue.requeueJudge(id);
    const deliveries = await this.webhooks.overdueDeliveries(olderThanMs);
    for (const { id, round } of deliveries) await this.queue.requeueDeliver(id, round);
    return { events: ids.length, deliveries: deliveries.length };
  }
}
