import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Simulation progress is counted from its evaluations; the per-ticket counters (a hot lock) go. */
export class SimulationProgressFromEvaluations1764201600000 implements MigrationInterface {
  name = 'SimulationProgressFromEvaluations1764201600000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `ALTER TABLE simulations DROP COLUMN completed, DROP COLUMN accept, DROP COLUMN review, DROP COLUMN reject`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE simulations
        ADD COLUMN completed integer NOT NULL DEFAULT 0, ADD COLUMN accept integer NOT NULL DEFAULT 0,
        ADD COLUMN review integer NOT NULL DEFAULT 0, ADD COLUMN reject integer NOT NULL DEFAULT 0`);
    await db.query(`
      UPDATE simulations s SET completed = c.completed, accept = c.accept, review = c.review, reject = c.reject
        FROM (SELECT simulation_id, count(*)::int AS completed, (count(*) FILTER (WHERE status = 'accept'))::int AS accept,
                     (count(*) FILTER (WHERE status = 'review'))::int AS review, (count(*) FILTER (WHERE status = 'reject'))::int AS reject
                FROM evaluations WHERE simulation_id IS NOT NULL GROUP BY simulation_id) c
       WHERE c.simulation_id = s.id`);
  }
}
