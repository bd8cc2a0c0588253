import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A finished simulation sends its own completion (`simulation.completed` or `simulation.failed`)
 * through the same delivery records as evaluations: a delivery is either an inbound event's
 * (event and evaluation set) or a simulation's (simulation set), at most one per simulation.
 */
export class SimulationCompletions1764547200000 implements MigrationInterface {
  name = 'SimulationCompletions1764547200000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries ALTER COLUMN event_id DROP NOT NULL`);
    await db.query(`ALTER TABLE webhook_deliveries ALTER COLUMN evaluation_id DROP NOT NULL`);
    await db.query(
      `ALTER TABLE webhook_deliveries ADD COLUMN simulation_id uuid UNIQUE REFERENCES simulations (id) ON DELETE CASCADE`,
    );
    await db.query(
      `ALTER TABLE webhook_deliveries ADD COLUMN type text NOT NULL DEFAULT 'evaluation.completed'`,
    );
    await db.query(`
      ALTER TABLE webhook_deliveries ADD CONSTRAINT webhook_deliveries_subject_check CHECK (
        (event_id IS NOT NULL AND evaluation_id IS NOT NULL AND simulation_id IS NULL)
        OR (event_id IS NULL AND evaluation_id IS NULL AND simulation_id IS NOT NULL))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM webhook_deliveries WHERE simulation_id IS NOT NULL`);
    await db.query(`ALTER TABLE webhook_deliveries DROP CONSTRAINT webhook_deliveries_subject_check`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN type`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN simulation_id`);
    await db.query(`ALTER TABLE webhook_deliveries ALTER COLUMN evaluation_id SET NOT NULL`);
    await db.query(`ALTER TABLE webhook_deliveries ALTER COLUMN event_id SET NOT NULL`);
  }
}
