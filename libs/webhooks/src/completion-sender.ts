import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { nextAttemptAfter, planAttempt, signBody } from '@app/domain';
import { Metrics } from '@app/metrics';
import {
  EndpointLookup,
  retryTransient,
  SimulationRepository,
  WebhookRepository,
  type DeliveryRow,
} from '@app/persistence';
import { evaluationCompletion, simulationCompletion, type CompletionRequest } from './completion-body.js';
import { DELIVERY_TIMEOUT_MS, DeliveryClient } from './delivery-client.js';

export type DeliveryOutcome = 'succeeded' | 'failed' | 'skipped';

/** How long an attempt holds its delivery: the request's own timeout, and time to record it. */
const DELIVERY_CLAIM_MS = DELIVERY_TIMEOUT_MS + 5_000;

/**
 * The worker's completion deliveries (of evaluations and simulations): a job sends one signed
 * attempt and throws on failure, so BullMQ's backoff schedules the next.
 */
@Injectable()
export class CompletionSender {
  private readonly logger = new Logger(CompletionSender.name);

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly endpoints: EndpointLookup,
    private readonly simulations: SimulationRepository,
    private readonly client: DeliveryClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

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
}
