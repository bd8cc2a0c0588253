import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { And, DataSource, LessThanOrEqual, MoreThan, type Repository } from 'typeorm';
import { EvaluationDailyStatsEntity } from '../entities/evaluation-daily-stats.entity.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import {
  countUnlabeledReviews,
  countUnlabeledReviewsOfSources,
  dailyOfSources,
} from '../statements/stats.statements.js';

export type DailyStatsRow = Omit<EvaluationDailyStatsEntity, 'userId'>;

const DAY_MS = 86_400_000;

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
    const before = new Date(Date.parse(`${today}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
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

  /** Evaluations in review without a label; with `sources`, of those sources only. */
  async unlabeledReviews(userId: string, sources?: string[]): Promise<number> {
    const row = sources
      ? await this.sql.first(countUnlabeledReviewsOfSources, { userId, sources })
      : await this.sql.first(countUnlabeledReviews, { userId });
    return row!.count;
  }
}
