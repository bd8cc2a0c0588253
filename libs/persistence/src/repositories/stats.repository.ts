import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface DailyStatsRow {
  day: string;
  accept: number;
  review: number;
  reject: number;
  latencyMsSum: number;
  inputTokens: number;
  outputTokens: number;
}

/** Reads for GET /api/stats: the per-day counters kept by a trigger, and index-only counts. */
@Injectable()
export class StatsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Rows of the last `days` UTC days up to `today` (inclusive); days without evaluations have no row. */
  async daily(userId: string, today: string, days: number): Promise<DailyStatsRow[]> {
    const rows: Array<{
      day: string;
      accept: number;
      review: number;
      reject: number;
      latency_ms_sum: string;
      input_tokens: string;
      output_tokens: string;
    }> = await this.dataSource.query(
      `SELECT day::text AS day, accept, review, reject, latency_ms_sum, input_tokens, output_tokens
         FROM evaluation_daily_stats
        WHERE user_id = $1 AND day > $2::date - $3::int AND day <= $2::date
        ORDER BY day`,
      [userId, today, days],
    );
    return rows.map((row) => ({
      day: row.day,
      accept: row.accept,
      review: row.review,
      reject: row.reject,
      latencyMsSum: Number(row.latency_ms_sum),
      inputTokens: Number(row.input_tokens),
      outputTokens: Number(row.output_tokens),
    }));
  }

  async unlabeledReviews(userId: string): Promise<number> {
    const rows: Array<{ count: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS count FROM evaluations WHERE user_id = $1 AND status = 'review' AND NOT labeled`,
      [userId],
    );
    return rows[0].count;
  }
}
