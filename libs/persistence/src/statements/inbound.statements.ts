import type { Ticket } from '@app/domain';
import type { InboundEventEntity } from '../entities/inbound-event.entity.js';
import {
  EVALUATION_COLUMN_LIST,
  EVALUATION_ROW_COLUMN_LIST,
  unnestEvaluationRows,
  type EvaluationColumnArrays,
} from './evaluations.statements.js';
import { defineStatement } from './statement.js';

/**
 * Stores inbound events' evaluations exactly once each (a unique index on the event decides),
 * marks the events judged and, for users with an endpoint, creates each event's one delivery: one
 * statement for the judgments a worker finished in the same turn of its event loop, so one commit,
 * one run of the statistics trigger and one lock of the users' statistics rows for the batch. A
 * payload's `evaluation.createdAt` is its row's stamp (as the API shows it: ISO 8601 in UTC, to the
 * millisecond), set here because Postgres stamps the row (evaluations.statements.ts). Per row, in
 * batch order: whether its evaluation was stored now (false when its event had one already, from
 * another job, earlier or earlier in the batch) and its delivery's id.
 */
export const recordInboundJudgments = defineStatement<
  EvaluationColumnArrays & { deliveryId: string[]; payload: string[] },
  { stored: boolean; deliveryId: string | null }
>({
  name: 'inbound.recordJudgments',
  sql: `
    WITH input AS (
      SELECT * FROM ${unnestEvaluationRows([
        ['delivery_id', 'uuid', 'deliveryId'],
        ['payload', 'jsonb', 'payload'],
      ])}
    ), ev AS (
      INSERT INTO evaluations (${EVALUATION_COLUMN_LIST})
      SELECT ${EVALUATION_ROW_COLUMN_LIST}, clock_timestamp() FROM input ORDER BY position
      ON CONFLICT DO NOTHING RETURNING id, user_id, inbound_event_id, created_at
    ), judged AS (
      UPDATE inbound_events i SET evaluation_id = ev.id FROM ev WHERE i.id = ev.inbound_event_id
    ), delivery AS (
      INSERT INTO webhook_deliveries (id, user_id, event_id, evaluation_id, payload, next_attempt_at)
      SELECT input.delivery_id, ev.user_id, ev.inbound_event_id, ev.id,
             jsonb_set(input.payload, '{evaluation,createdAt}',
                       to_jsonb(to_char(ev.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))),
             now()
        FROM ev JOIN input ON input.id = ev.id
       WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.user_id = ev.user_id)
       ORDER BY input.position
      ON CONFLICT (event_id) DO NOTHING RETURNING id
    )
    SELECT ev.id IS NOT NULL AS stored, delivery.id AS "deliveryId"
      FROM input LEFT JOIN ev ON ev.id = input.id LEFT JOIN delivery ON delivery.id = input.delivery_id
     ORDER BY input.position`,
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
