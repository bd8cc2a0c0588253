import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DatasetsAndSimulations1764028800000 implements MigrationInterface {
  name = 'DatasetsAndSimulations1764028800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE datasets (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name text NOT NULL,
        ticket_count integer NOT NULL DEFAULT 0 CHECK (ticket_count BETWEEN 0 AND 250),
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    await db.query(
      `CREATE INDEX datasets_user_idx ON datasets (user_id, created_at DESC) WHERE deleted_at IS NULL`,
    );
    await db.query(`
      CREATE TABLE dataset_tickets (
        id uuid PRIMARY KEY,
        dataset_id uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        position integer NOT NULL,
        ticket jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT dataset_tickets_position_key UNIQUE (dataset_id, position)
      )`);
    await db.query(`
      CREATE TABLE simulations (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        dataset_id uuid NOT NULL REFERENCES datasets (id) ON DELETE CASCADE,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        pack_version_id uuid NOT NULL REFERENCES pack_versions (id) ON DELETE CASCADE,
        status text NOT NULL,
        reason text,
        total integer NOT NULL,
        completed integer NOT NULL DEFAULT 0,
        accept integer NOT NULL DEFAULT 0,
        review integer NOT NULL DEFAULT 0,
        reject integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        started_at timestamptz,
        finished_at timestamptz
      )`);
    await db.query(`CREATE INDEX simulations_user_idx ON simulations (user_id, created_at DESC, id DESC)`);
    await db.query(
      `ALTER TABLE evaluations ADD COLUMN simulation_id uuid REFERENCES simulations (id) ON DELETE CASCADE`,
    );
    await db.query(`ALTER TABLE evaluations ADD COLUMN dataset_ticket_id uuid`);
    // Exactly one evaluation per (simulation, ticket), whatever the job system does.
    await db.query(
      `CREATE UNIQUE INDEX evaluations_simulation_ticket_key ON evaluations (simulation_id, dataset_ticket_id) WHERE simulation_id IS NOT NULL`,
    );
    await db.query(
      `CREATE INDEX evaluations_user_simulation_idx ON evaluations (user_id, simulation_id, created_at DESC, id DESC) WHERE simulation_id IS NOT NULL`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX evaluations_user_simulation_idx`);
    await db.query(`DROP INDEX evaluations_simulation_ticket_key`);
    await db.query(`ALTER TABLE evaluations DROP COLUMN dataset_ticket_id`);
    await db.query(`ALTER TABLE evaluations DROP COLUMN simulation_id`);
    await db.query(`DROP TABLE simulations`);
    await db.query(`DROP TABLE dataset_tickets`);
    await db.query(`DROP TABLE datasets`);
  }
}
