import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Audit sampling (docs/reviews.md, "Audit sampling"):
 * - each pack's settings, `audit_rate` (0 = off, the default) and `audit_strategy`, on the packs
 *   row, so the judge reads them with the live version it already reads (one lookup, cached);
 * - each evaluation's draw: `audit_probability` (π) and `audit_selected`, both null when nothing was
 *   drawn (the audit off, or not live traffic). Nullable without a default, so adding them
 *   rewrites no row;
 * - the audit queue's partial index (GET /api/reviews?queue=audit), as the review queue's;
 * - the index of the uncertainty strategy's baseline: a pack's latest drawn automatic decisions.
 *   Only drawn rows enter either index, so a pack with the audit off adds no index entry.
 */
export class AuditSampling1795750500000 implements MigrationInterface {
  name = 'AuditSampling1795750500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE packs
        ADD COLUMN audit_rate double precision NOT NULL DEFAULT 0
          CONSTRAINT packs_audit_rate_check CHECK (audit_rate >= 0 AND audit_rate <= 1),
        ADD COLUMN audit_strategy text NOT NULL DEFAULT 'uncertainty'
          CONSTRAINT packs_audit_strategy_check CHECK (audit_strategy IN ('uniform', 'uncertainty'))`);
    await db.query(`
      ALTER TABLE evaluations
        ADD COLUMN audit_probability double precision,
        ADD COLUMN audit_selected boolean`);
    await db.query(
      `CREATE INDEX evaluations_audit_idx ON evaluations (user_id, created_at DESC, id DESC) WHERE audit_selected AND status IN ('accept', 'reject')`,
    );
    await db.query(
      `CREATE INDEX evaluations_audit_baseline_idx ON evaluations (pack_id, created_at DESC) WHERE audit_probability IS NOT NULL AND status IN ('accept', 'reject')`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX evaluations_audit_baseline_idx`);
    await db.query(`DROP INDEX evaluations_audit_idx`);
    await db.query(`ALTER TABLE evaluations DROP COLUMN audit_selected, DROP COLUMN audit_probability`);
    await db.query(`ALTER TABLE packs DROP COLUMN audit_strategy, DROP COLUMN audit_rate`);
  }
}
