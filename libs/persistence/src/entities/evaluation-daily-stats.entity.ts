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
