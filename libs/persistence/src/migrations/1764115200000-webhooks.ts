import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Webhooks1764115200000 implements MigrationInterface {
  name = 'Webhooks1764115200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE webhook_endpoints (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
        url text NOT NULL,
        secret text NOT NULL,
        require_inbound_signature boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // An accepted inbound event: durable before the 202, judged later by a worker.
    await db.query(`
      CREATE TABLE inbound_events (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        pack_version_id uuid NOT NULL REFERENCES pack_versions (id) ON DELETE CASCADE,
        ticket jsonb NOT NULL,
        evaluation_id uuid,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(
      `CREATE INDEX inbound_events_pending_idx ON inbound_events (created_at) WHERE evaluation_id IS NULL`,
    );
    await db.query(`ALTER TABLE evaluations ADD COLUMN inbound_event_id uuid`);
    await db.query(
      `CREATE UNIQUE INDEX evaluations_inbound_event_key ON evaluations (inbound_event_id) WHERE inbound_event_id IS NOT NULL`,
    );
    await db.query(`ALTER TABLE idempotency_keys ADD COLUMN event_id uuid`);
    await db.query(`
      CREATE TABLE webhook_deliveries (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        event_id uuid NOT NULL UNIQUE REFERENCES inbound_events (id) ON DELETE CASCADE,
        evaluation_id uuid NOT NULL REFERENCES evaluations (id) ON DELETE CASCADE,
        payload jsonb NOT NULL,
        status text NOT NULL DEFAULT 'pending',
        attempts integer NOT NULL DEFAULT 0,
        last_status_code integer,
        last_error text,
        next_attempt_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(
      `CREATE INDEX webhook_deliveries_user_idx ON webhook_deliveries (user_id, created_at DESC, id DESC)`,
    );
    await db.query(
      `CREATE INDEX webhook_deliveries_failed_idx ON webhook_deliveries (user_id, updated_at DESC) WHERE status = 'failed'`,
    );
    await db.query(
      `CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (updated_at) WHERE status = 'pending'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE webhook_deliveries`);
    await db.query(`ALTER TABLE idempotency_keys DROP COLUMN event_id`);
    await db.query(`DROP INDEX evaluations_inbound_event_key`);
    await db.query(`ALTER TABLE evaluations DROP COLUMN inbound_event_id`);
    await db.query(`DROP TABLE inbound_events`);
    await db.query(`DROP TABLE webhook_endpoints`);
  }
}
