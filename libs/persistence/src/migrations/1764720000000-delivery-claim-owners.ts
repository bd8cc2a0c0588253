import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Who holds a delivery's claim: a token drawn per attempt. The attempt renews and records only
 * while the row still holds its token, so an attempt whose claim lapsed and was taken by another
 * can neither extend nor overwrite that other attempt's claim or outcome.
 */
export class DeliveryClaimOwners1764720000000 implements MigrationInterface {
  name = 'DeliveryClaimOwners1764720000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries ADD COLUMN claim_owner uuid`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE webhook_deliveries DROP COLUMN claim_owner`);
  }
}
