import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ADD_TO, FUNCTION } from './1795750200000-source-stats.js';
import { ADD_VERSION_AND_ANSWERS } from './1795750800000-quality-counters.js';
import { ADD_PACK_STATS } from './1795751100000-evaluation-cost.js';

/** What the trigger did before this migration (1795751100000-evaluation-cost.ts). */
const BEFORE =
  ADD_TO('evaluation_daily_stats', 'user_id, day') +
  ADD_TO('evaluation_daily_source_stats', 'user_id, day, source') +
  ADD_VERSION_AND_ANSWERS +
  ADD_PACK_STATS;

/**
 * For rows written before selected probabilities were stored (backfill only): an answer's selected
 * probability by the domain's `selectedProbability`: the chosen option's probability (1 when
 * absent), max(p, 1 − p) for a boolean, the highest score probability (1 when absent).
 */
const COMPUTED = `CASE a.value ->> 'type'
                   WHEN 'choice' THEN COALESCE((a.value -> 'probabilities' ->> (a.value ->> 'choice'))::float8, 1)
                   WHEN 'boolean' THEN greatest((a.value ->> 'probability')::float8, 1 - (a.value ->> 'probability')::float8)
                   WHEN 'score' THEN COALESCE((SELECT max(v::float8) FROM jsonb_each_text(a.value -> 'probabilities') AS p(k, v)), 1)
                 END`;

/**
 * The domain's `probabilityBin`: the probability in units of 0.0001, rounded to 0.000001 first so
 * that 0.29 (0.28999… in binary) falls in bin 2900, clamped to 0…10000.
 */
const BIN = (probability: string) =>
  `least(10000, greatest(0, floor(round(${probability} * 1000000) / 100)))::int`;

/** The trigger's part: the inserted rows' stored selected probabilities (every insert the service makes stores them), binned. */
const ADD_BINS = `
        INSERT INTO evaluation_probability_bins AS s (pack_version_id, question_id, bin, count)
        SELECT e.pack_version_id, p.key, ${BIN('p.value::float8')}, count(*)
          FROM new_rows e, jsonb_each_text(e.selected_probabilities) p
         GROUP BY 1, 2, 3
         ORDER BY 1, 2, 3
        ON CONFLICT (pack_version_id, question_id, bin) DO UPDATE SET count = s.count + excluded.count;`;

/**
 * PL/pgSQL plans each of the trigger's statements once per session, for the size of the first
 * insert it sees, and keeps that plan. After a large first insert (a bulk load of 50,000 rows), the
 * plans' estimates passed `jit_above_cost`, and every later single-row insert in that session paid
 * JIT compilation: 18 ms instead of 1.2 (0.7 s with a subquery per answer). JIT never pays for
 * these few-row aggregates, so the function runs without it. `CREATE OR REPLACE FUNCTION` clears
 * this setting: a later migration that replaces the function must set it again.
 */
const NO_JIT = `ALTER FUNCTION evaluation_daily_stats_add() SET jit = off`;

/** The backfill: stored selected probabilities, or for older rows the same rule on each answer. */
const BACKFILL_BINS = `
      INSERT INTO evaluation_probability_bins (pack_version_id, question_id, bin, count)
      SELECT pack_version_id, question_id, ${BIN('probability')}, count(*)
        FROM (SELECT e.pack_version_id, a.key AS question_id,
                     CASE WHEN e.selected_probabilities IS NULL THEN ${COMPUTED}
                          ELSE (e.selected_probabilities ->> a.key)::float8 END AS probability
                FROM evaluations e, jsonb_each(e.result -> 'answers') a
               WHERE jsonb_typeof(a.value) = 'object') answered
       WHERE probability IS NOT NULL
       GROUP BY 1, 2, 3`;

const UNLABELED_REVIEW = `status = 'review' AND NOT labeled`;

/** The trigger's part for the review backlog: inserted reviews come unlabeled. */
const ADD_BACKLOG = `
        INSERT INTO evaluation_review_backlog AS b (user_id, source, unlabeled)
        SELECT user_id, source, count(*) FROM new_rows WHERE ${UNLABELED_REVIEW}
         GROUP BY 1, 2
         ORDER BY 1, 2
        ON CONFLICT (user_id, source) DO UPDATE SET unlabeled = b.unlabeled + excluded.unlabeled;`;

