import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import pg from 'pg';
import { DataSource, type Repository } from 'typeorm';
import { isUuid, type AttemptRecord, type DeliveryClaimState, type DeliveryStatus } from '@app/domain';
import { EndpointLookup, type WebhookEndpointRow } from '../cache/endpoint.lookup.js';
import type { KeysetPosition } from '../cursor.js';
import type { InboundEventEntity } from '../entities/inbound-event.entity.js';
import type { DeliveryType } from '../entities/webhook-delivery.entity.js';
import { WebhookEndpointEntity } from '../entities/webhook-endpoint.entity.js';
import {
  claimDelivery,
  findClaim,
  renewClaim,
  countFailures,
  findDelivery,
  findDeliveryForEvent,
  findUserDelivery,
  listDeliveries,
  markPending,
  overdueDeliveries,
  recentFailures,
  recordAttempt,
  type DeliveryRow,
} from '../statements/deliveries.statements.js';
import { saveEndpoint } from '../statements/endpoints.statements.js';
import {
  createInboundEvent,
  findInboundEvent,
  recordInboundJudgments,
  stuckInboundEvents,
} from '../statements/inbound.statements.js';
import type { EvaluationRowParams } from '../statements/evaluations.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { Coalescer, type BatchAnswer } from './coalescer.js';
import { evaluationColumns, toEvaluationRow, type NewEvaluation } from './evaluation-rows.js';

export type InboundEventRow = Omit<InboundEventEntity, 'createdAt'>;

/** A claimed delivery, and its user's completion endpoint as the claim read it (null: none saved). */
export interface ClaimedDelivery {
  delivery: DeliveryRow;
  endpoint: { url: string; secret: string } | null;
}

export interface RecordedInboundJudgment {
  stored: boolean;
  deliveryId: string | null;
}

interface InboundJudgment {
  row: EvaluationRowParams;
  deliveryId: string;
  payload: Record<string, unknown>;
}

/** Judgments per statement at most; a busier turn is sent in several. */
const MAX_JUDGMENTS = 200;

export type { DeliveryStatus, DeliveryRow, DeliveryType, WebhookEndpointRow };

