import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ADD_TO, FUNCTION } from './1795750200000-source-stats.js';
import { ADD_VERSION_AND_ANSWERS } from './1795750800000-quality-counters.js';

/** What the trigger did before this migration (1795750800000-quality-counters.ts). */
const BEFORE =
  ADD_TO('evaluation_daily_stats', 'user_id, day') +
  ADD_TO('evaluation_daily_source_stats', 'user_id, day, source') +
  ADD_VERSION_AND_ANSWERS;

const PACK_ROWS = (from: string) => `
        SELECT user_id, (created_at AT TIME ZONE 'UTC')::date, pack_id, source,
               count(*), COALESCE(sum(cost_usd), 0), count(*) FILTER (WHERE cost_usd IS NULL)
          FROM ${from}
         GROUP BY 1, 2, 3, 4
         ORDER BY 1, 2, 3, 4`;

/** What this migration adds to the trigger (later migrations build on it). */
export const ADD_PACK_STATS = `
        INSERT INTO evaluation_daily_pack_stats AS s
               (user_id, day, pack_id, source, evaluations, cost_usd, unknown_cost)
        ${PACK_ROWS('new_rows')}
        ON CONFLICT (user_id, day, pack_id, source) DO UPDATE SET
          evaluations = s.evaluations + excluded.evaluations,
          cost_usd = s.cost_usd + excluded.cost_usd,
          unknown_cost = s.unknown_cost + excluded.unknown_cost;`;

/**
 * Cost (issue 24 §3, docs/cost.md): each evaluation's `cost_usd`, its tokens at the configured price
 * of its model, null when the model has no price (unknown, never 0). Nullable without a default, so
 * adding it rewrites no row; rows judged before it are unknown.
 *
 * The same statement-level trigger as the other counters keeps `evaluation_daily_pack_stats` per
 * user, UTC day, pack and source: evaluations, the sum of the known costs and how many were
 * unknown, so `GET /api/stats` reads at most 30 days × packs × 5 sources rows of a primary key
 * however many evaluations they cover. Packs are deleted softly (`deleted_at`), so what a deleted
 * pack spent stays in the totals, as its evaluations stay in the per-day counts.
 */
export class EvaluationCost1795751100000 implements MigrationInterface {
  name = 'EvaluationCost1795751100000';

  async up(db: QueryRunner): Promise<void> {
    // No insert may slip between the trigger's change and the backfill (reads go on).
    await db.query(`LOCK TABLE evaluations IN SHARE MODE`);
    await db.query(`ALTER TABLE evaluations ADD COLUMN cost_usd double precision`);
    await db.query(`
      CREATE TABLE evaluation_daily_pack_stats (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        day date NOT NULL,
        pack_id uuid NOT NULL REFERENCES packs (id) ON DELETE CASCADE,
        source text NOT NULL,
        evaluations integer NOT NULL DEFAULT 0,
        cost_usd double precision NOT NULL DEFAULT 0,
        unknown_cost integer NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, day, pack_id, source)
      )`);
    await db.query(FUNCTION(BEFORE + ADD_PACK_STATS));
    await db.query(`
      INSERT INTO evaluation_daily_pack_stats
             (user_id, day, pack_id, source, evaluations, cost_usd, unknown_cost)
      ${PACK_ROWS('evaluations')}`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(FUNCTION(BEFORE));
    await db.query(`DROP TABLE evaluation_daily_pack_stats`);
    await db.query(`ALTER TABLE evaluations DROP COLUMN cost_usd`);
  }
}
