import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A simulation's optional name, given when it is started (trimmed, 1 to 200 characters, checked by
 * the API). The constraint only refuses an empty name: the API counts characters as class-validator
 * does (variation selectors count for nothing), Postgres would count them, so an upper bound here
 * could turn a name the API accepted into a 500. Existing simulations have none.
 */
export class SimulationNames1795750239595 implements MigrationInterface {
  name = 'SimulationNames1795750239595';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE simulations ADD COLUMN name text
        CONSTRAINT simulations_name_length CHECK (char_length(name) > 0)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE simulations DROP COLUMN name`);
  }
}
