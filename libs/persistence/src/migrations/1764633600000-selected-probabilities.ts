import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each evaluation stores its answers' selected probabilities (`{questionId: p}`), computed at write
 * time by the domain's `selectedProbability`, so calibration compares numbers in SQL instead of
 * restating the rule there. Rows written before stay null; calibration computes theirs in TypeScript.
 */
export class SelectedProbabilities1764633600000 implements MigrationInterface {
  name = 'SelectedProbabilities1764633600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE evaluations ADD COLUMN selected_probabilities jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE evaluations DROP COLUMN selected_probabilities`);
  }
}
