import { Injectable } from '@nestjs/common';
import type { CostSum, EvaluationSource } from '@app/domain';
import { QualityService, type PackQualityView } from './quality.service.js';
import {
  SimulationRepository,
  StatsRepository,
  WebhookRepository,
  type DailyPackCostRow,
  type DailyStatsRow,
} from '@app/persistence';

export const STATS_DAYS = 30;

export interface StatsView {
  evaluationsToday: number;
  byStatus: { accept: number; review: number; reject: number };
  avgLatencyMs: number;
  tokens: { input: number; output: number };
  recentRuns: Array<{
    id: string;
    status: string;
    packId: string;
    createdAt: string;
    name: string | null;
    packName: string;
    datasetName: string;
    packVersionNumber: number | null;
    packVersionLive: boolean;
  }>;
  recentWebhookFailures: Array<{
    id: string;
    evaluationId: string;
    lastStatusCode: number;
    updatedAt: string;
  }>;
  reviewsToLabel: number;
  webhookFailureCount: number;
  daily: Array<{ date: string; accept: number; review: number; reject: number }>;
  /** The dashboard's Quality card: live packs with the audit on (empty when none). */
  quality: PackQualityView[];
  /** What the evaluations cost (docs/cost.md): today, and per day and pack. */
  cost: CostView;
}

export interface PackCostView extends CostSum {
  packId: string;
  packName: string;
  /** The pack was deleted since: what it spent stays counted. */
  packDeleted: boolean;
  evaluations: number;
}

export interface CostView {
  today: CostSum;
  /** The same 30 UTC days as `daily`, oldest first; `packs` holds the packs with evaluations that day. */
  days: Array<CostSum & { date: string; packs: PackCostView[] }>;
}

/** The 30 days' cost from the per-pack rows; a day's figures are its packs' sums. */
export function costView(days: string[], rows: DailyPackCostRow[]): CostView {
  const byDay = new Map<string, PackCostView[]>();
  for (const row of rows) {
    const packs = byDay.get(row.day) ?? [];
    packs.push({
      packId: row.packId,
      packName: row.packName,
      packDeleted: row.packDeleted,
      evaluations: row.evaluations,
      costUsd: row.costUsd,
      unknownCostEvaluations: row.unknownCostEvaluations,
    });
    byDay.set(row.day, packs);
  }
  const costDays = days.map((date) => {
    const packs = byDay.get(date) ?? [];
    return {
      date,
      costUsd: packs.reduce((sum, pack) => sum + pack.costUsd, 0),
      unknownCostEvaluations: packs.reduce((sum, pack) => sum + pack.unknownCostEvaluations, 0),
      packs,
    };
  });
  const today = costDays[costDays.length - 1];
  return {
    today: { costUsd: today.costUsd, unknownCostEvaluations: today.unknownCostEvaluations },
    days: costDays,
  };
}

/** The UTC dates of the `days` days ending with `today`, oldest first. */
export function utcDays(today: Date, days: number): string[] {
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  return Array.from({ length: days }, (_, i) =>
    new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/**
 * Stats for one user. Days are UTC. "Today" figures come from today's counters; `daily` covers
 * the last 30 days, oldest first, with zeros for days without evaluations.
 */
@Injectable()
export class StatsService {
  constructor(
    private readonly stats: StatsRepository,
    private readonly simulations: SimulationRepository,
    private readonly webhooks: WebhookRepository,
    private readonly quality: QualityService,
  ) {}

  /**
   * With `sources`, the evaluation figures (today's, `daily` and `reviewsToLabel`) count only
   * evaluations of those sources; runs and webhook failures are the same either way.
   */
  async forUser(userId: string, now = new Date(), sources?: readonly EvaluationSource[]): Promise<StatsView> {
    const days = utcDays(now, STATS_DAYS);
    const today = days[days.length - 1];
    const only = sources ? [...sources] : undefined;
    const [rows, reviewsToLabel, runs, failures, quality, packCosts] = await Promise.all([
      this.stats.daily(userId, today, STATS_DAYS, only),
      this.stats.unlabeledReviews(userId, only),
      this.simulations.list(userId, 5),
      this.webhooks.failures(userId, 5),
      this.quality.card(userId, now),
      this.stats.dailyPackCosts(userId, today, STATS_DAYS, only),
    ]);
    const byDay = new Map(rows.map((row) => [row.day, row]));
    const todayRow: DailyStatsRow = byDay.get(today) ?? {
      day: today,
      accept: 0,
      review: 0,
      reject: 0,
      latencyMsSum: 0,
      inputTokens: 0,
      outputTokens: 0,
    };
    const evaluationsToday = todayRow.accept + todayRow.review + todayRow.reject;
    return {
      evaluationsToday,
      byStatus: { accept: todayRow.accept, review: todayRow.review, reject: todayRow.reject },
      avgLatencyMs: evaluationsToday ? todayRow.latencyMsSum / evaluationsToday : 0,
      tokens: { input: todayRow.inputTokens, output: todayRow.outputTokens },
      recentRuns: runs.map((run) => ({
        id: run.id,
        status: run.status,
        packId: run.packId,
        createdAt: run.createdAt.toISOString(),
        name: run.name,
        packName: run.packName,
        datasetName: run.datasetName,
        packVersionNumber: run.packVersionNumber,
        packVersionLive: run.packVersionLive,
      })),
      recentWebhookFailures: failures.recent.map((delivery) => ({
        id: delivery.id,
        evaluationId: delivery.evaluationId,
        // The spec's field is an integer: 0 stands for "no response" (timeout, connection error).
        lastStatusCode: delivery.lastStatusCode ?? 0,
        updatedAt: delivery.updatedAt.toISOString(),
      })),
      reviewsToLabel,
      webhookFailureCount: failures.count,
      daily: days.map((date) => {
        const row = byDay.get(date);
        return { date, accept: row?.accept ?? 0, review: row?.review ?? 0, reject: row?.reject ?? 0 };
      }),
      quality,
      cost: costView(days, packCosts),
    };
  }
}