/** Completion endpoints (one per user), inbound events and their deliveries. */
@Injectable()
export class WebhookRepository {
  private readonly logger = new Logger(WebhookRepository.name);
  private readonly endpointRows: Repository<WebhookEndpointEntity>;
  private readonly judgments = new Coalescer<InboundJudgment, RecordedInboundJudgment>(
    (judgments) => this.recordJudgments(judgments),
    MAX_JUDGMENTS,
  );

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly sql: PreparedSql,
    private readonly endpoints: EndpointLookup,
  ) {
    this.endpointRows = dataSource.getRepository(WebhookEndpointEntity);
  }

  /** Saves the user's one endpoint, replacing any earlier one (new id, new secret). */
  async saveEndpoint(
    userId: string,
    endpoint: Omit<WebhookEndpointRow, 'userId'>,
  ): Promise<WebhookEndpointRow> {
    const saved = await this.sql.first(saveEndpoint, { ...endpoint, userId });
    await this.endpoints.invalidate(userId);
    return saved!;
  }

  async deleteEndpoint(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const { affected } = await this.endpointRows.delete({ userId, id });
    if (!affected) return false;
    await this.endpoints.invalidate(userId);
    return true;
  }

  async createEvent(event: Omit<InboundEventRow, 'evaluationId'>): Promise<void> {
    await this.sql.query(createInboundEvent, event);
  }

  findEvent(id: string): Promise<InboundEventRow | null> {
    return this.sql.first(findInboundEvent, { id });
  }

  /** Events accepted this long ago and still not judged: their job never reached a worker. */
  async stuckEvents(olderThanMs: number): Promise<string[]> {
    const events = await this.sql.rows(stuckInboundEvents, { olderThanMs, limit: 500 });
    return events.map((event) => event.id);
  }

  /**
   * Stores the event's evaluation exactly once (a unique index on the event decides), marks the
   * event judged and, when the user has an endpoint, creates its one delivery, atomically. The
   * judgments recorded during one turn of the event loop go to Postgres as one statement (as
   * evaluation inserts do, `EvaluationInserts`); a batch Postgres refused (so nothing of it was
   * stored) is retried one by one, so one bad row fails only its own caller. Returns whether the
   * evaluation was stored now, and the delivery id to send (null when there is no endpoint, or
   * nothing was stored). The payload's `evaluation.createdAt` is set to the row's creation time.
   */
  recordJudgment(
    evaluation: NewEvaluation,
    eventId: string,
    payload: Record<string, unknown>,
    deliveryId: string,
  ): Promise<RecordedInboundJudgment> {
    return this.judgments.call({
      row: toEvaluationRow(evaluation, { inboundEventId: eventId }),
      deliveryId,
      payload,
    });
  }

  private async recordJudgments(
    judgments: InboundJudgment[],
  ): Promise<Array<BatchAnswer<RecordedInboundJudgment>>> {
    if (judgments.length === 1) return this.recordBatch(judgments);
    try {
      return await this.recordBatch(judgments);
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) throw error;
      this.logger.warn(
        { err: error, rows: judgments.length },
        'inbound judgment batch refused; recording its judgments one by one',
      );
      return judgments.map(async (judgment) => (await this.recordBatch([judgment]))[0]);
    }
  }

  private recordBatch(judgments: InboundJudgment[]): Promise<RecordedInboundJudgment[]> {
    return this.sql.rows(recordInboundJudgments, {
      ...evaluationColumns(judgments.map((judgment) => judgment.row)),
      deliveryId: judgments.map((judgment) => judgment.deliveryId),
      payload: judgments.map((judgment) => JSON.stringify(judgment.payload)),
    });
  }

  findDeliveryForEvent(eventId: string): Promise<DeliveryRow | null> {
    return this.sql.first(findDeliveryForEvent, { eventId });
  }

  async findDelivery(id: string): Promise<DeliveryRow | null> {
    if (!isUuid(id)) return null;
    return this.sql.first(findDelivery, { id });
  }

  async findUserDelivery(userId: string, id: string): Promise<DeliveryRow | null> {
    if (!isUuid(id)) return null;
    return this.sql.first(findUserDelivery, { userId, id });
  }

  /**
   * Claims a pending delivery for one attempt, `owner` (a token drawn per attempt), until `leaseMs`
   * from now; null when it is not pending or another attempt holds an unexpired claim. The
   * attempt's record releases the claim. With the delivery comes its user's completion endpoint,
   * read by the same statement (null when none is saved).
   */
  async claimDelivery(id: string, owner: string, leaseMs: number): Promise<ClaimedDelivery | null> {
    if (!isUuid(id)) return null;
    const row = await this.sql.first(claimDelivery, { id, owner, leaseMs });
    if (!row) return null;
    const { endpointUrl, endpointSecret, ...delivery } = row;
    const endpoint =
      endpointUrl !== null && endpointSecret !== null ? { url: endpointUrl, secret: endpointSecret } : null;
    return { delivery, endpoint };
  }

  /** Extends `owner`'s claim; false once the delivery is no longer pending under that claim. */
  async renewClaim(id: string, owner: string, leaseMs: number): Promise<boolean> {
    return (await this.sql.affected(renewClaim, { id, owner, leaseMs })) === 1;
  }

  /** The delivery's status and its current claim's remaining time; null for no such delivery. */
  async findClaim(id: string): Promise<DeliveryClaimState | null> {
    if (!isUuid(id)) return null;
    return this.sql.first(findClaim, { id });
  }

  /**
   * Stores one attempt's record (the domain's `recordOfAttempt`), only while `owner` still holds
   * the claim: false, and nothing written, when another attempt took it over.
   */
  async recordAttempt(id: string, owner: string, attempt: AttemptRecord): Promise<boolean> {
    return (await this.sql.affected(recordAttempt, { id, owner, ...attempt })) === 1;
  }

  /**
   * A manual redelivery puts a finished delivery back to pending, in a new round, and returns the
   * round; null when it is pending already (two racing redeliveries start one chain, not two).
   */
  async markPending(id: string): Promise<number | null> {
    return (await this.sql.first(markPending, { id }))?.round ?? null;
  }

  /** Pending deliveries whose next attempt is this long overdue: their job may have been lost. */
  overdueDeliveries(olderThanMs: number): Promise<Array<{ id: string; round: number }>> {
    return this.sql.rows(overdueDeliveries, { olderThanMs, limit: 500 });
  }

  listDeliveries(
    userId: string,
    status: DeliveryStatus | undefined,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<DeliveryRow[]> {
    return this.sql.rows(listDeliveries, {
      userId,
      status: status ?? null,
      afterCreatedAt: after?.createdAt ?? null,
      afterId: after?.id ?? null,
      limit,
    });
  }

  /**
   * For stats: the newest failed evaluation deliveries and how many are failed now. Stats name each
   * failure by its evaluation, so a simulation's failed delivery shows in the delivery list only.
   */
  async failures(
    userId: string,
    limit: number,
  ): Promise<{ recent: Array<DeliveryRow & { evaluationId: string }>; count: number }> {
    const [recent, failed] = await Promise.all([
      this.sql.rows(recentFailures, { userId, limit }),
      this.sql.first(countFailures, { userId }),
    ]);
    return { recent, count: failed!.count };
  }
}
