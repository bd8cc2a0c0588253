import { describe, expect, it } from '@jest/globals';
import { formatLatency } from '../../lib/format';
import {
  chartRows,
  dailySummary,
  dailyTotals,
  formatCompact,
  formatDay,
  formatStatusCode,
  isNewAccount,
  statusSplit,
} from './dashboard';

const day = (date: string, accept: number, review: number, reject = 0) => ({ date, accept, review, reject });

const emptyStats = {
  evaluationsToday: 0,
  byStatus: { accept: 0, review: 0, reject: 0 },
  avgLatencyMs: 0,
  tokens: { input: 0, output: 0 },
  recentRuns: [],
  recentWebhookFailures: [],
  reviewsToLabel: 0,
  webhookFailureCount: 0,
  daily: [day('2026-11-20', 0, 0), day('2026-11-21', 0, 0)],
};

describe('chartRows', () => {
  it('keeps the order and labels each UTC day', () => {
    expect(chartRows([day('2026-11-20', 3, 1), day('2026-11-21', 0, 2, 1)])).toEqual([
      { date: '2026-11-20', day: 'Nov 20', accept: 3, review: 1, reject: 0 },
      { date: '2026-11-21', day: 'Nov 21', accept: 0, review: 2, reject: 1 },
    ]);
  });

  it('counts a missing reject as zero', () => {
    const rows = chartRows([{ date: '2026-01-01', accept: 1, review: 0 } as never]);
    expect(rows[0].reject).toBe(0);
  });

  it('returns no rows for no days', () => {
    expect(chartRows([])).toEqual([]);
  });
});

describe('formatDay', () => {
  it('reads the date as UTC', () => {
    expect(formatDay('2026-01-01')).toBe('Jan 1');
    expect(formatDay('2026-12-31')).toBe('Dec 31');
  });

  it('gives back what it cannot read', () => {
    expect(formatDay('someday')).toBe('someday');
  });
});

describe('dailyTotals and dailySummary', () => {
  const daily = [day('2026-11-20', 3, 1), day('2026-11-21', 5, 2, 1), day('2026-11-22', 0, 0)];

  it('adds up every status', () => {
    expect(dailyTotals(daily)).toEqual({ accept: 8, review: 3, reject: 1, total: 12 });
  });

  it('describes the period and its busiest day', () => {
    expect(dailySummary(daily)).toBe(
      '12 evaluations in the last 3 days: 8 accepted, 3 sent to review, 1 rejected. Busiest day: Nov 21 with 8.',
    );
  });

  it('says so when nothing happened', () => {
    expect(dailySummary([day('2026-11-20', 0, 0)])).toBe('No evaluations in the last 1 days.');
  });
});

describe('statusSplit', () => {
  it('gives counts and whole percentages', () => {
    expect(statusSplit({ accept: 2, review: 1, reject: 1 })).toEqual([
      { status: 'accept', label: 'Accept', count: 2, percent: 50 },
      { status: 'review', label: 'Review', count: 1, percent: 25 },
      { status: 'reject', label: 'Reject', count: 1, percent: 25 },
    ]);
  });

  it('is all zeros on a quiet day', () => {
    expect(statusSplit({ accept: 0, review: 0, reject: 0 }).map((share) => share.percent)).toEqual([0, 0, 0]);
  });
});

describe('number formatting', () => {
  it('formats latency in ms or seconds', () => {
    expect(formatLatency(0)).toBe('—');
    expect(formatLatency(812.4)).toBe('812 ms');
    expect(formatLatency(1440)).toBe('1.4 s');
    expect(formatLatency(12_600)).toBe('13 s');
  });

  it('keeps large counts short', () => {
    expect(formatCompact(9999)).toBe('9,999');
    expect(formatCompact(12_345)).toBe('12.3k');
    expect(formatCompact(250_000)).toBe('250k');
    expect(formatCompact(4_500_000)).toBe('4.5M');
    expect(formatCompact(2_000_000)).toBe('2M');
  });

  it('names a missing response', () => {
    expect(formatStatusCode(0)).toBe('no response');
    expect(formatStatusCode(null)).toBe('no response');
    expect(formatStatusCode(502)).toBe('HTTP 502');
  });
});

describe('isNewAccount', () => {
  it('is true with nothing at all', () => {
    expect(isNewAccount(emptyStats)).toBe(true);
  });

  it('is false once anything happened', () => {
    expect(isNewAccount({ ...emptyStats, daily: [day('2026-11-20', 0, 1)] })).toBe(false);
    expect(isNewAccount({ ...emptyStats, reviewsToLabel: 3 })).toBe(false);
    expect(
      isNewAccount({
        ...emptyStats,
        recentRuns: [{ id: 'r', status: 'queued', packId: 'p', createdAt: '2026-11-20T00:00:00Z' }],
      }),
    ).toBe(false);
    expect(isNewAccount({ ...emptyStats, webhookFailureCount: 1 })).toBe(false);
  });
});
