import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import {
  nextAttemptAfter,
  planAttempt,
  recordOfAttempt,
  retryAfterClaimRefused,
  signBody,
  type AttemptOutcome,
} from '@app/domain';
import { Metrics } from '@app/metrics';
import {
  retryTransient,
  SimulationRepository,
  WebhookRepository,
  type ClaimedDelivery,
  type DeliveryRow,
} from '@app/persistence';
import {
  alertNotice,
  evaluationCompletion,
  simulationCompletion,
  type CompletionRequest,
} from './completion-body.js';
import { DeliveryClient } from './delivery-client.js';

/**
 * What one run did. `skipped`: nothing left to send. `claimed`: another attempt holds the delivery;
 * run again in `retryInMs`. `unrecorded`: sent, but the claim had been taken over before the record.
 */
export type DeliveryOutcome =
  { kind: 'succeeded' | 'failed' | 'skipped' | 'unrecorded' } | { kind: 'claimed'; retryInMs: number };

/**
 * The worker's completion deliveries (of evaluations, simulations and quality alerts): a job sends one signed
 * attempt and throws on failure, so BullMQ's backoff schedules the next.
 */
@Injectable()
export class CompletionSender {
  private readonly logger = new Logger(CompletionSender.name);

  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly simulations: SimulationRepository,
    private readonly client: DeliveryClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly metrics: Metrics,
  ) {}

  /**
   * One attempt; throws when it failed and attempts remain, so the job is retried with backoff.
   * The row is claimed first, under a token of this attempt, and the claim is renewed while it
   * runs: a second run for the same delivery (BullMQ took the job over after a missed lock renewal,
   * or the sweeper recreated it) is told to come back when the claim ends instead of sending twice.
   * A claim left by a dead worker lapses, and that second run sends.
   */
  async deliver(deliveryId: string, attemptsMade: number): Promise<DeliveryOutcome> {
    try {
      const outcome = await this.attempt(deliveryId, attemptsMade);
      this.metrics.deliveryAttempts.inc({ outcome: outcome.kind });
      return outcome;
    } catch (error) {
      this.metrics.deliveryAttempts.inc({ outcome: 'failed' });
      throw error;
    }
  }

  private async attempt(deliveryId: string, attemptsMade: number): Promise<DeliveryOutcome> {
    const owner = randomUUID();
    const { claimMs } = this.config.webhooks;
    const claimed = await this.webhooks.claimDelivery(deliveryId, owner, claimMs);
    if (!claimed) {
      const retryInMs = retryAfterClaimRefused(await this.webhooks.findClaim(deliveryId));
      return retryInMs === null ? { kind: 'skipped' } : { kind: 'claimed', retryInMs };
    }
    // Renewed while the attempt runs, so a slow receiver or a slow record keeps the delivery ours;
    // only a worker that stops running (crash, frozen loop) lets the claim lapse.
    const renewal = setInterval(() => {
      this.webhooks
        .renewClaim(deliveryId, owner, claimMs)
        .catch((error: unknown) => this.logger.warn({ err: error, deliveryId }, 'claim renewal failed'));
    }, claimMs / 3);
    try {
      return await this.attemptClaimed(claimed, owner, attemptsMade);
    } finally {
      clearInterval(renewal);
    }
  }

  private async attemptClaimed(
    { delivery, endpoint }: ClaimedDelivery,
    owner: string,
    attemptsMade: number,
  ): Promise<DeliveryOutcome> {
    const deliveryId = delivery.id;
    const { roundAttempts, final } = planAttempt(delivery, attemptsMade, this.config.webhooks.maxAttempts);
    const request = endpoint ? await this.completionRequest(delivery) : null;
    if (!endpoint || !request) {
      const error = endpoint ? 'the simulation no longer exists' : 'no completion endpoint saved';
      this.logger.warn({ deliveryId, userId: delivery.userId, error }, 'completion delivery gave up');
      const record = { ok: false, statusCode: null, error, final: true, nextAttemptAt: null };
      return (await this.record(deliveryId, owner, record)) ? { kind: 'failed' } : { kind: 'unrecorded' };
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
    const record = { ok, statusCode: result.statusCode, error: result.error, final, nextAttemptAt };
    if (!(await retryTransient(() => this.record(deliveryId, owner, record)))) return { kind: 'unrecorded' };
    if (ok) return { kind: 'succeeded' };
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
    if (final) return { kind: 'failed' };
    throw new Error(`delivery attempt ${roundAttempts + 1} failed: ${result.error}`);
  }

  /**
   * Records the attempt if this owner still holds the claim. When another attempt took it over
   * (this one's claim lapsed unrenewed), that attempt's claim and outcome stand: nothing is written.
   */
  private async record(deliveryId: string, owner: string, record: AttemptOutcome): Promise<boolean> {
    const recorded = await this.webhooks.recordAttempt(deliveryId, owner, recordOfAttempt(record));
    if (!recorded) {
      this.logger.warn({ deliveryId, ok: record.ok }, 'attempt not recorded: its claim was taken over');
    }
    return recorded;
  }

  /** The signed request for this attempt; null when what it completes is gone. */
  private async completionRequest(delivery: DeliveryRow): Promise<CompletionRequest | null> {
    const sentAt = new Date();
    if (delivery.alertId) return alertNotice(delivery);
    if (!delivery.simulationId) return evaluationCompletion(delivery, sentAt);
    const simulation = await this.simulations.findForWorker(delivery.simulationId);
    return simulation ? simulationCompletion(delivery, simulation, sentAt) : null;
  }
}
