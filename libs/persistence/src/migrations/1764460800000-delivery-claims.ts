import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A delivery attempt claims its row until `claimed_until` before it sends, so two jobs for one
 * delivery (a job taken over after a missed lock renewal, or recreated by the sweeper while the
 * first still runs) never send it at the same time. A worker that dies mid-send leaves a claim
 * that lapses, and the sweeper sends again: at least once across crashes, never twice at once.
 */
export class DeliveryClaims1764460800000 implements MigrationInterface {
  name = 'DeliveryClaims1764460800000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN claimed_until timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN claimed_until`);
  }
}
