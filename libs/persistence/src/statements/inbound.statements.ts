import type { Ticket } from '@app/domain';
import type { InboundEventEntity } from '../entities/inbound-event.entity.js';
import {
  EVALUATION_COLUMN_LIST,
  EVALUATION_JSON_PARAMS,
  EVALUATION_ROW_VALUES,
  type EvaluationRowParams,
} from './evaluations.statements.js';
import { defineStatement } from './statement.js';

/**
 * Stores an inbound event's evaluation exactly once (a unique index on the event decides), marks
 * the event judged and, when the user has an endpoint, creates its one delivery, in one statement.
 * The payload's `evaluation.createdAt` is the row's stamp (as the API shows it: ISO 8601 in UTC, to
 * the millisecond), set here because Postgres stamps the row (evaluations.statements.ts).
 */
export const recordInboundJudgment = defineStatement<
  EvaluationRowParams & { inboundEventId: string; deliveryId: string; payload: Record<string, unknown> },
  { stored: boolean; deliveryId: string | null }
>({
  name: 'inbound.recordJudgment',
  sql: `
    WITH ev AS (
      INSERT INTO evaluations (${EVALUATION_COLUMN_LIST}) VALUES (${EVALUATION_ROW_VALUES})
      ON CONFLICT DO NOTHING RETURNING id, user_id, created_at
    ), judged AS (
      UPDATE inbound_events i SET evaluation_id = ev.id FROM ev WHERE i.id = :inboundEventId::uuid
    ), delivery AS (
      INSERT INTO webhook_deliveries (id, user_id, event_id, evaluation_id, payload, next_attempt_at)
      SELECT :deliveryId::uuid, ev.user_id, :inboundEventId::uuid, ev.id,
             jsonb_set(:payload::jsonb, '{evaluation,createdAt}',
                       to_jsonb(to_char(ev.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
             now()
        FROM ev
       WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.user_id = ev.user_id)
      ON CONFLICT (event_id) DO NOTHING RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM ev) AS stored, (SELECT id FROM delivery) AS "deliveryId"`,
  json: [...EVALUATION_JSON_PARAMS, 'payload'],
});

export const createInboundEvent = defineStatement<{
  id: string;
  userId: string;
  packId: string;
  packVersionId: string;
  ticket: Ticket;
}>({
  name: 'inbound.createEvent',
  sql: `INSERT INTO inbound_events (id, user_id, pack_id, pack_version_id, ticket) VALUES (:id, :userId, :packId, :packVersionId, :ticket)`,
  json: ['ticket'],
});

export const findInboundEvent = defineStatement<{ id: string }, Omit<InboundEventEntity, 'createdAt'>>({
  name: 'inbound.findEvent',
  sql: `
    SELECT id, user_id AS "userId", pack_id AS "packId", pack_version_id AS "packVersionId", ticket,
           evaluation_id AS "evaluationId"
      FROM inbound_events WHERE id = :id`,
});

/** Events accepted `olderThanMs` ago and still not judged, oldest first. */
export const stuckInboundEvents = defineStatement<{ olderThanMs: number; limit: number }, { id: string }>({
  name: 'inbound.stuckEvents',
  sql: `
    SELECT id FROM inbound_events
     WHERE evaluation_id IS NULL AND created_at < now() - make_interval(secs => :olderThanMs::float8 / 1000)
     ORDER BY created_at ASC LIMIT :limit`,
});
