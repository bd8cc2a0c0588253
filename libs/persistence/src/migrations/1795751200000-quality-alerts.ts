import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Quality alerts (docs/alerts.md): each pack's rule settings (a row only once they were changed),
 * the alerts, at most one not closed per (pack, rule, question), and a delivery per alert sent to
 * the user's completion endpoint through the same delivery records as completions.
 */
export class QualityAlerts1795751200000 implements MigrationInterface {
  name = 'QualityAlerts1795751200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE pack_alert_rules (
        pack_id uuid PRIMARY KEY REFERENCES packs (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        rules jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await db.query(`
      CREATE TABLE quality_alerts (
        id uuid PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        rule text NOT NULL,
        question_id text,
        status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'acknowledged', 'closed')),
        summary text NOT NULL,
        figures jsonb NOT NULL,
        example_evaluation_ids uuid[] NOT NULL DEFAULT '{}',
        since timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        acknowledged_at timestamptz,
        closed_at timestamptz
      )`);
    // One alert not closed per (pack, rule, question): a condition that stays true is not raised again.
    await db.query(`
      CREATE UNIQUE INDEX quality_alerts_active_key ON quality_alerts (pack_id, rule, (COALESCE(question_id, '')))
       WHERE status <> 'closed'`);
    await db.query(`CREATE INDEX quality_alerts_user_idx ON quality_alerts (user_id, created_at DESC)`);
    await db.query(
      `ALTER TABLE webhook_deliveries ADD COLUMN alert_id uuid UNIQUE REFERENCES quality_alerts (id) ON DELETE CASCADE`,
    );
    await db.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subject_check`);
    await db.query(`
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subject_check CHECK (
        (event_id IS NOT NULL AND evaluation_id IS NOT NULL AND simulation_id IS NULL AND alert_id IS NULL)
        OR (event_id IS NULL AND evaluation_id IS NULL AND simulation_id IS NOT NULL AND alert_id IS NULL)
        OR (event_id IS NULL AND evaluation_id IS NULL AND simulation_id IS NULL AND alert_id IS NOT NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM webhook_deliveries WHERE alert_id IS NOT NULL`);
    await db.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subject_check`);
    await db.query(`
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subject_check CHECK (
        (event_id IS NOT NULL AND evaluation_id IS NOT NULL AND simulation_id IS NULL)
        OR (event_id IS NULL AND evaluation_id IS NULL AND simulation_id IS NOT NULL))`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN alert_id`);
    await db.query(`DROP TABLE quality_alerts`);
    await db.query(`DROP TABLE pack_alert_rules`);
  }
}
