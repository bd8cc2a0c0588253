import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  clopperPearsonLower,
  firstTestedStratumSize,
  guaranteedThreshold,
  minimumStratumSize,
} from './guaranteed-threshold.js';
import type { AuditedAnswer } from './weighted.js';

const answer = (selectedProbability: number, agreed: boolean, inclusionProbability = 1): AuditedAnswer => ({
  selectedProbability,
  agreed,
  inclusionProbability,
});

describe('Clopper–Pearson lower bound', () => {
  it('for 9 agreeing of 10 at δ = 0.1 is the L with P(Binomial(10, L) ≥ 9) = 0.1, 0.663152', () => {
    // The δ quantile of Beta(9, 2) solves 10·L⁹·(1 − L) + L¹⁰ = 0.1. At L = 0.663152:
    // L⁹ = 0.024793, L¹⁰ = 0.016442 → 10·0.024793·0.336848 + 0.016442 = 0.083514 + 0.016442 = 0.099956 ≈ 0.1.
    const L = clopperPearsonLower(9, 10, 0.1);
    expect(L).toBeCloseTo(0.663152, 6);
    expect(10 * L ** 9 * (1 - L) + L ** 10).toBeCloseTo(0.1, 9);
  });

  it('is δ^(1/n) when every label agrees, and 0 when none does', () => {
    // Beta(n, 1) has CDF Lⁿ, so its δ quantile is δ^(1/n): 0.1^(1/22) = e^(−2.302585/22) = 0.900628.
    expect(clopperPearsonLower(22, 22, 0.1)).toBeCloseTo(0.900628, 6);
    expect(clopperPearsonLower(0, 10, 0.1)).toBe(0);
  });

  it('needs n₀ = ⌈ln δ / ln target⌉ labels to reach the target at all', () => {
    // ln 0.1 / ln 0.9 = −2.302585 / −0.105361 = 21.85 → 22: 0.9²¹ = 0.1094 > 0.1 ≥ 0.9²² = 0.0985.
    expect(minimumStratumSize(0.9, 0.1)).toBe(22);
    // ln 0.25 / ln 0.5 = 2 exactly: 0.5² = 0.25.
    expect(minimumStratumSize(0.5, 0.25)).toBe(2);
    expect(minimumStratumSize(1, 0.1)).toBe(Infinity);
    expect(firstTestedStratumSize(0.9, 0.1)).toBe(75);
    expect(firstTestedStratumSize(0.9, 0.1)).toBeGreaterThanOrEqual(22);
  });
});

describe('guaranteed threshold', () => {
  // Target 0.5, δ = 0.25: the walk starts at 6 labels (firstTestedStratumSize), n₀ = 2.
  // The top six (0.99 … 0.94) agree: L(6 of 6) = 0.25^(1/6) = 0.793701 ≥ 0.5 → 0.94 passes.
  // 0.93 disagrees, 6 of 7: P(Bin(7, 0.5) ≥ 6) = 8/128 = 0.0625 < 0.25, so L > 0.5 → passes.
  // 0.92 disagrees, 6 of 8: P(Bin(8, 0.5) ≥ 6) = 37/256 = 0.1445 < 0.25 → passes.
  // 0.91 disagrees, 6 of 9: P(Bin(9, 0.5) ≥ 6) = 130/512 = 0.2539 > 0.25, so L < 0.5 → fails: stop.
  // 0.90 agrees, 7 of 10 would pass (P(Bin(10, 0.5) ≥ 7) = 176/1024 = 0.172), but the walk has stopped.
  const sample = [
    ...[0.99, 0.98, 0.97, 0.96, 0.95, 0.94].map((p) => answer(p, true)),
    answer(0.93, false),
    answer(0.92, false),
    answer(0.91, false),
    answer(0.9, true),
  ];

  it('walks down from the top and keeps the last threshold before the first failure', () => {
    expect(firstTestedStratumSize(0.5, 0.25)).toBe(6);
    const result = guaranteedThreshold(sample, [0.95, 0.92, 0.5, 0.91], 0.5, 0.25);
    expect(result.threshold).toBe(0.92);
    // Coverage: answers of the population at or above 0.92: 0.95 and 0.92 of 4 → 0.5.
    expect(result.coverage).toBe(0.5);
    expect(result.labelsNeeded).toBeNull();
    expect(result.labels).toBe(10);
  });

  it('gives the same threshold when every π is the same (the weights then cancel)', () => {
    const scaled = sample.map((item) => ({ ...item, inclusionProbability: 0.2 }));
    expect(guaranteedThreshold(scaled, [0.95], 0.5, 0.25).threshold).toBe(0.92);
  });

  it('is null without labels, and says the least labels it could ever need', () => {
    expect(guaranteedThreshold([], [0.9, 0.8], 0.9, 0.1)).toEqual({
      threshold: null,
      coverage: null,
      labelsNeeded: 75,
      labels: 0,
    });
  });

  it('counts the labels still needed when the top agrees above the target', () => {
    // Four labels, all agreeing, target 0.5, δ 0.25: no stratum holds the 6 the walk starts at.
    // All agreeing, 2 would be enough for the bound (0.25^(1/2) = 0.5), but testing starts at 6 → 6 − 4 = 2.
    const few = [0.99, 0.98, 0.97, 0.96].map((p) => answer(p, true));
    expect(guaranteedThreshold(few, [], 0.5, 0.25).labelsNeeded).toBe(2);
    // Six at the top, 4 agreeing, fail (L(4 of 6) = 0.446802 < 0.5); then 4 more labels below.
    // The top agrees at 2/3 > 0.5: the smallest m with L(2m/3 of m) ≥ 0.5, grown in proportion (6 of 10).
    const failing = [
      ...[0.99, 0.98, 0.97, 0.96].map((p) => answer(p, true)),
      answer(0.95, false),
      answer(0.94, false),
      ...[0.5, 0.4, 0.3, 0.2].map((p) => answer(p, true)),
    ];
    const result = guaranteedThreshold(failing, [], 0.5, 0.25);
    expect(result.threshold).toBeNull();
    let m = 6;
    while (clopperPearsonLower((2 / 3) * m, m, 0.25) < 0.5) m++;
    expect(result.labelsNeeded).toBe(Math.ceil((m * 10) / 6) - 10);
    // When the top itself agrees at or below the target, more labels of the same kind cannot help.
    const below = [
      ...[0.99, 0.98, 0.97].map((p) => answer(p, true)),
      ...[0.96, 0.95, 0.94].map((p) => answer(p, false)),
    ];
    expect(guaranteedThreshold(below, [], 0.5, 0.25).labelsNeeded).toBeNull();
  });

  it('refuses a δ outside (0, 0.5] and a target outside [0, 1]', () => {
    expect(() => guaranteedThreshold([], [], 0.9, 0)).toThrow(RangeError);
    expect(() => guaranteedThreshold([], [], 0.9, 0.6)).toThrow(RangeError);
    expect(() => guaranteedThreshold([], [], 1.1, 0.1)).toThrow(RangeError);
  });
});

