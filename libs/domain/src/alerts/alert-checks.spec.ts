import { describe, expect, it } from '@jest/globals';
import {
  checkAgreementDrift,
  checkAnswerShift,
  checkGatewayFailureRate,
  checkPackQuality,
  checkReviewShareJump,
  type StatusCounts,
} from './alert-checks.js';
import { alertWindows, DEFAULT_ALERT_RULES, withDefaultRules } from './alert-rules.js';

const DRIFT = DEFAULT_ALERT_RULES.agreementDrift;
const QUIET: StatusCounts = {
  recentTotal: 0,
  recentReview: 0,
  baselineTotal: 0,
  baselineReview: 0,
  gatewayTotal: 0,
  gatewayFailed: 0,
};

describe('agreement drift', () => {
  const baseline = { questionId: 'department', baselineLabels: 100, baselineAgreed: 90 };

  it('fires when the recent upper bound is below baseline − margin', () => {
    // Baseline 0.9, limit 0.8; 27 of 40: upper bound 0.782324 < 0.8.
    const finding = checkAgreementDrift({ ...baseline, recentLabels: 40, recentAgreed: 27 }, DRIFT);
    expect(finding).toMatchObject({ rule: 'agreement_drift', questionId: 'department' });
    expect(finding!.figures.upperBound).toBeCloseTo(0.782324, 5);
    expect(finding!.figures.limit).toBeCloseTo(0.8, 12);
    expect(finding!.figures.drop).toBeCloseTo(0.225, 12);
    expect(finding!.examples).toEqual({ kind: 'disagreements', questionId: 'department' });
  });

  it('does not fire when the bound reaches the limit', () => {
    // 29 of 40 = 0.725: its upper bound (0.824034) is above 0.8, though the estimate is below.
    expect(checkAgreementDrift({ ...baseline, recentLabels: 40, recentAgreed: 29 }, DRIFT)).toBeNull();
  });

  it('needs the minimum of labels in both windows', () => {
    expect(checkAgreementDrift({ ...baseline, recentLabels: 29, recentAgreed: 0 }, DRIFT)).toBeNull();
    const fewBaseline = { ...baseline, baselineLabels: 29, baselineAgreed: 29 };
    expect(checkAgreementDrift({ ...fewBaseline, recentLabels: 40, recentAgreed: 0 }, DRIFT)).toBeNull();
    expect(
      checkAgreementDrift({ ...baseline, recentLabels: 40, recentAgreed: 0 }, { ...DRIFT, enabled: false }),
    ).toBeNull();
  });
});

describe('answer shift', () => {
  const rule = DEFAULT_ALERT_RULES.answerShift;

  it('fires above the PSI threshold with enough answers in both windows', () => {
    // PSI 0.368087 (alert-statistics.spec) > 0.25; 100 answers in each window ≥ 50.
    const finding = checkAnswerShift(
      { questionId: 'q', recent: { a: 30, b: 70 }, baseline: { a: 60, b: 40 } },
      rule,
    );
    expect(finding!.figures.psi).toBeCloseTo(0.368087, 5);
    expect(finding!.examples).toEqual({ kind: 'answers', questionId: 'q', category: 'b' });
  });

  it('does not fire below the threshold or under the minimum count', () => {
    const counts = { questionId: 'q', recent: { a: 30, b: 70 }, baseline: { a: 60, b: 40 } };
    expect(checkAnswerShift(counts, { ...rule, psiThreshold: 0.4 })).toBeNull();
    expect(checkAnswerShift(counts, { ...rule, minCount: 101 })).toBeNull();
  });
});

describe('review share jump', () => {
  const rule = DEFAULT_ALERT_RULES.reviewShareJump;

  it('fires on a significant rise of at least the minimum jump', () => {
    // 30/100 against 20/200: jump 0.2 ≥ 0.1, z = 4.381780 > 1.644854.
    const finding = checkReviewShareJump(
      { ...QUIET, recentTotal: 100, recentReview: 30, baselineTotal: 200, baselineReview: 20 },
      rule,
    );
    expect(finding!.figures.z).toBeCloseTo(4.38178, 5);
    expect(finding!.figures.jump).toBeCloseTo(0.2, 12);
  });

  it('does not fire on a small or insignificant rise', () => {
    // Jump 0.02 < 0.1 (and z = 0.45).
    const small = { ...QUIET, recentTotal: 100, recentReview: 12, baselineTotal: 100, baselineReview: 10 };
    expect(checkReviewShareJump(small, rule)).toBeNull();
    // Jump 0.2 but with 10 and 10: z = 0.2/√(0.3·0.7·0.2) = 0.9759 < 1.6449 (and under the minimum count).
    const tiny = { ...QUIET, recentTotal: 10, recentReview: 4, baselineTotal: 10, baselineReview: 2 };
    expect(checkReviewShareJump(tiny, { ...rule, minCount: 1 })).toBeNull();
  });
});

describe('gateway failure rate', () => {
  const rule = DEFAULT_ALERT_RULES.gatewayFailureRate;

  it('fires above the threshold with the minimum count', () => {
    const finding = checkGatewayFailureRate({ ...QUIET, gatewayTotal: 10, gatewayFailed: 3 }, rule);
    expect(finding!.figures.rate).toBeCloseTo(0.3, 12);
  });

  it('does not fire at the threshold or under the minimum count', () => {
    expect(checkGatewayFailureRate({ ...QUIET, gatewayTotal: 10, gatewayFailed: 2 }, rule)).toBeNull();
    expect(checkGatewayFailureRate({ ...QUIET, gatewayTotal: 9, gatewayFailed: 9 }, rule)).toBeNull();
  });
});

describe('pack checks', () => {
  it('returns the findings of every rule that holds', () => {
    const findings = checkPackQuality(
      {
        agreement: [
          { questionId: 'a', recentLabels: 40, recentAgreed: 27, baselineLabels: 100, baselineAgreed: 90 },
        ],
        answers: [],
        statuses: { ...QUIET, gatewayTotal: 10, gatewayFailed: 10 },
      },
      DEFAULT_ALERT_RULES,
    );
    expect(findings.map((finding) => finding.rule)).toEqual(['agreement_drift', 'gateway_failure_rate']);
  });

  it('fills fields missing from stored settings with the defaults', () => {
    const rules = withDefaultRules({ answerShift: { psiThreshold: 1 } });
    expect(rules.answerShift).toEqual({ enabled: true, psiThreshold: 1, minCount: 50 });
    expect(rules.agreementDrift).toEqual(DEFAULT_ALERT_RULES.agreementDrift);
  });
});

describe('alert windows', () => {
  it('are the last 7 days, the 28 before, and the last 15 minutes', () => {
    const windows = alertWindows(new Date('2026-03-01T12:00:00Z'));
    expect(windows.recentSince.toISOString()).toBe('2026-02-22T12:00:00.000Z');
    expect(windows.baselineSince.toISOString()).toBe('2026-01-25T12:00:00.000Z');
    expect(windows.gatewaySince.toISOString()).toBe('2026-03-01T11:45:00.000Z');
  });
});
