import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The u each audit draw used (docs/quality.md, "The audit draw"): `audit_uncertainty`, null where
 * nothing was drawn and on rows drawn before it was stored. The uncertainty strategy's ū is the mean
 * of u over a pack's recent draws, and u can come from a calibration map that SQL cannot apply, so
 * the draw stores what it used. Nullable without a default, so adding it rewrites no row.
 */
export class AuditUncertainty1795750900000 implements MigrationInterface {
  name = 'AuditUncertainty1795750900000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE evaluations ADD COLUMN audit_uncertainty double precision`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE evaluations DROP COLUMN audit_uncertainty`);
  }
}
