import type { MigrationInterface, QueryRunner } from 'typeorm';
import { ADD_TO, FUNCTION } from './1795750200000-source-stats.js';

const LIVE = `source IN ('api', 'webhook', 'mcp')`;

/** An answer's category in SQL, as the domain's `answerCategory` (calibration.ts) gives it. */
const CATEGORY = `COALESCE(CASE a.value ->> 'type'
                   WHEN 'choice' THEN a.value ->> 'choice'
                   WHEN 'boolean' THEN CASE WHEN (a.value ->> 'probability')::float8 >= 0.5 THEN 'true' ELSE 'false' END
                   WHEN 'score' THEN a.value ->> 'score'
                 END, '(none)')`;

const STATUS_COUNTERS = `count(*) FILTER (WHERE status = 'accept'), count(*) FILTER (WHERE status = 'review'),
               count(*) FILTER (WHERE status = 'reject'),
               count(*) FILTER (WHERE audit_selected AND status IN ('accept', 'reject'))`;

const VERSION_ROWS = (from: string) => `
        SELECT pack_version_id, (created_at AT TIME ZONE 'UTC')::date,
               ${STATUS_COUNTERS}
          FROM ${from}
         WHERE ${LIVE}
         GROUP BY 1, 2
         ORDER BY 1, 2`;

const ANSWER_ROWS = (from: string) => `
        SELECT e.pack_version_id, (e.created_at AT TIME ZONE 'UTC')::date, a.key, ${CATEGORY}, count(*)
          FROM ${from} e, jsonb_each(e.result -> 'answers') a
         WHERE e.${LIVE}
         GROUP BY 1, 2, 3, 4
         ORDER BY 1, 2, 3, 4`;

/** What this migration adds to the trigger (later migrations build on it). */
export const ADD_VERSION_AND_ANSWERS = `
        INSERT INTO evaluation_daily_version_stats AS s (pack_version_id, day, accept, review, reject, audited)
        ${VERSION_ROWS('new_rows')}
        ON CONFLICT (pack_version_id, day) DO UPDATE SET
          accept = s.accept + excluded.accept,
          review = s.review + excluded.review,
          reject = s.reject + excluded.reject,
          audited = s.audited + excluded.audited;
        INSERT INTO evaluation_daily_answers AS s (pack_version_id, day, question_id, answer, count)
        ${ANSWER_ROWS('new_rows')}
        ON CONFLICT (pack_version_id, day, question_id, answer) DO UPDATE SET count = s.count + excluded.count;`;

/** What the trigger did before this migration (1795750200000-source-stats.ts). */
const BEFORE =
  ADD_TO('evaluation_daily_stats', 'user_id, day') +
  ADD_TO('evaluation_daily_source_stats', 'user_id, day, source');

/**
 * What `GET /api/packs/{packId}/quality` counts (docs/quality.md), kept per pack version and UTC day
 * for live traffic (api, webhook, mcp) by the same statement-level trigger as the stats, so the
 * route reads at most a window's days of rows however many evaluations it covers:
 * - `evaluation_daily_version_stats`: evaluations by status, and the automatic decisions selected for
 *   audit;
 * - `evaluation_daily_answers`: the judge's answers per question and answer (the category the
 *   domain's `answerCategory` gives: the choice, `true`/`false`, the score), the `judgeShare` of the
 *   prediction-powered estimates.
 * The audit sample that has labels is read through a partial index holding only those rows.
 * Evaluations are never updated in these columns and live ones never deleted but with their user
 * or pack (whose counters go with them), so adding on insert keeps the counters exact.
 */
export class QualityCounters1795750800000 implements MigrationInterface {
  name = 'QualityCounters1795750800000';

  async up(db: QueryRunner): Promise<void> {
    // No insert may slip between the trigger's change and the backfill (reads go on).
    await db.query(`LOCK TABLE evaluations IN SHARE MODE`);
    await db.query(`
      CREATE TABLE evaluation_daily_version_stats (
        pack_version_id uuid NOT NULL REFERENCES pack_versions (id) ON DELETE CASCADE,
        day date NOT NULL,
        accept integer NOT NULL DEFAULT 0,
        review integer NOT NULL DEFAULT 0,
        reject integer NOT NULL DEFAULT 0,
        audited integer NOT NULL DEFAULT 0,
        PRIMARY KEY (pack_version_id, day)
      )`);
    await db.query(`
      CREATE TABLE evaluation_daily_answers (
        pack_version_id uuid NOT NULL REFERENCES pack_versions (id) ON DELETE CASCADE,
        day date NOT NULL,
        question_id text NOT NULL,
        answer text NOT NULL,
        count integer NOT NULL DEFAULT 0,
        PRIMARY KEY (pack_version_id, day, question_id, answer)
      )`);
    await db.query(FUNCTION(BEFORE + ADD_VERSION_AND_ANSWERS));
    await db.query(`
      INSERT INTO evaluation_daily_version_stats (pack_version_id, day, accept, review, reject, audited)
      ${VERSION_ROWS('evaluations')}`);
    await db.query(`
      INSERT INTO evaluation_daily_answers (pack_version_id, day, question_id, answer, count)
      ${ANSWER_ROWS('evaluations')}`);
    await db.query(
      `CREATE INDEX evaluations_audit_labeled_idx ON evaluations (pack_version_id, created_at) WHERE audit_selected AND labeled`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX evaluations_audit_labeled_idx`);
    await db.query(FUNCTION(BEFORE));
    await db.query(`DROP TABLE evaluation_daily_answers`);
    await db.query(`DROP TABLE evaluation_daily_version_stats`);
  }
}
