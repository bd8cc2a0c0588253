import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dataset tickets get their `externalId` as a column, unique within a dataset, so an upload skips
 * tickets the dataset holds already; and their expected answers (`expected`, by question id).
 * Datasets uploaded before may hold one externalId several times: the first ticket (by position)
 * takes the key and the later ones stay as they are, without it, so no ticket is lost (a user can
 * delete them one by one) and later uploads are matched against the first.
 */
export class DatasetTicketKeysAndExpectedAnswers1795750324599 implements MigrationInterface {
  name = 'DatasetTicketKeysAndExpectedAnswers1795750324599';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE dataset_tickets ADD COLUMN external_id text, ADD COLUMN expected jsonb`);
    await db.query(`
      UPDATE dataset_tickets t SET external_id = first.external_id
        FROM (SELECT DISTINCT ON (dataset_id, ticket ->> 'externalId') id, ticket ->> 'externalId' AS external_id
                FROM dataset_tickets WHERE ticket ? 'externalId'
               ORDER BY dataset_id, ticket ->> 'externalId', position) first
       WHERE t.id = first.id`);
    await db.query(
      `CREATE UNIQUE INDEX dataset_tickets_external_id_key ON dataset_tickets (dataset_id, external_id) WHERE external_id IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX dataset_tickets_external_id_key`);
    await db.query(`ALTER TABLE dataset_tickets DROP COLUMN expected, DROP COLUMN external_id`);
  }
}
