import { describe, expect, it } from '@jest/globals';
import {
  agrees,
  answerCategory,
  calibrateQuestion,
  cohensKappa,
  labelsNeededForSuggestion,
  MIN_LABELS_FOR_SUGGESTION,
  PROBABILITY_BINS,
  probabilityBin,
  shareBelowThreshold,
  suggestThreshold,
  type LabeledAnswer,
} from './calibration.js';
import type { Answer } from './judgment.js';
import type { Question } from './pack-document.js';

const choice = (value: string, p = 0.9): Answer => ({
  type: 'choice',
  choice: value,
  probabilities: { [value]: p },
});
const label = (value: string): Answer => ({ type: 'choice', choice: value });
const question: Question = {
  type: 'choice',
  id: 'dept',
  name: 'Dept',
  instructions: '',
  criteria: { options: [{ value: 'billing' }, { value: 'tech' }] },
  review: { minSelectedProbability: 0.5 },
};

describe('agreement', () => {
  it('compares the choice, the boolean side or the score; a failed judgment never agrees', () => {
    expect(agrees(choice('billing'), label('billing'))).toBe(true);
    expect(agrees(choice('billing'), label('tech'))).toBe(false);
    expect(agrees({ type: 'boolean', probability: 0.7 }, { type: 'boolean', probability: 1 })).toBe(true);
    expect(agrees({ type: 'boolean', probability: 0.3 }, { type: 'boolean', probability: 1 })).toBe(false);
    expect(agrees({ type: 'score', score: 3 }, { type: 'score', score: 3 })).toBe(true);
    expect(agrees({ type: 'score', score: 3 }, { type: 'score', score: 4 })).toBe(false);
    expect(agrees(undefined, label('billing'))).toBe(false);
    expect(answerCategory(undefined)).toBe('(none)');
  });
});

describe("Cohen's kappa", () => {
  it('matches a hand-computed 2x2 example', () => {
    // 10 items: model/label = (yes,yes) x4, (yes,no) x2, (no,yes) x1, (no,no) x3.
    // p_o = 7/10 = 0.7; model yes 6/10, label yes 5/10; p_e = 0.6*0.5 + 0.4*0.5 = 0.5; kappa = 0.2/0.5 = 0.4.
    const pairs: Array<[string, string]> = [
      ...Array(4).fill(['yes', 'yes']),
      ...Array(2).fill(['yes', 'no']),
      ['no', 'yes'],
      ...Array(3).fill(['no', 'no']),
    ];
    expect(cohensKappa(pairs)).toBeCloseTo(0.4, 10);
  });

  it('is 1 for perfect agreement, negative below chance, null when undefined', () => {
    expect(
      cohensKappa([
        ['a', 'a'],
        ['b', 'b'],
      ]),
    ).toBe(1);
    expect(
      cohensKappa([
        ['a', 'b'],
        ['b', 'a'],
      ]),
    ).toBe(-1);
    expect(
      cohensKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]),
    ).toBeNull();
    expect(cohensKappa([])).toBeNull();
  });
});

describe('suggestThreshold', () => {
  const items: LabeledAnswer[] = [
    { model: choice('billing', 0.4), label: label('tech') },
    { model: choice('billing', 0.5), label: label('billing') },
    { model: choice('billing', 0.6), label: label('tech') },
    { model: choice('billing', 0.8), label: label('billing') },
    { model: choice('billing', 0.9), label: label('billing') },
  ];

  it('finds the lowest threshold whose answers at or above it reach the target agreement', () => {
    // >=0.4: 3/5; >=0.5: 3/4; >=0.6: 2/3; >=0.8: 2/2.
    expect(suggestThreshold(items, 0.95)).toBe(0.8);
    expect(suggestThreshold(items, 0.75)).toBe(0.5);
    expect(suggestThreshold(items, 0.6)).toBe(0.4);
    expect(suggestThreshold([{ model: choice('billing', 0.9), label: label('tech') }], 0.5)).toBeNull();
  });
});

