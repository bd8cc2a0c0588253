import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { PackQualityCounts } from '@app/domain';
import type { AlertRepository, CheckedPackRow } from '@app/persistence';
import type { WebhookQueue } from '@app/webhooks';
import { AlertMonitor } from './alert-monitor.js';

type NewAlert = Parameters<AlertRepository['open']>[0];

const NOW = new Date('2026-03-01T12:00:00Z');
const QUIET: PackQualityCounts = {
  agreement: [],
  answers: [],
  statuses: {
    recentTotal: 0,
    recentReview: 0,
    baselineTotal: 0,
    baselineReview: 0,
    gatewayTotal: 0,
    gatewayFailed: 0,
  },
};
/** 10 of 10 evaluations failed at the gateway: the gateway rule holds. */
const FAILING: PackQualityCounts = {
  ...QUIET,
  statuses: { ...QUIET.statuses, gatewayTotal: 10, gatewayFailed: 10 },
};

function monitorOf(packs: CheckedPackRow[], counts: Record<string, PackQualityCounts | Error>, open = true) {
  const opened: NewAlert[] = [];
  const closed: Array<[string, string, unknown[]]> = [];
  const refreshed: Array<[string, string]> = [];
  const repository = {
    packsToCheck: async () => packs,
    counts: async (pack: CheckedPackRow) => {
      const result = counts[pack.id];
      if (result instanceof Error) throw result;
      return result;
    },
    examples: async () => ['e1'],
    refresh: async (userId: string, alert: { packId: string }) => {
      refreshed.push([userId, alert.packId]);
      return !open;
    },
    open: async (alert: NewAlert) => {
      opened.push(alert);
      return { id: alert.id, deliveryId: alert.deliveryId };
    },
    closeCleared: async (userId: string, packId: string, holding: unknown[]) => {
      closed.push([userId, packId, holding]);
      return 0;
    },
  } as unknown as AlertRepository;
  const deliverSoon = jest.fn(async (_id: string) => undefined);
  const queue = { deliverSoon } as unknown as WebhookQueue;
  return { monitor: new AlertMonitor(repository, queue), opened, closed, refreshed, deliverSoon };
}

const pack = (id: string, rules: CheckedPackRow['rules'] = null, userId = 'u'): CheckedPackRow => ({
  id,
  userId,
  rules,
});

describe('AlertMonitor', () => {
  // The monitor logs each alert it opens and each pack that fails; the assertions say what happened.
  beforeAll(() => Logger.overrideLogger(false));

  it('opens an alert for a condition that holds, with its delivery queued, and closes the rest', async () => {
    const { monitor, opened, closed, deliverSoon } = monitorOf([pack('p1'), pack('p2', null, 'v')], {
      p1: FAILING,
      p2: QUIET,
    });
    expect(await monitor.run(NOW)).toEqual({ packs: 2, opened: 1, closed: 0 });
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      packId: 'p1',
      rule: 'gateway_failure_rate',
      questionId: null,
      exampleEvaluationIds: ['e1'],
      since: new Date('2026-03-01T11:45:00Z'),
      createdAt: NOW,
    });
    // The delivery carries the alert as the routes show it.
    expect(opened[0].payload).toEqual({
      type: 'quality.alert',
      alert: expect.objectContaining({ id: opened[0].id, status: 'open', since: '2026-03-01T11:45:00.000Z' }),
    });
    expect(deliverSoon).toHaveBeenCalledWith(opened[0].deliveryId);
    expect(closed).toEqual([
      ['u', 'p1', [expect.objectContaining({ rule: 'gateway_failure_rate', questionId: null })]],
      ['v', 'p2', []],
    ]);
  });

  it('refreshes an alert already open instead of opening and sending another', async () => {
    const { monitor, opened, refreshed, deliverSoon } = monitorOf([pack('p1')], { p1: FAILING }, false);
    expect(await monitor.run(NOW)).toEqual({ packs: 1, opened: 0, closed: 0 });
    expect(refreshed).toEqual([['u', 'p1']]);
    expect(opened).toEqual([]);
    expect(deliverSoon).not.toHaveBeenCalled();
  });

  it('applies the pack’s stored rules: a rule turned off opens nothing', async () => {
    const rules = { gatewayFailureRate: { enabled: false } };
    const { monitor, opened } = monitorOf([pack('p1', rules)], { p1: FAILING });
    await monitor.run(NOW);
    expect(opened).toEqual([]);
  });

  it('checks the other packs when one fails, then fails the run', async () => {
    const { monitor, opened } = monitorOf([pack('p1'), pack('p2')], {
      p1: new Error('connection lost'),
      p2: FAILING,
    });
    await expect(monitor.run(NOW)).rejects.toThrow('the alert check failed on 1 of 2 packs');
    expect(opened.map((alert) => alert.packId)).toEqual(['p2']);
  });
});
