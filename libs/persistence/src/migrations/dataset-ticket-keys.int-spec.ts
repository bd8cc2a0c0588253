import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DatasetTicketKeysAndExpectedAnswers1795750324599 } from './1795750324599-dataset-ticket-keys-and-expected-answers.js';
import { migrationDatabase } from '../../../../test/support/migration-database.js';

/**
 * The migration on a database that already holds an externalId twice in a dataset (uploaded before
 * duplicates were skipped): it is run again inside a transaction that is rolled back, so the
 * shared test database keeps its schema (DDL is transactional in Postgres).
 */
describe('migration DatasetTicketKeysAndExpectedAnswers on existing duplicates', () => {
  const database = migrationDatabase();

  it('keys the first ticket of each externalId by position, keeps every ticket, and builds the unique index', async () => {
    await database.inRolledBackTransaction(async (runner) => {
      const migration = new DatasetTicketKeysAndExpectedAnswers1795750324599();
      await migration.down(runner);
      const userId = randomUUID();
      const [one, two] = [randomUUID(), randomUUID()];
      await runner.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [
        userId,
        `${userId}@example.test`,
      ]);
      for (const id of [one, two])
        await runner.query(`INSERT INTO datasets (id, user_id, name, ticket_count) VALUES ($1, $2, 'd', 4)`, [
          id,
          userId,
        ]);
      const rows: Array<[string, number, string | null]> = [
        [one, 0, 'A'],
        [one, 1, 'B'],
        [one, 2, 'A'],
        [one, 3, null],
        [two, 3, 'A'],
        [two, 1, 'A'],
      ];
      const ids: string[] = [];
      for (const [datasetId, position, externalId] of rows) {
        const id = randomUUID();
        ids.push(id);
        const ticket = { subject: 's', customerMessage: 'm', ...(externalId ? { externalId } : {}) };
        await runner.query(
          `INSERT INTO dataset_tickets (id, dataset_id, user_id, position, ticket) VALUES ($1, $2, $3, $4, $5)`,
          [id, datasetId, userId, position, ticket],
        );
      }
      await migration.up(runner);
      const stored: Array<{ id: string; external_id: string | null; expected: unknown }> = await runner.query(
        `SELECT id, external_id, expected FROM dataset_tickets WHERE user_id = $1`,
        [userId],
      );
      const keyOf = new Map(stored.map((row) => [row.id, row.external_id]));
      // Every ticket is still there; the first A (by position) of each dataset holds the key.
      expect(stored).toHaveLength(6);
      expect(ids.map((id) => keyOf.get(id))).toEqual(['A', 'B', null, null, null, 'A']);
      expect(stored.every((row) => row.expected === null)).toBe(true);
      await expect(
        runner.query(
          `INSERT INTO dataset_tickets (id, dataset_id, user_id, position, ticket, external_id) VALUES ($1, $2, $3, 9, '{}', 'A')`,
          [randomUUID(), one, userId],
        ),
      ).rejects.toThrow(/dataset_tickets_external_id_key/);
    });
  });
});
