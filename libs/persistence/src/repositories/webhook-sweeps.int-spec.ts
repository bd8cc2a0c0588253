import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import type { EndpointLookup } from '../cache/endpoint.lookup.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { WebhookRepository } from './webhook.repository.js';
import { insertPackOwner } from '../../../../test/support/pack-owner.js';

/** The sweeps' reads: events never judged, and pending deliveries past their next attempt, by age. */
describe('WebhookRepository sweeps', () => {
  let dataSource: DataSource;
  let webhooks: WebhookRepository;
  const userId = randomUUID();
  const packId = randomUUID();
  const versionId = randomUUID();

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    webhooks = new WebhookRepository(dataSource, new PreparedSql(dataSource), {} as EndpointLookup);
    await dataSource.transaction(async (tx) => {
      await insertPackOwner(
        (text, params) => tx.query(text, params),
        { userId, packId, packVersionId: versionId },
        '{}',
      );
    });
  });
  afterAll(() => dataSource.destroy());

  async function event(ageSeconds: number): Promise<string> {
    const id = randomUUID();
    await dataSource.query(
      `INSERT INTO inbound_events (id, user_id, pack_id, pack_version_id, ticket, created_at)
       VALUES ($1, $2, $3, $4, '{}', now() - make_interval(secs => $5))`,
      [id, userId, packId, versionId, ageSeconds],
    );
    return id;
  }

  it('finds events older than the age and still unjudged, oldest first', async () => {
    const old = await event(600);
    const older = await event(900);
    const recent = await event(5);
    const stuck = await webhooks.stuckEvents(60_000);
    expect(stuck.filter((id) => [old, older, recent].includes(id))).toEqual([older, old]);
  });

  it('finds pending deliveries whose next attempt is this long overdue, with their round', async () => {
    const overdue = randomUUID();
    const due = randomUUID();
    for (const [id, ageSeconds] of [
      [overdue, 600],
      [due, 5],
    ] as const) {
      const simulationId = randomUUID();
      // A simulation's delivery (the simulation and its dataset share the id, in their own tables).
      await dataSource.query(`INSERT INTO datasets (id, user_id, name) VALUES ($1, $2, 'd')`, [
        simulationId,
        userId,
      ]);
      await dataSource.query(
        `INSERT INTO simulations (id, user_id, dataset_id, pack_id, pack_version_id, status, total)
         VALUES ($1, $2, $1, $3, $4, 'completed', 0)`,
        [simulationId, userId, packId, versionId],
      );
      await dataSource.query(
        `INSERT INTO webhook_deliveries (id, user_id, simulation_id, type, payload, round, next_attempt_at)
         VALUES ($1, $2, $3, 'simulation.completed', '{}', 2, now() - make_interval(secs => $4))`,
        [id, userId, simulationId, ageSeconds],
      );
    }
    const found = await webhooks.overdueDeliveries(60_000);
    expect(found.filter((row) => row.id === overdue || row.id === due)).toEqual([{ id: overdue, round: 2 }]);
  });
});