const labeled = fc.array(
  fc.record({
    // Few distinct probabilities, so ties are common.
    selectedProbability: fc.integer({ min: 50, max: 100 }).map((n) => n / 100),
    agreed: fc.boolean(),
    inclusionProbability: fc.oneof(fc.constant(1), fc.double({ min: 0.05, max: 1, noNaN: true })),
  }),
  { maxLength: 200 },
);
const target = fc.constantFrom(0.3, 0.5, 0.7, 0.9);
const delta = fc.constantFrom(0.05, 0.1, 0.25, 0.5);

describe('guaranteed threshold properties', () => {
  it('is null with no labels', () => {
    fc.assert(
      fc.property(target, delta, (t, d) => {
        expect(guaranteedThreshold([], [0.9], t, d).threshold).toBeNull();
      }),
    );
  });

  it('never goes below a tested threshold whose sample agreement is under the target', () => {
    // Every stratum from the first tested one (the first, from the top, holding the start size in
    // effective labels) down to the threshold passed, and a bound at δ ≤ 0.5 is below its estimate.
    // Smaller strata at the very top are not tested on their own (docs/quality.md).
    fc.assert(
      fc.property(labeled, target, delta, (items, t, d) => {
        const { threshold } = guaranteedThreshold(items, [], t, d);
        const start = firstTestedStratumSize(t, d);
        const values = [...new Set(items.map((item) => item.selectedProbability))].sort((a, b) => b - a);
        let tested = false;
        for (const s of values) {
          const above = items.filter((item) => item.selectedProbability >= s);
          const weights = above.map((item) => 1 / item.inclusionProbability);
          const weight = weights.reduce((sum, w) => sum + w, 0);
          const effective = weight ** 2 / weights.reduce((sum, w) => sum + w * w, 0);
          tested ||= effective >= start - 1e-9;
          const agreeing = above.reduce((sum, item, i) => sum + (item.agreed ? weights[i] : 0), 0);
          if (tested && agreeing / weight < t) expect(threshold === null || threshold > s).toBe(true);
        }
      }),
    );
  });

  it('with π = 1 equals the same walk with any one π for all', () => {
    fc.assert(
      fc.property(
        labeled,
        target,
        delta,
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        (items, t, d, pi) => {
          const ones = items.map((item) => ({ ...item, inclusionProbability: 1 }));
          const same = items.map((item) => ({ ...item, inclusionProbability: pi }));
          expect(guaranteedThreshold(same, [], t, d)).toEqual(guaranteedThreshold(ones, [], t, d));
        },
      ),
    );
  });
});
