import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery remembers which round of sends it is in (0 for the first, a new one per manual
 * redelivery), so the sweeper can find, or recreate, the exact BullMQ job of a pending delivery
 * after Redis lost it; the partial index serves that sweep.
 */
export class DeliveryRounds1764288000000 implements MigrationInterface {
  name = 'DeliveryRounds1764288000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN round integer NOT NULL DEFAULT 0`);
    await db.query(
      `CREATE INDEX webhook_deliveries_overdue_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX webhook_deliveries_overdue_idx`);
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN round`);
  }
}
