import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { And, DataSource, LessThanOrEqual, MoreThan, type Repository } from 'typeorm';
import { EvaluationDailyStatsEntity } from '../entities/evaluation-daily-stats.entity.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import {
  countUnlabeledReviews,
  countUnlabeledReviewsOfSources,
  dailyOfSources,
  dailyPackCosts,
  dailyPackCostsOfSources,
  type DailyPackCostRow,
} from '../statements/stats.statements.js';

export type DailyStatsRow = Omit<EvaluationDailyStatsEntity, 'userId'>;

const DAY_MS = 86_400_000;

/** The day before the `days` days that end with `today` (YYYY-MM-DD). */
function dayBefore(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}

/** Reads for GET /api/stats: the per-day counters kept by a trigger, and index-only counts. */
@Injectable()
export class StatsRepository {
  private readonly days: Repository<EvaluationDailyStatsEntity>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly sql: PreparedSql,
  ) {
    this.days = dataSource.getRepository(EvaluationDailyStatsEntity);
  }

  /**
   * Rows of the last `days` UTC days up to `today` (inclusive); days without evaluations have no row.
   * With `sources`, only those sources' evaluations count (the per-source counters).
   */
  daily(userId: string, today: string, days: number, sources?: string[]): Promise<DailyStatsRow[]> {
    const before = dayBefore(today, days);
    if (sources) return this.sql.rows(dailyOfSources, { userId, sources, after: before, today });
    return this.days.find({
      select: {
        day: true,
        accept: true,
        review: true,
        reject: true,
        latencyMsSum: true,
        inputTokens: true,
        outputTokens: true,
      },
      where: { userId, day: And(MoreThan(before), LessThanOrEqual(today)) },
      order: { day: 'ASC' },
    });
  }

  /**
   * Cost per pack and UTC day of the last `days` days up to `today`, from the per-pack counters
   * kept by the trigger; with `sources`, of those sources only. Days and packs without evaluations
   * have no row.
   */
  dailyPackCosts(
    userId: string,
    today: string,
    days: number,
    sources?: string[],
  ): Promise<DailyPackCostRow[]> {
    const after = dayBefore(today, days);
    return sources
      ? this.sql.rows(dailyPackCostsOfSources, { userId, sources, after, today })
      : this.sql.rows(dailyPackCosts, { userId, after, today });
  }

  /** Evaluations in review without a label; with `sources`, of those sources only. */
  async unlabeledReviews(userId: string, sources?: string[]): Promise<number> {
    const row = sources
      ? await this.sql.first(countUnlabeledReviewsOfSources, { userId, sources })
      : await this.sql.first(countUnlabeledReviews, { userId });
    return row!.count;
  }
}
