import type { DeliveryClaimState, DeliveryStatus } from '@app/domain';
import type { WebhookDeliveryEntity } from '../entities/webhook-delivery.entity.js';
import { aligned, defineStatement } from './statement.js';

/** A delivery as read: its columns (but the claim) and its creation time as text, for cursors. */
export type DeliveryRow = Omit<WebhookDeliveryEntity, 'claimedUntil' | 'claimOwner'> & {
  createdAtText: string;
};

/** The columns of a DeliveryRow. */
const DELIVERY = `
  id, user_id AS "userId", type, event_id AS "eventId", evaluation_id AS "evaluationId",
  simulation_id AS "simulationId", alert_id AS "alertId", payload, status, attempts, round,
  last_status_code AS "lastStatusCode", last_error AS "lastError", next_attempt_at AS "nextAttemptAt", created_at AS "createdAt",
  updated_at AS "updatedAt", created_at::text AS "createdAtText"`.trim();

export const findDelivery = defineStatement<{ id: string }, DeliveryRow>({
  name: 'deliveries.find',
  sql: `
    SELECT ${aligned(DELIVERY, 11)}
      FROM webhook_deliveries
     WHERE id = :id`,
});

/** The user's delivery: another user's is simply not found. */
export const findUserDelivery = defineStatement<{ userId: string; id: string }, DeliveryRow>({
  name: 'deliveries.findForUser',
  sql: `
    SELECT ${aligned(DELIVERY, 11)}
      FROM webhook_deliveries
     WHERE id = :id AND user_id = :userId`,
});

export const findDeliveryForEvent = defineStatement<{ eventId: string }, DeliveryRow>({
  name: 'deliveries.findForEvent',
  sql: `
    SELECT ${aligned(DELIVERY, 11)}
      FROM webhook_deliveries
     WHERE event_id = :eventId`,
});

/** A claimed delivery, with its user's completion endpoint as the claim read it (null: none saved). */
export type ClaimedDeliveryRow = DeliveryRow & { endpointUrl: string | null; endpointSecret: string | null };

/**
 * Claims a pending, unclaimed delivery for one attempt, `owner`, until `leaseMs` from now, and
 * reads its user's endpoint in the same statement: as fresh as a read of its own (never the cached
 * one: an attempt must not act on a stale "no endpoint" or an old secret), one round trip fewer.
 */
export const claimDelivery = defineStatement<
  { id: string; owner: string; leaseMs: number },
  ClaimedDeliveryRow
>({
  name: 'deliveries.claim',
  sql: `
    WITH claimed AS (
      UPDATE webhook_deliveries SET claimed_until = clock_timestamp() + make_interval(secs => :leaseMs::float8 / 1000),
             claim_owner = :owner
       WHERE id = :id AND status = 'pending' AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
      RETURNING ${aligned(DELIVERY, 16)}
    )
    SELECT claimed.*, w.url AS "endpointUrl", w.secret AS "endpointSecret"
      FROM claimed LEFT JOIN webhook_endpoints w ON w.user_id = claimed."userId"`,
});

/** Extends `owner`'s claim to `leaseMs` from now; no row once another attempt holds the delivery. */
export const renewClaim = defineStatement<{ id: string; owner: string; leaseMs: number }, { id: string }>({
  name: 'deliveries.renewClaim',
  sql: `
    UPDATE webhook_deliveries SET claimed_until = clock_timestamp() + make_interval(secs => :leaseMs::float8 / 1000)
     WHERE id = :id AND claim_owner = :owner AND status = 'pending'
    RETURNING id`,
});

/** The delivery's status and how long its current claim still runs (0 when none does). */
export const findClaim = defineStatement<{ id: string }, DeliveryClaimState>({
  name: 'deliveries.findClaim',
  sql: `
    SELECT status, GREATEST(0, COALESCE(EXTRACT(EPOCH FROM claimed_until - clock_timestamp()) * 1000, 0))::float8
           AS "claimRemainingMs"
      FROM webhook_deliveries WHERE id = :id`,
});

/**
 * One attempt's outcome, recorded only while `owner` still holds the claim (a lapsed claim not yet
 * taken by another counts); releases it. No row when another attempt took the delivery over.
 */
export const recordAttempt = defineStatement<
  {
    id: string;
    owner: string;
    status: DeliveryStatus;
    statusCode: number | null;
    error: string | null;
    nextAttemptAt: Date | null;
  },
  { id: string }
>({
  name: 'deliveries.recordAttempt',
  sql: `
    UPDATE webhook_deliveries SET attempts = attempts + 1, status = :status, last_status_code = :statusCode,
           last_error = :error, next_attempt_at = :nextAttemptAt, claimed_until = NULL, claim_owner = NULL,
           updated_at = clock_timestamp()
     WHERE id = :id AND claim_owner = :owner AND status = 'pending'
    RETURNING id`,
});

/** A finished delivery back to pending, in a new round; no row when it is pending already. */
export const markPending = defineStatement<{ id: string }, { round: number }>({
  name: 'deliveries.markPending',
  sql: `
    UPDATE webhook_deliveries SET status = 'pending', round = attempts + 1, next_attempt_at = now(),
           updated_at = clock_timestamp()
     WHERE id = :id AND status <> 'pending' RETURNING round`,
});

/** Newest first, keyset-paginated on (created_at, id); a null status or position does not filter. */
export const listDeliveries = defineStatement<
  {
    userId: string;
    status: DeliveryStatus | null;
    afterCreatedAt: string | null;
    afterId: string | null;
    limit: number;
  },
  DeliveryRow
>({
  name: 'deliveries.list',
  sql: `
    SELECT ${aligned(DELIVERY, 11)}
      FROM webhook_deliveries
     WHERE user_id = :userId AND (:status::text IS NULL OR status = :status)
       AND (:afterCreatedAt::timestamptz IS NULL OR (created_at, id) < (:afterCreatedAt::timestamptz, :afterId::uuid))
     ORDER BY created_at DESC, id DESC LIMIT :limit`,
});

export const recentFailures = defineStatement<
  { userId: string; limit: number },
  DeliveryRow & { evaluationId: string }
>({
  name: 'deliveries.recentFailures',
  sql: `
    SELECT ${aligned(DELIVERY, 11)}
      FROM webhook_deliveries
     WHERE user_id = :userId AND status = 'failed' AND evaluation_id IS NOT NULL
     ORDER BY updated_at DESC LIMIT :limit`,
});

export const countFailures = defineStatement<{ userId: string }, { count: number }>({
  name: 'deliveries.countFailures',
  sql: `
    SELECT count(*)::int AS count FROM webhook_deliveries
     WHERE user_id = :userId AND status = 'failed' AND evaluation_id IS NOT NULL`,
});

/** Pending deliveries whose next attempt is `olderThanMs` overdue, most overdue first. */
export const overdueDeliveries = defineStatement<
  { olderThanMs: number; limit: number },
  { id: string; round: number }
>({
  name: 'deliveries.overdue',
  sql: `
    SELECT id, round FROM webhook_deliveries
     WHERE status = 'pending' AND next_attempt_at < now() - make_interval(secs => :olderThanMs::float8 / 1000)
     ORDER BY next_attempt_at ASC LIMIT :limit`,
});
