import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { insertPackOwner, newPackOwner } from '../../../../test/support/pack-owner.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { EvaluationInserts } from './evaluation-inserts.js';
import { SimulationCompletions } from './simulation-completions.js';
import { SimulationRepository } from './simulation.repository.js';

/**
 * The ticket jobs' reads, coalesced: the reads asked for in one turn of the event loop go as one
 * statement, and each job still gets its own simulation's state, its own ticket and its own
 * "already judged", whatever the others asked.
 */
describe('ticket job states read together', () => {
  let dataSource: DataSource;
  let simulations: SimulationRepository;
  const statements: string[] = [];
  const owner = newPackOwner();
  const other = newPackOwner();

  /** A dataset of `count` tickets and a running simulation of it; the ticket ids in order. */
  const simulationOf = async (someone: typeof owner, count: number, status = 'running') => {
    const datasetId = randomUUID();
    const simulationId = randomUUID();
    await dataSource.query(
      `INSERT INTO datasets (id, user_id, name, ticket_count) VALUES ($1, $2, 'd', $3)`,
      [datasetId, someone.userId, count],
    );
    const ticketIds: string[] = [];
    for (let position = 0; position < count; position++) {
      const id = randomUUID();
      ticketIds.push(id);
      await dataSource.query(
        `INSERT INTO dataset_tickets (id, dataset_id, user_id, position, ticket) VALUES ($1, $2, $3, $4, $5)`,
        [id, datasetId, someone.userId, position, JSON.stringify({ subject: `ticket ${position}` })],
      );
    }
    await dataSource.query(
      `INSERT INTO simulations (id, user_id, dataset_id, pack_id, pack_version_id, status, total)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [simulationId, someone.userId, datasetId, someone.packId, someone.packVersionId, status, count],
    );
    return { simulationId, ticketIds };
  };

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    const sql = new PreparedSql(dataSource);
    const counted = Object.create(sql) as PreparedSql;
    counted.rows = (statement, params, tx) => {
      statements.push(statement.name);
      return sql.rows(statement, params, tx);
    };
    simulations = new SimulationRepository(
      counted,
      new EvaluationInserts(sql),
      new SimulationCompletions(sql),
    );
    for (const someone of [owner, other]) {
      await dataSource.transaction((tx) =>
        insertPackOwner((text, params) => tx.query(text, params), someone),
      );
    }
  });

  afterAll(async () => {
    await dataSource.query(`DELETE FROM users WHERE id = ANY($1)`, [[owner.userId, other.userId]]);
    await dataSource.destroy();
  });

  it('answers each job of a turn from one statement, in its own order', async () => {
    const first = await simulationOf(owner, 3);
    const second = await simulationOf(other, 2, 'cancelled');
    // The first ticket of the first simulation is judged already.
    await dataSource.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result,
                                model_id, latency_ms, simulation_id, dataset_ticket_id)
       VALUES ($1, $2, $3, $4, 'simulation', 'accept', '{}', '{"answers":{}}', 'm', 1, $5, $6)`,
      [randomUUID(), owner.userId, owner.packId, owner.packVersionId, first.simulationId, first.ticketIds[0]],
    );
    statements.length = 0;
    const asked = [
      [second.simulationId, second.ticketIds[1]],
      [first.simulationId, first.ticketIds[0]],
      [randomUUID(), first.ticketIds[1]],
      // The other simulation's ticket: not in this simulation's dataset.
      [first.simulationId, second.ticketIds[0]],
      [first.simulationId, first.ticketIds[2]],
      ['not-a-uuid', first.ticketIds[2]],
      // Two jobs of one ticket in the turn (a retried job beside its first attempt): each is answered.
      [first.simulationId, first.ticketIds[2]],
    ] as const;
    const states = await Promise.all(
      asked.map(([simulationId, ticketId]) => simulations.ticketJobState(simulationId, ticketId)),
    );
    expect(statements).toEqual(['simulations.ticketJobStates']);
    const ofFirst = {
      status: 'running',
      userId: owner.userId,
      packId: owner.packId,
      packVersionId: owner.packVersionId,
    };
    expect(states).toEqual([
      {
        status: 'cancelled',
        userId: other.userId,
        packId: other.packId,
        packVersionId: other.packVersionId,
        ticket: { subject: 'ticket 1' },
        evaluated: false,
      },
      { ...ofFirst, ticket: { subject: 'ticket 0' }, evaluated: true },
      null,
      { ...ofFirst, ticket: null, evaluated: false },
      { ...ofFirst, ticket: { subject: 'ticket 2' }, evaluated: false },
      null,
      { ...ofFirst, ticket: { subject: 'ticket 2' }, evaluated: false },
    ]);
  });

  it('reads a job alone when it is the only one of its turn', async () => {
    const { simulationId, ticketIds } = await simulationOf(owner, 1);
    statements.length = 0;
    expect(await simulations.ticketJobState(simulationId, ticketIds[0])).toMatchObject({
      status: 'running',
      ticket: { subject: 'ticket 0' },
      evaluated: false,
    });
    expect(statements).toEqual(['simulations.ticketJobStates']);
  });
});