/**
 * After an update (labels set and clear `labeled`): each (user, source) moves by the reviews that
 * became unlabeled less those that stopped being.
 */
const BACKLOG_UPDATE_FUNCTION = `
      CREATE OR REPLACE FUNCTION evaluation_review_backlog_update() RETURNS trigger LANGUAGE plpgsql SET jit = off AS $$
      BEGIN
        INSERT INTO evaluation_review_backlog AS b (user_id, source, unlabeled)
        SELECT user_id, source, sum(change)
          FROM (SELECT user_id, source, 1 AS change FROM new_rows WHERE ${UNLABELED_REVIEW}
                UNION ALL
                SELECT user_id, source, -1 FROM old_rows WHERE ${UNLABELED_REVIEW}) changed
         GROUP BY 1, 2
        HAVING sum(change) <> 0
         ORDER BY 1, 2
        ON CONFLICT (user_id, source) DO UPDATE SET unlabeled = b.unlabeled + excluded.unlabeled;
        RETURN NULL;
      END $$`;

/**
 * Dashboard counters for ten million evaluations a tenant (issue 26, goal 4), kept by triggers as
 * the other per-day counters are, so each read costs the same however many evaluations there are.
 *
 * `evaluation_review_backlog` (user, source): evaluations in review without a label, GET /api/stats'
 * `reviewsToLabel`. Counting them on the partial index of unlabeled reviews read every entry: 2.7
 * million at ten million evaluations, 170 ms a request. The insert trigger adds new reviews; an
 * update trigger moves the count as labels set and clear `labeled` (status never changes).
 *
 * `evaluation_probability_bins`: the calibration report's `reviewShareAtSuggested` and
 * `coverageAtGuaranteed` need the share of a version's evaluations whose selected probability for a question is below a
 * threshold. Counting it over the version's rows read every one of them (ten million for a large
 * tenant, seconds a request); the same statement-level trigger as the other counters now keeps a
 * histogram per pack version and question at 0.0001 resolution (`evaluation_probability_bins`: at
 * most 10,001 rows a question), so the route reads at most that many rows of a primary key. Every
 * source counts, as before. Every insert the service makes stores the selected probabilities
 * (`selected_probabilities`), which the trigger bins; the backfill computes them for rows written
 * before they were stored. Evaluations are never updated in these columns and never deleted but
 * with their user, pack or version (whose counters go with them), so these counters stay exact.
 */
export class DashboardCounters1795751400000 implements MigrationInterface {
  name = 'DashboardCounters1795751400000';

  async up(db: QueryRunner): Promise<void> {
    // No insert may slip between the trigger's change and the backfill (reads go on).
    await db.query(`LOCK TABLE evaluations IN SHARE MODE`);
    await db.query(`
      CREATE TABLE evaluation_probability_bins (
        pack_version_id uuid NOT NULL REFERENCES pack_versions (id) ON DELETE CASCADE,
        question_id text NOT NULL,
        bin integer NOT NULL,
        count integer NOT NULL DEFAULT 0,
        PRIMARY KEY (pack_version_id, question_id, bin)
      )`);
    await db.query(`
      CREATE TABLE evaluation_review_backlog (
        user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        source text NOT NULL,
        unlabeled integer NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, source)
      )`);
    await db.query(FUNCTION(BEFORE + ADD_BINS + ADD_BACKLOG));
    await db.query(NO_JIT);
    await db.query(BACKLOG_UPDATE_FUNCTION);
    await db.query(`
      CREATE TRIGGER evaluations_review_backlog AFTER UPDATE ON evaluations
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION evaluation_review_backlog_update()`);
    await db.query(BACKFILL_BINS);
    await db.query(`
      INSERT INTO evaluation_review_backlog (user_id, source, unlabeled)
      SELECT user_id, source, count(*) FROM evaluations WHERE ${UNLABELED_REVIEW} GROUP BY 1, 2`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(FUNCTION(BEFORE));
    await db.query(`ALTER FUNCTION evaluation_daily_stats_add() RESET jit`);
    await db.query(`DROP TRIGGER evaluations_review_backlog ON evaluations`);
    await db.query(`DROP FUNCTION evaluation_review_backlog_update()`);
    await db.query(`DROP TABLE evaluation_review_backlog`);
    await db.query(`DROP TABLE evaluation_probability_bins`);
  }
}
