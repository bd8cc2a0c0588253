import { defineStatement } from './statement.js';

/**
 * Evaluations in review without a label, from the per-(user, source) counter the triggers keep
 * (`evaluation_review_backlog`, migration 1795751400000-dashboard-counters): at most 5 rows.
 */
export const countUnlabeledReviews = defineStatement<{ userId: string }, { count: number }>({
  name: 'stats.unlabeledReviews',
  sql: `SELECT COALESCE(sum(unlabeled), 0)::int AS count FROM evaluation_review_backlog WHERE user_id = :userId`,
});

/** The same, of some sources only (GET /api/stats?source=…). */
export const countUnlabeledReviewsOfSources = defineStatement<
  { userId: string; sources: string[] },
  { count: number }
>({
  name: 'stats.unlabeledReviewsOfSources',
  sql: `
    SELECT COALESCE(sum(unlabeled), 0)::int AS count
      FROM evaluation_review_backlog
     WHERE user_id = :userId AND source = ANY(:sources::text[])`,
});

/** A day's counters, summed over the given sources. */
export interface DailySourceStatsRow {
  day: string;
  accept: number;
  review: number;
  reject: number;
  latencyMsSum: number;
  inputTokens: number;
  outputTokens: number;
}

/**
 * The per-source counters of the days after `after` up to `today`, summed over `sources`, oldest
 * first (at most 30 × 5 rows of the primary key); days without evaluations have no row.
 */
export const dailyOfSources = defineStatement<
  { userId: string; sources: string[]; after: string; today: string },
  DailySourceStatsRow
>({
  name: 'stats.dailyOfSources',
  sql: `
    SELECT day::text AS day, sum(accept)::int AS accept, sum(review)::int AS review, sum(reject)::int AS reject,
           sum(latency_ms_sum)::float8 AS "latencyMsSum", sum(input_tokens)::float8 AS "inputTokens",
           sum(output_tokens)::float8 AS "outputTokens"
      FROM evaluation_daily_source_stats
     WHERE user_id = :userId AND day > :after::date AND day <= :today::date AND source = ANY(:sources::text[])
     GROUP BY day
     ORDER BY day`,
});

/** A day's cost of one pack: the sum of its known costs, and how many evaluations had none. */
export interface DailyPackCostRow {
  day: string;
  packId: string;
  packName: string;
  /** The pack was deleted since (softly: what it spent stays counted). */
  packDeleted: boolean;
  evaluations: number;
  costUsd: number;
  unknownCostEvaluations: number;
}

const PACK_COSTS = (sources: string) => `
    SELECT c.day::text AS day, c.pack_id AS "packId", p.name AS "packName",
           p.deleted_at IS NOT NULL AS "packDeleted",
           sum(c.evaluations)::int AS evaluations, sum(c.cost_usd)::float8 AS "costUsd",
           sum(c.unknown_cost)::int AS "unknownCostEvaluations"
      FROM evaluation_daily_pack_stats c
      JOIN packs p ON p.id = c.pack_id
     WHERE c.user_id = :userId AND c.day > :after::date AND c.day <= :today::date${sources}
     GROUP BY c.day, c.pack_id, p.id
     ORDER BY c.day, c.pack_id`;

/**
 * The per-pack cost counters of the days after `after` up to `today`, summed over sources, oldest
 * first (at most 30 days × packs × 5 sources rows of the primary key); days without evaluations
 * have no row.
 */
export const dailyPackCosts = defineStatement<
  { userId: string; after: string; today: string },
  DailyPackCostRow
>({
  name: 'stats.dailyPackCosts',
  sql: PACK_COSTS(''),
});

/** The same, of the given sources only (GET /api/stats?source=…). */
export const dailyPackCostsOfSources = defineStatement<
  { userId: string; sources: string[]; after: string; today: string },
  DailyPackCostRow
>({
  name: 'stats.dailyPackCostsOfSources',
  sql: PACK_COSTS(' AND c.source = ANY(:sources::text[])'),
});
