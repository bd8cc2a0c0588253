import { Column, Entity, PrimaryColumn } from 'typeorm';

/** bigint columns arrive from pg as strings; sums of a day fit a double exactly. */
const bigintAsNumber = { to: (value: number) => value, from: (value: string) => Number(value) };

/** A day's counters: judgments by status, and the latency and tokens they took. */
abstract class DailyCounters {
  @Column('integer', { default: 0 })
  accept: number;

  @Column('integer', { default: 0 })
  review: number;

  @Column('integer', { default: 0 })
  reject: number;

  @Column('bigint', { name: 'latency_ms_sum', default: 0, transformer: bigintAsNumber })
  latencyMsSum: number;

  @Column('bigint', { name: 'input_tokens', default: 0, transformer: bigintAsNumber })
  inputTokens: number;

  @Column('bigint', { name: 'output_tokens', default: 0, transformer: bigintAsNumber })
  outputTokens: number;
}

/** Per user and UTC day counters, kept by a statement-level trigger on evaluations. */
@Entity('evaluation_daily_stats')
export class EvaluationDailyStatsEntity extends DailyCounters {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  /** The UTC day, as YYYY-MM-DD (pg returns dates as text). */
  @PrimaryColumn('date')
  day: string;
}

/** The same counters per user, UTC day and source, kept by the same trigger (`GET /api/stats?source=`). */
@Entity('evaluation_daily_source_stats')
export class EvaluationDailySourceStatsEntity extends DailyCounters {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('date')
  day: string;

  @PrimaryColumn('text')
  source: string;
}

/**
 * Per pack version and UTC day, live traffic only (api, webhook, mcp): evaluations by status and
 * the automatic decisions selected for audit, kept by the same trigger (GET /api/packs/{id}/quality).
 */
@Entity('evaluation_daily_version_stats')
export class EvaluationDailyVersionStatsEntity {
  @PrimaryColumn('uuid', { name: 'pack_version_id' })
  packVersionId: string;

  @PrimaryColumn('date')
  day: string;

  @Column('integer', { default: 0 })
  accept: number;

  @Column('integer', { default: 0 })
  review: number;

  @Column('integer', { default: 0 })
  reject: number;

  @Column('integer', { default: 0 })
  audited: number;
}

/** Per pack version, UTC day, question and answer (its category), live traffic only: the judge's answers. */
@Entity('evaluation_daily_answers')
export class EvaluationDailyAnswerEntity {
  @PrimaryColumn('uuid', { name: 'pack_version_id' })
  packVersionId: string;

  @PrimaryColumn('date')
  day: string;

  @PrimaryColumn('text', { name: 'question_id' })
  questionId: string;

  @PrimaryColumn('text')
  answer: string;

  @Column('integer', { default: 0 })
  count: number;
}

/**
 * Per user, UTC day, pack and source, kept by the same trigger: evaluations, the sum of their known
 * costs (USD) and how many had an unknown cost (a model without a price), for GET /api/stats' `cost`.
 * A deleted pack's spending stays counted (packs are deleted softly).
 */
@Entity('evaluation_daily_pack_stats')
export class EvaluationDailyPackStatsEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('date')
  day: string;

  @PrimaryColumn('uuid', { name: 'pack_id' })
  packId: string;

  @PrimaryColumn('text')
  source: string;

  @Column('integer', { default: 0 })
  evaluations: number;

  @Column('double precision', { name: 'cost_usd', default: 0 })
  costUsd: number;

  @Column('integer', { name: 'unknown_cost', default: 0 })
  unknownCost: number;
}

/**
 * Per pack version, question and bin of 0.0001 (the domain's `probabilityBin`), every source, kept by
 * the same trigger: how many answers had a selected probability in the bin, for the calibration
 * report's share below a threshold.
 */
@Entity('evaluation_probability_bins')
export class EvaluationProbabilityBinEntity {
  @PrimaryColumn('uuid', { name: 'pack_version_id' })
  packVersionId: string;

  @PrimaryColumn('text', { name: 'question_id' })
  questionId: string;

  @PrimaryColumn('integer')
  bin: number;

  @Column('integer', { default: 0 })
  count: number;
}

/**
 * Per user and source, kept by the insert trigger and an update trigger: evaluations in review
 * without a label, for GET /api/stats' `reviewsToLabel`.
 */
@Entity('evaluation_review_backlog')
export class EvaluationReviewBacklogEntity {
  @PrimaryColumn('uuid', { name: 'user_id' })
  userId: string;

  @PrimaryColumn('text')
  source: string;

  @Column('integer', { default: 0 })
  unlabeled: number;
}
