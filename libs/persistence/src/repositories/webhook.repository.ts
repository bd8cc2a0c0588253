import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { isUuid, statusAfterAttempt, type DeliveryStatus, type Ticket } from '@app/domain';
import { EndpointLookup, toEndpoint, type WebhookEndpointRow } from '../cache/endpoint.lookup.js';
import type { KeysetPosition } from '../cursor.js';
import { toDelivery, type DeliveryRow, type DeliveryType } from './delivery-rows.js';
import { PreparedSql } from '../prepared-sql.js';
import { recordInboundJudgment } from '../statements/inbound.statements.js';
import { toEvaluationRow, type NewEvaluation } from './evaluation-rows.js';

export interface InboundEventRow {
  id: string;
  userId: string;
  packId: string;
  packVersionId: string;
  ticket: Ticket;
  evaluationId: string | null;
}

export type { DeliveryStatus, DeliveryRow, DeliveryType, WebhookEndpointRow };

/** Completion endpoints (one per user), inbound events and their deliveries. */
@Injectable()
export class WebhookRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: PreparedSql,
    private readonly endpoints: EndpointLookup,
  ) {}

  /** Saves the user's one endpoint, replacing any earlier one (new id, new secret). */
  async saveEndpoint(
    userId: string,
    endpoint: Omit<WebhookEndpointRow, 'userId'>,
  ): Promise<WebhookEndpointRow> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `INSERT INTO webhook_endpoints (id, user_id, url, secret, require_inbound_signature) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (user_id) DO UPDATE SET id = excluded.id, url = excluded.url, secret = excluded.secret,
         require_inbound_signature = excluded.require_inbound_signature, created_at = now()
       RETURNING *`,
      [endpoint.id, userId, endpoint.url, endpoint.secret, endpoint.requireInboundSignature],
    );
    await this.endpoints.invalidate(userId);
    return toEndpoint(rows[0]);
  }

  async deleteEndpoint(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `DELETE FROM webhook_endpoints WHERE user_id = $1 AND id = $2`,
      [userId, id],
    );
    if (affected > 0) await this.endpoints.invalidate(userId);
    return affected > 0;
  }

  async createEvent(event: Omit<InboundEventRow, 'evaluationId'>): Promise<void> {
    await this.sql.query(
      `INSERT INTO inbound_events (id, user_id, pack_id, pack_version_id, ticket) VALUES ($1, $2, $3, $4, $5)`,
      [event.id, event.userId, event.packId, event.packVersionId, JSON.stringify(event.ticket)],
    );
  }

  async findEvent(id: string): Promise<InboundEventRow | null> {
    const rows = (await this.sql.query(
      `SELECT id, user_id, pack_id, pack_version_id, ticket, evaluation_id FROM inbound_events WHERE id = $1`,
      [id],
    )) as Array<Record<string, unknown>>;
    const raw = rows[0];
    if (!raw) return null;
    return {
      id: raw.id as string,
      userId: raw.user_id as string,
      packId: raw.pack_id as string,
      packVersionId: raw.pack_version_id as string,
      ticket: raw.ticket as Ticket,
      evaluationId: raw.evaluation_id as string | null,
    };
  }

  /** Events accepted this long ago and still not judged: their job never reached a worker. */
  async stuckEvents(olderThanMs: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM inbound_events WHERE evaluation_id IS NULL AND created_at < now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY created_at LIMIT 500`,
      [olderThanMs],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Stores the event's evaluation exactly once (a unique index on the event decides), marks the
   * event judged and, when the user has an endpoint, creates its one delivery: one statement, so it
   * is atomic and holds the daily-stats row lock (taken by the insert's trigger) only while it runs.
   * Returns whether the evaluation was stored now, and the delivery id to send (null when there is
   * no endpoint, or nothing was stored).
   */
  async recordJudgment(
    evaluation: NewEvaluation,
    eventId: string,
    createdAt: Date,
    payload: Record<string, unknown>,
    deliveryId: string,
  ): Promise<{ stored: boolean; deliveryId: string | null }> {
    const row = toEvaluationRow(evaluation, { inboundEventId: eventId, createdAt });
    const recorded = await this.sql.first(recordInboundJudgment, {
      ...row,
      inboundEventId: eventId,
      deliveryId,
      payload,
    });
    return recorded!;
  }

  async findDeliveryForEvent(eventId: string): Promise<DeliveryRow | null> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT *, created_at::text AS created_at_text FROM webhook_deliveries WHERE event_id = $1`,
      [eventId],
    );
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async findDelivery(id: string): Promise<DeliveryRow | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT *, created_at::text AS created_at_text FROM webhook_deliveries WHERE id = $1`,
      [id],
    );
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async findUserDelivery(userId: string, id: string): Promise<DeliveryRow | null> {
    const delivery = await this.findDelivery(id);
    return delivery && delivery.userId === userId ? delivery : null;
  }

  /**
   * Claims a pending delivery for one attempt, until `leaseMs` from now; null when it is not pending
   * or another attempt holds an unexpired claim. The attempt's record releases the claim.
   */
  async claimDelivery(id: string, leaseMs: number): Promise<DeliveryRow | null> {
    if (!isUuid(id)) return null;
    const [rows]: [Array<Record<string, unknown>>, number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET claimed_until = clock_timestamp() + make_interval(secs => $2::float8 / 1000)
        WHERE id = $1 AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
        RETURNING *, created_at::text AS created_at_text`,
      [id, leaseMs],
    );
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  /** Records one attempt: its outcome, and the status (`pending` while attempts remain). */
  async recordAttempt(
    id: string,
    attempt: {
      ok: boolean;
      statusCode: number | null;
      error: string | null;
      final: boolean;
      nextAttemptAt: Date | null;
    },
  ): Promise<void> {
    const status = statusAfterAttempt(attempt.ok, attempt.final);
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, status = $2, last_status_code = $3, last_error = $4,
              next_attempt_at = $5, claimed_until = NULL, updated_at = clock_timestamp() WHERE id = $1`,
      [
        id,
        status,
        attempt.statusCode,
        attempt.error,
        attempt.ok || attempt.final ? null : attempt.nextAttemptAt,
      ],
    );
  }

  /**
   * A manual redelivery puts a finished delivery back to pending, in a new round, and returns the
   * round; null when it is pending already (two racing redeliveries start one chain, not two).
   */
  async markPending(id: string): Promise<number | null> {
    const [rows]: [Array<{ round: number }>, number] = await this.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'pending', round = attempts + 1, next_attempt_at = now(),
              updated_at = clock_timestamp() WHERE id = $1 AND status <> 'pending' RETURNING round`,
      [id],
    );
    return rows[0]?.round ?? null;
  }

  /** Pending deliveries whose next attempt is this long overdue: their job may have been lost. */
  async overdueDeliveries(olderThanMs: number): Promise<Array<{ id: string; round: number }>> {
    return this.dataSource.query<Array<{ id: string; round: number }>>(
      `SELECT id, round FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY next_attempt_at LIMIT 500`,
      [olderThanMs],
    );
  }

  async listDeliveries(
    userId: string,
    status: DeliveryStatus | undefined,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<DeliveryRow[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `SELECT *, created_at::text AS created_at_text FROM webhook_deliveries
        WHERE user_id = $1 AND ($2::text IS NULL OR status = $2)
          AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
        ORDER BY created_at DESC, id DESC LIMIT $5`,
      [userId, status ?? null, after?.createdAt ?? null, after?.id ?? null, limit],
    );
    return rows.map(toDelivery);
  }

  /**
   * For stats: the newest failed evaluation deliveries and how many are failed now. Stats name each
   * failure by its evaluation, so a simulation's failed delivery shows in the delivery list only.
   */
  async failures(
    userId: string,
    limit: number,
  ): Promise<{ recent: Array<DeliveryRow & { evaluationId: string }>; count: number }> {
    const [recent, count] = await Promise.all([
      this.dataSource.query<Array<Record<string, unknown>>>(
        `SELECT *, created_at::text AS created_at_text FROM webhook_deliveries
          WHERE user_id = $1 AND status = 'failed' AND evaluation_id IS NOT NULL
          ORDER BY updated_at DESC LIMIT $2`,
        [userId, limit],
      ),
      this.dataSource.query<Array<{ count: number }>>(
        `SELECT count(*)::int AS count FROM webhook_deliveries WHERE user_id = $1 AND status = 'failed' AND evaluation_id IS NOT NULL`,
        [userId],
      ),
    ]);
    const evaluationDeliveries = recent.map(toDelivery) as Array<DeliveryRow & { evaluationId: string }>;
    return { recent: evaluationDeliveries, count: count[0].count };
  }
}
