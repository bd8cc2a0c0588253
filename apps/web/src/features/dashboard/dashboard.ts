import type { Schemas } from '../../api/client';
import { countLabel, formatCount } from '../../lib/format';
import { statusColor } from '../../ui/status';

type Stats = Schemas['StatsDto'];
type Daily = Schemas['DailyDto'];

export type Status = 'accept' | 'review' | 'reject';

export const STATUSES: readonly Status[] = ['accept', 'review', 'reject'];

export const STATUS_LABELS: Record<Status, string> = {
  accept: 'Accept',
  review: 'Review',
  reject: 'Reject',
};

/** Chart and card colours: the app's status colours (lib/status.ts) at the chart's shade. */
export const STATUS_COLORS: Record<Status, string> = {
  accept: `${statusColor('accept')}.6`,
  review: `${statusColor('review')}.6`,
  reject: `${statusColor('reject')}.6`,
};

export interface ChartRow {
  /** The UTC date, `2026-11-21`. */
  date: string;
  /** What the axis shows, `Nov 21`. */
  day: string;
  accept: number;
  review: number;
  reject: number;
}

/** `2026-11-21` (a UTC day) as `Nov 21`. */
export function formatDay(date: string): string {
  const parsed = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(parsed.getTime())) return date;
  return parsed.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The daily series as chart rows, oldest first; a missing `reject` counts as 0. */
export function chartRows(daily: readonly Daily[]): ChartRow[] {
  return daily.map((day) => ({
    date: day.date,
    day: formatDay(day.date),
    accept: day.accept,
    review: day.review,
    reject: day.reject ?? 0,
  }));
}

export interface Totals {
  accept: number;
  review: number;
  reject: number;
  total: number;
}

export function dailyTotals(daily: readonly Daily[]): Totals {
  const totals = { accept: 0, review: 0, reject: 0, total: 0 };
  for (const day of daily) {
    totals.accept += day.accept;
    totals.review += day.review;
    totals.reject += day.reject ?? 0;
  }
  totals.total = totals.accept + totals.review + totals.reject;
  return totals;
}

/** One sentence describing the 30 days, the chart's text alternative. */
export function dailySummary(daily: readonly Daily[]): string {
  const totals = dailyTotals(daily);
  if (totals.total === 0) return `No evaluations in the last ${daily.length} days.`;
  let busiest = daily[0];
  for (const day of daily) {
    if (dayTotal(day) > dayTotal(busiest)) busiest = day;
  }
  return (
    `${countLabel(totals.total, 'evaluation')} in the last ${daily.length} days: ` +
    `${formatCount(totals.accept)} accepted, ${formatCount(totals.review)} sent to review, ` +
    `${formatCount(totals.reject)} rejected. ` +
    `Busiest day: ${formatDay(busiest.date)} with ${formatCount(dayTotal(busiest))}.`
  );
}

function dayTotal(day: Daily): number {
  return day.accept + day.review + (day.reject ?? 0);
}

export interface StatusShare {
  status: Status;
  label: string;
  count: number;
  /** Whole percent of the day's evaluations (0 without any). */
  percent: number;
}

export function statusSplit(byStatus: Stats['byStatus']): StatusShare[] {
  const total = byStatus.accept + byStatus.review + byStatus.reject;
  return STATUSES.map((status) => ({
    status,
    label: STATUS_LABELS[status],
    count: byStatus[status],
    percent: total === 0 ? 0 : Math.round((byStatus[status] / total) * 100),
  }));
}

/** `1,234`, or `12.3k` / `4.5M` past ten thousand, so the card stays one line. */
export function formatCompact(value: number): string {
  if (value < 10_000) return formatCount(value);
  if (value < 1_000_000) return `${trim(value / 1000)}k`;
  return `${trim(value / 1_000_000)}M`;
}

function trim(value: number): string {
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
}

/** A new account: nothing judged in 30 days, nothing to label, no simulations, no deliveries. */
export function isNewAccount(stats: Stats): boolean {
  return (
    stats.evaluationsToday === 0 &&
    dailyTotals(stats.daily).total === 0 &&
    stats.reviewsToLabel === 0 &&
    stats.recentRuns.length === 0 &&
    stats.recentWebhookFailures.length === 0 &&
    stats.webhookFailureCount === 0
  );
}

/** The stats report `0` for a delivery that got no response at all. */
export function formatStatusCode(code: number | null): string {
  return code ? `HTTP ${code}` : 'no response';
}