describe('calibrateQuestion', () => {
  it('reports count, agreement, kappa, confusion and reliability', () => {
    const items: LabeledAnswer[] = [
      { model: choice('billing', 0.95), label: label('billing') },
      { model: choice('billing', 0.92), label: label('billing') },
      { model: choice('tech', 0.55), label: label('billing') },
      { model: choice('tech', 0.85), label: label('tech') },
      { model: undefined, label: label('tech') },
    ];
    const report = calibrateQuestion(question, items, 0.95);
    expect(report.labeled).toBe(5);
    expect(report.agreementRate).toBeCloseTo(3 / 5, 10);
    // Categories (none), billing, tech. p_o = 0.6; model: billing .4, tech .4, none .2; label: billing .6, tech .4.
    // p_e = .4*.6 + .4*.4 + .2*0 = .4; kappa = (.6 - .4) / .6 = 1/3.
    expect(report.kappa).toBeCloseTo(1 / 3, 10);
    expect(report.confusion).toEqual({
      categories: ['(none)', 'billing', 'tech'],
      matrix: [
        [0, 0, 1],
        [0, 2, 0],
        [0, 1, 1],
      ],
    });
    // Without a map, no bin has a calibrated probability.
    expect(report.reliability[5]).toEqual({ from: 0.5, to: 0.6, count: 1, agreement: 0, calibrated: null });
    expect(report.reliability[8]).toEqual({ from: 0.8, to: 0.9, count: 1, agreement: 1, calibrated: null });
    expect(report.reliability[9]).toEqual({ from: 0.9, to: 1, count: 2, agreement: 1, calibrated: null });
    expect(report.reliability[0]).toEqual({ from: 0, to: 0.1, count: 0, agreement: null, calibrated: null });
    expect(report.suggestedMinSelectedProbability).toBe(0.85);
    // 5 labels: the suggestion is computed but needs 25 more labels before it is offered.
    expect(report.labelsNeededForSuggestion).toBe(MIN_LABELS_FOR_SUGGESTION - 5);
  });

  it('puts the mean calibrated probability of each bin beside its observed agreement when there is a map', () => {
    const items: LabeledAnswer[] = [
      { model: choice('billing', 0.95), label: label('billing') },
      { model: choice('billing', 0.91), label: label('tech') },
      { model: choice('tech', 0.55), label: label('billing') },
      { model: undefined, label: label('tech') },
    ];
    // A map that halves the judge's probability: bin 0.9–1 holds 0.95 and 0.91, (0.475 + 0.455) / 2 =
    // 0.465; bin 0.5–0.6 holds 0.55, 0.275; the failed judgment is in no bin; empty bins stay null.
    const report = calibrateQuestion(question, items, 0.95, (p) => p / 2);
    expect(report.reliability[9]).toEqual({
      from: 0.9,
      to: 1,
      count: 2,
      agreement: 0.5,
      calibrated: expect.closeTo(0.465, 12),
    });
    expect(report.reliability[5]).toMatchObject({
      count: 1,
      agreement: 0,
      calibrated: expect.closeTo(0.275, 12),
    });
    expect(report.reliability[7]).toMatchObject({ count: 0, agreement: null, calibrated: null });
  });

  it('asks for 30 labels before a suggestion is offered, and none beyond', () => {
    expect(MIN_LABELS_FOR_SUGGESTION).toBe(30);
    expect(labelsNeededForSuggestion(0)).toBe(30);
    expect(labelsNeededForSuggestion(2)).toBe(28);
    expect(labelsNeededForSuggestion(30)).toBe(0);
    expect(labelsNeededForSuggestion(45)).toBe(0);
  });
});

describe('probabilityBin and shareBelowThreshold', () => {
  it('bins a probability in units of 0.0001, after rounding away binary representation error', () => {
    // 0.29 * 10000 is 2899.9999999999995 in binary floating point; 0.07 * 10000 is 700.0000000000001.
    expect(probabilityBin(0.29)).toBe(2900);
    expect(probabilityBin(0.07)).toBe(700);
    expect(probabilityBin(0.62)).toBe(6200);
    expect(probabilityBin(0.12345)).toBe(1234);
    expect(probabilityBin(0.99995)).toBe(9999);
    expect(probabilityBin(1)).toBe(PROBABILITY_BINS);
    expect(probabilityBin(0)).toBe(0);
  });

  it('puts an artifact just under a four-decimal threshold in its bin, so the share leaves it out (documented)', () => {
    // 1 - 0.07 is 0.9299999999999999: the decision rule sends it to review at 0.93, the bins do not count it below.
    expect(1 - 0.07 < 0.93).toBe(true);
    expect(probabilityBin(1 - 0.07)).toBe(probabilityBin(0.93));
    // A four-decimal neighbour is still told apart.
    expect(probabilityBin(0.9299)).toBeLessThan(probabilityBin(0.93));
  });

  it('clamps what lies outside [0, 1]', () => {
    expect(probabilityBin(1.2)).toBe(PROBABILITY_BINS);
    expect(probabilityBin(-0.1)).toBe(0);
  });

  it('orders like the decision rule for thresholds of at most four decimals: p < t exactly when its bin is lower', () => {
    const probabilities = [0, 0.1, 0.29, 0.2999, 0.3, 0.30001, 0.55, 0.7, 0.8, 0.95, 0.9999, 1];
    for (const t of [0.1, 0.29, 0.3, 0.7, 0.9999, 1]) {
      for (const p of probabilities)
        expect([t, p, probabilityBin(p) < probabilityBin(t)]).toEqual([t, p, p < t]);
    }
  });

  it('shares the count below, null when nothing was answered', () => {
    expect(shareBelowThreshold({ answered: 8, below: 2 })).toBe(0.25);
    expect(shareBelowThreshold({ answered: 0, below: 0 })).toBeNull();
  });
});
