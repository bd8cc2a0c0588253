import { describe, expect, it } from '@jest/globals';
import type { Answer } from '@app/domain';
import type { ShadowReportRows } from '@app/persistence';
import { labelAgreement, shadowReport } from './shadow-report.js';

const choice = (value: string): Answer => ({
  type: 'choice',
  choice: value,
  probabilities: { [value]: 0.9 },
});

const totals: ShadowReportRows['totals'] = {
  judged: 4,
  failed: 1,
  pending: 2,
  liveReview: 1,
  shadowReview: 3,
  liveInputTokens: 400,
  liveOutputTokens: 40,
  shadowInputTokens: 800,
  shadowOutputTokens: 80,
  liveCostUsd: 0.004,
  liveUnknownCost: 0,
  shadowCostUsd: 0.002,
  shadowUnknownCost: 2,
  liveLatencyMean: 100,
  liveLatencyP95: 150,
  shadowLatencyMean: 200,
  shadowLatencyP95: 300,
};

describe('shadowReport', () => {
  it('groups the flip cells by question, counts changes, and takes shares over the judged', () => {
    const report = shadowReport({
      totals,
      statusChanges: [{ from: 'accept', to: 'review', count: 4 }],
      flips: [
        { questionId: 'department', from: 'billing', to: 'billing', count: 1, evaluationIds: ['e1'] },
        {
          questionId: 'department',
          from: 'billing',
          to: 'technical',
          count: 3,
          evaluationIds: ['e2', 'e3', 'e4'],
        },
        {
          questionId: 'urgent',
          from: '(none)',
          to: 'true',
          count: 4,
          evaluationIds: ['e1', 'e2', 'e3', 'e4'],
        },
      ],
      labels: [],
    });
    expect(report).toMatchObject({ sampled: 6, judged: 4, failed: 1, pending: 2 });
    expect(report.reviewShare).toEqual({ live: 0.25, shadow: 0.75 });
    expect(
      report.questions.map(({ questionId, compared, changed }) => [questionId, compared, changed]),
    ).toEqual([
      ['department', 4, 3],
      ['urgent', 4, 4],
    ]);
    expect(report.usage.shadow).toEqual({
      inputTokens: 800,
      outputTokens: 80,
      cost: { costUsd: 0.002, unknownCostEvaluations: 2 },
      meanLatencyMs: 200,
      p95LatencyMs: 300,
    });
  });

  it('gives null shares before anything is judged', () => {
    const report = shadowReport({
      totals: { ...totals, judged: 0, failed: 0, liveReview: 0, shadowReview: 0 },
      statusChanges: [],
      flips: [],
      labels: [],
    });
    expect(report.reviewShare).toEqual({ live: null, shadow: null });
  });
});

describe('labelAgreement', () => {
  it('weighs audit-drawn evaluations by 1/π on both sides of the same labels', () => {
    // Live agrees on the π = 0.5 item only; shadow on the two π = 1 items.
    // Hájek: live (2·1) / (2 + 1 + 1) = 0.5; shadow (1 + 1) / 4 = 0.5. Kish n = 16 / 6.
    const rows = [
      {
        questionId: 'q',
        label: choice('a'),
        live: choice('a'),
        shadow: choice('b'),
        auditSelected: true,
        auditProbability: 0.5,
      },
      {
        questionId: 'q',
        label: choice('a'),
        live: choice('b'),
        shadow: choice('a'),
        auditSelected: false,
        auditProbability: 0.5,
      },
      {
        questionId: 'q',
        label: choice('a'),
        live: null,
        shadow: choice('a'),
        auditSelected: null,
        auditProbability: null,
      },
    ];
    const [q] = labelAgreement(rows);
    expect(q.labels).toBe(3);
    expect(q.live.estimate).toBeCloseTo(0.5, 12);
    expect(q.shadow.estimate).toBeCloseTo(0.5, 12);
    // Wilson at p̂ = 0.5, n = 8/3, z = 1.959964: centre 0.5, half z·√(0.25/n + z²/4n²)/(1 + z²/n)
    // = 1.959964 · √(0.093750 + 0.135051) / 2.440547 = 0.384141.
    expect(q.live.low).toBeCloseTo(0.5 - 0.384141, 5);
    expect(q.shadow.high).toBeCloseTo(0.5 + 0.384141, 5);
  });
});
