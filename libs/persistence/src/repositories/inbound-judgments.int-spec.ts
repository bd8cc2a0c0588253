import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { inboundEvaluation, insertPackOwner, newPackOwner } from '../../../../test/support/pack-owner.js';
import type { EndpointLookup } from '../cache/endpoint.lookup.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import type { NewEvaluation } from './evaluation-rows.js';
import { WebhookRepository } from './webhook.repository.js';

/**
 * Inbound judgments recorded in the same turn of the event loop go to Postgres as one statement:
 * each event's evaluation stored once, the event marked judged and its delivery created, per caller;
 * a batch Postgres refuses is recorded one by one, so a bad judgment fails only its own caller.
 */
describe('WebhookRepository.recordJudgment, batched', () => {
  let dataSource: DataSource;
  let webhooks: WebhookRepository;
  const owner = newPackOwner();

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    // Not used by recordJudgment.
    webhooks = new WebhookRepository(dataSource, new PreparedSql(dataSource), {} as EndpointLookup);
    await dataSource.transaction((tx) => insertPackOwner((sql, params) => tx.query(sql, params), owner));
    await dataSource.query(
      `INSERT INTO webhook_endpoints (id, user_id, url, secret) VALUES ($1, $2, 'https://receiver.test/', 's')`,
      [randomUUID(), owner.userId],
    );
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = $1`, [owner.userId]);
    await dataSource.destroy();
  });

  async function newEvent(): Promise<string> {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO inbound_events (id, user_id, pack_id, pack_version_id, ticket) VALUES ($1, $2, $3, $4, '{}')`,
      [id, owner.userId, owner.packId, owner.packVersionId],
    );
    return id;
  }

  /** Records judgments of `events` (one each, in order) in one turn; their outcomes, settled. */
  function recordTogether(judgments: Array<{ eventId: string; evaluation: NewEvaluation }>) {
    return Promise.allSettled(
      judgments.map(({ eventId, evaluation }) =>
        webhooks.recordJudgment(
          evaluation,
          eventId,
          { type: 'evaluation.completed', eventId, evaluation: { id: evaluation.id } },
          randomUUID(),
        ),
      ),
    );
  }

  it('stores a turn of judgments in one transaction, each event once, with its delivery', async () => {
    const events = [await newEvent(), await newEvent(), await newEvent()];
    // The second event twice in the turn (two jobs of one event): the first judgment is the one stored.
    const judgments = [events[0], events[1], events[1], events[2]].map((eventId) => ({
      eventId,
      evaluation: inboundEvaluation(owner),
    }));
    const outcomes = await recordTogether(judgments);
    const values = outcomes.map((outcome) =>
      outcome.status === 'fulfilled' ? outcome.value : outcome.reason,
    );
    expect(values.map((value) => value.stored)).toEqual([true, true, false, true]);
    expect(values[2].deliveryId).toBeNull();
    const stored = [0, 1, 3].map((i) => judgments[i].evaluation.id);
    const rows = await dataSource.query(
      `SELECT e.id, e.xmin::text AS xmin, i.id AS "eventId", d.id AS "deliveryId",
              d.payload -> 'evaluation' ->> 'createdAt' AS "payloadCreatedAt",
              to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"
         FROM evaluations e
         JOIN inbound_events i ON i.evaluation_id = e.id
         JOIN webhook_deliveries d ON d.evaluation_id = e.id
        WHERE e.inbound_event_id = ANY($1::uuid[])
        ORDER BY array_position($1::uuid[], e.inbound_event_id)`,
      [events],
    );
    expect(rows.map((row: { id: string }) => row.id)).toEqual(stored);
    expect(rows.map((row: { eventId: string }) => row.eventId)).toEqual(events);
    expect(rows.map((row: { deliveryId: string }) => row.deliveryId)).toEqual(
      [0, 1, 3].map((i) => values[i].deliveryId),
    );
    // One statement: every row written by the same transaction.
    expect(new Set(rows.map((row: { xmin: string }) => row.xmin)).size).toBe(1);
    for (const row of rows) expect(row.payloadCreatedAt).toBe(row.createdAt);
  });

  it('records a refused batch one by one: only the bad judgment fails', async () => {
    const events = [await newEvent(), await newEvent(), await newEvent()];
    const judgments = events.map((eventId, i) => ({
      eventId,
      // No such pack version: the foreign key refuses the row, and with it the batch.
      evaluation: inboundEvaluation(owner, i === 1 ? { packVersionId: randomUUID() } : {}),
    }));
    const outcomes = await recordTogether(judgments);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const [{ judged }] = await dataSource.query(
      `SELECT count(*)::int AS judged FROM inbound_events WHERE id = ANY($1::uuid[]) AND evaluation_id IS NOT NULL`,
      [events],
    );
    expect(judged).toBe(2);
  });
});
