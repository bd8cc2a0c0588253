import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { SimulationRepository, type NewEvaluation } from '../../libs/persistence/src/index.js';
import { EvaluationInserts } from '../../libs/persistence/src/repositories/evaluation-inserts.js';
import { PreparedSql } from '../../libs/persistence/src/statements/prepared-sql.js';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant } from '../support/client.js';
import { createPublishedPack } from '../support/packs.js';

describe('evaluation inserts, coalesced per turn of the event loop', () => {
  let api: TestApi;
  let db: pg.Client;
  let inserts: EvaluationInserts;
  let owner: { userId: string; packId: string; packVersionId: string };

  beforeAll(async () => {
    api = await startApi();
    db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    inserts = api.app.get(EvaluationInserts);
    const { keyed, user } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    owner = { userId: user.id, packId: pack.id, packVersionId: pack.liveVersionId };
  });
  afterAll(async () => {
    await db.end();
    await api.close();
  });

  const evaluation = (overrides: Partial<NewEvaluation> = {}): NewEvaluation => ({
    id: randomUUID(),
    ...owner,
    source: 'api',
    status: 'accept',
    redactedTicket: { subject: 'Quoted "subject" \\ with a backslash', customerMessage: 'héllo, [EMAIL]' },
    result: { status: 'accept', answers: {}, reviewReasons: [], modelId: 'm', latencyMs: 7 },
    modelId: 'm',
    latencyMs: 7,
    inputTokens: 3,
    outputTokens: 2,
    ...overrides,
  });

  /** Counts the statements sent through the prepared-statement runner while `work` runs. */
  async function statementsDuring<T>(work: () => Promise<T>): Promise<{ result: T; statements: number }> {
    const spy = jest.spyOn(api.app.get(PreparedSql), 'query');
    try {
      const result = await work();
      return { result, statements: spy.mock.calls.length };
    } finally {
      spy.mockRestore();
    }
  }

  it('sends the inserts of one turn as one statement and stores every row as given', async () => {
    const rows = Array.from({ length: 20 }, () => evaluation());
    const { result, statements } = await statementsDuring(() =>
      Promise.all(rows.map((row) => inserts.insert(row))),
    );
    expect(statements).toBe(1);
    for (const createdAt of result) expect(createdAt).toBeInstanceOf(Date);
    const stored = await db.query(
      `SELECT id, redacted_ticket, result, latency_ms, input_tokens FROM evaluations WHERE id = ANY($1::uuid[])`,
      [rows.map((row) => row.id)],
    );
    expect(stored.rows).toHaveLength(20);
    const first = stored.rows.find((row) => row.id === rows[0].id);
    expect(first).toMatchObject({
      redacted_ticket: rows[0].redactedTicket,
      result: rows[0].result,
      latency_ms: 7,
      input_tokens: 3,
    });
  });

  it('sends a turn of more than 200 inserts as several statements of at most 200 rows', async () => {
    const rows = Array.from({ length: 250 }, () => evaluation());
    const { result, statements } = await statementsDuring(() =>
      Promise.all(rows.map((row) => inserts.insert(row))),
    );
    expect(statements).toBe(2);
    expect(result.every((createdAt) => createdAt instanceof Date)).toBe(true);
    const stored = await db.query(`SELECT count(*)::int AS n FROM evaluations WHERE id = ANY($1::uuid[])`, [
      rows.map((row) => row.id),
    ]);
    expect(stored.rows[0].n).toBe(250);
  });

  it('does not make a lone insert wait for others, and runs later turns separately', async () => {
    const { statements } = await statementsDuring(async () => {
      await inserts.insert(evaluation());
      await inserts.insert(evaluation());
    });
    expect(statements).toBe(2);
  });

  it('inserts a row once: a duplicate in the same batch or of a stored row gets null', async () => {
    const stored = evaluation();
    expect(await inserts.insert(stored)).toBeInstanceOf(Date);
    const twin = evaluation();
    const results = await Promise.all([
      inserts.insert(twin),
      inserts.insert({ ...twin, status: 'reject' }),
      inserts.insert({ ...stored, status: 'review' }),
      inserts.insert(evaluation()),
    ]);
    expect(results[0]).toBeInstanceOf(Date);
    expect(results[1]).toBeNull();
    expect(results[2]).toBeNull();
    expect(results[3]).toBeInstanceOf(Date);
    const statuses = await db.query(`SELECT id, status FROM evaluations WHERE id = ANY($1::uuid[])`, [
      [twin.id, stored.id],
    ]);
    expect(Object.fromEntries(statuses.rows.map((row) => [row.id, row.status]))).toEqual({
      [twin.id]: 'accept',
      [stored.id]: 'accept',
    });
  });

  it("stores one evaluation per simulation ticket when two jobs' inserts meet in one batch", async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const dataset = (await keyed.post('/api/datasets', { name: 'one ticket' })).body;
    await keyed.post(`/api/datasets/${dataset.id}/tickets`, {
      tickets: [{ subject: 's', customerMessage: 'm' }],
    });
    const ticketId = (await keyed.get(`/api/datasets/${dataset.id}/tickets`)).body.items[0].id;
    // No worker runs here: the simulation stays queued, which is all its row is needed for.
    const simulation = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }))
      .body;
    const { rows } = await db.query(`SELECT user_id FROM packs WHERE id = $1`, [pack.id]);
    const ticket = {
      userId: rows[0].user_id,
      packId: pack.id,
      packVersionId: pack.liveVersionId,
      source: 'simulation' as const,
      simulationId: simulation.id,
      datasetTicketId: ticketId,
    };
    const { result, statements } = await statementsDuring(() =>
      Promise.all([inserts.insert(evaluation(ticket)), inserts.insert(evaluation(ticket))]),
    );
    expect(statements).toBe(1);
    expect(result.filter((createdAt) => createdAt !== null)).toHaveLength(1);
    const count = await db.query(`SELECT count(*)::int AS n FROM evaluations WHERE simulation_id = $1`, [
      simulation.id,
    ]);
    expect(count.rows[0].n).toBe(1);
  });

  it('fails only the caller of a bad row: the rest of its batch is stored', async () => {
    const good = Array.from({ length: 4 }, () => evaluation());
    const bad = evaluation({ packVersionId: randomUUID() });
    const { result: results, statements } = await statementsDuring(() =>
      Promise.allSettled([...good, bad].map((row) => inserts.insert(row))),
    );
    // The batch, refused by Postgres, then each row alone.
    expect(statements).toBe(1 + 5);
    expect(results.slice(0, 4).map((result) => result.status)).toEqual(Array(4).fill('fulfilled'));
    expect(results[4].status).toBe('rejected');
    expect(String((results[4] as PromiseRejectedResult).reason)).toMatch(/foreign key/);
    const count = await db.query(`SELECT count(*)::int AS n FROM evaluations WHERE id = ANY($1::uuid[])`, [
      [...good, bad].map((row) => row.id),
    ]);
    expect(count.rows[0].n).toBe(4);
  });

  it('fails the whole batch, without retrying it row by row, when the connection fails', async () => {
    const sql = api.app.get(PreparedSql);
    const spy = jest
      .spyOn(sql, 'query')
      .mockRejectedValueOnce(new Error('Connection terminated unexpectedly'));
    try {
      const rows = Array.from({ length: 3 }, () => evaluation());
      const results = await Promise.allSettled(rows.map((row) => inserts.insert(row)));
      expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
      // The batch may have committed before the reply was lost: inserting its rows again would
      // report them as duplicates to their own callers.
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });

  it('checks the completion of the simulations of one turn in one statement', async () => {
    const simulations = api.app.get(SimulationRepository);
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const { rows } = await db.query(`SELECT user_id FROM packs WHERE id = $1`, [pack.id]);
    const started: string[] = [];
    for (let i = 0; i < 2; i++) {
      const dataset = (await keyed.post('/api/datasets', { name: `one ticket ${i}` })).body;
      await keyed.post(`/api/datasets/${dataset.id}/tickets`, {
        tickets: [{ subject: 's', customerMessage: 'm' }],
      });
      const ticketId = (await keyed.get(`/api/datasets/${dataset.id}/tickets`)).body.items[0].id;
      const simulation = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }))
        .body;
      await inserts.insert(
        evaluation({
          userId: rows[0].user_id,
          packId: pack.id,
          packVersionId: pack.liveVersionId,
          source: 'simulation',
          simulationId: simulation.id,
          datasetTicketId: ticketId,
        }),
      );
      started.push(simulation.id);
    }
    const { statements } = await statementsDuring(() =>
      Promise.all(started.map((id) => simulations.completeIfDone(id))),
    );
    expect(statements).toBe(1);
    for (const id of started)
      expect((await keyed.get(`/api/simulations/${id}`)).body.status).toBe('completed');
  });
});
