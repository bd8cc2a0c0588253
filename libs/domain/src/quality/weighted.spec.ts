import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  hajekMean,
  inclusionWeight,
  kishEffectiveSize,
  weightedProportion,
  wilsonInterval,
  zForConfidence,
  type WeightedAgreement,
} from './weighted.js';

const Z95 = 1.959963984540054;

describe('weighted proportion', () => {
  it('is Wilson’s interval for 8 agreeing of 10 at 95%', () => {
    // z = 1.959964, z² = 3.841459; p̂ = 0.8, n = 10.
    // denominator = 1 + z²/n = 1.3841459
    // centre = (0.8 + z²/20) / 1.3841459 = 0.99207295 / 1.3841459 = 0.716741
    // half = z·√(0.8·0.2/10 + z²/400) / 1.3841459 = 1.959964·√0.02560365 / 1.3841459 = 0.226578
    // interval = [0.490163, 0.943319]
    const items = Array.from({ length: 10 }, (_, i) => ({ agreed: i < 8, inclusionProbability: 1 }));
    const result = weightedProportion(items, 0.95);
    expect(result.estimate).toBeCloseTo(0.8, 12);
    expect(result.low).toBeCloseTo(0.490163, 5);
    expect(result.high).toBeCloseTo(0.943319, 5);
    expect(result.labels).toBe(10);
  });

  it('weights each label by 1/π (Hájek) and takes Kish’s effective size', () => {
    // π = 0.5, 0.25, 1 → w = 2, 4, 1; agreed, agreed, not.
    // estimate = (2 + 4) / (2 + 4 + 1) = 6/7 = 0.857143
    // n_eff = (Σw)² / Σw² = 49 / (4 + 16 + 1) = 49/21 = 2.333333
    const items: WeightedAgreement[] = [
      { agreed: true, inclusionProbability: 0.5 },
      { agreed: true, inclusionProbability: 0.25 },
      { agreed: false, inclusionProbability: 1 },
    ];
    expect(hajekMean([1, 1, 0], [2, 4, 1])).toBeCloseTo(6 / 7, 12);
    expect(kishEffectiveSize([2, 4, 1])).toBeCloseTo(49 / 21, 12);
    const result = weightedProportion(items, 0.95);
    expect(result.estimate).toBeCloseTo(6 / 7, 12);
    const wilson = wilsonInterval(6 / 7, 49 / 21, Z95);
    expect(result.low).toBeCloseTo(wilson.low, 12);
    expect(result.high).toBeCloseTo(wilson.high, 12);
  });

  it('gives nulls without a label', () => {
    expect(weightedProportion([], 0.95)).toEqual({ estimate: null, low: null, high: null, labels: 0 });
  });

  it('keeps a width when every label agrees: 10 of 10 at 95% is [0.722467, 1]', () => {
    // centre = (1 + z²/20) / 1.3841459 = 0.861234; half = z·√(z²/400) / 1.3841459 = (z²/20) / 1.3841459 = 0.138767.
    const result = weightedProportion(
      Array.from({ length: 10 }, () => ({ agreed: true, inclusionProbability: 1 })),
      0.95,
    );
    expect(result.low).toBeCloseTo(0.722467, 5);
    expect(result.high).toBeCloseTo(1, 12);
  });

  it('refuses an inclusion probability outside (0, 1] and a confidence outside (0, 1)', () => {
    expect(() => inclusionWeight(0)).toThrow(RangeError);
    expect(() => inclusionWeight(1.5)).toThrow(RangeError);
    expect(() => inclusionWeight(Number.NaN)).toThrow(RangeError);
    expect(() => zForConfidence(1)).toThrow(RangeError);
    expect(zForConfidence(0.95)).toBeCloseTo(Z95, 9);
  });
});

const sample = fc.array(
  fc.record({
    agreed: fc.boolean(),
    inclusionProbability: fc.double({ min: 0.01, max: 1, noNaN: true }),
  }),
  { minLength: 1, maxLength: 60 },
);
const confidence = fc.constantFrom(0.8, 0.9, 0.95, 0.99);

describe('weighted proportion properties', () => {
  it('holds its estimate inside its interval, within [0, 1]', () => {
    fc.assert(
      fc.property(sample, confidence, (items, level) => {
        const { estimate, low, high } = weightedProportion(items, level);
        expect(low!).toBeGreaterThanOrEqual(0);
        expect(high!).toBeLessThanOrEqual(1);
        expect(low!).toBeLessThanOrEqual(estimate!);
        expect(estimate!).toBeLessThanOrEqual(high!);
      }),
    );
  });

  it('narrows as the same proportions are seen on more labels', () => {
    fc.assert(
      fc.property(sample, confidence, fc.integer({ min: 2, max: 5 }), (items, level, copies) => {
        const once = weightedProportion(items, level);
        const more = weightedProportion(Array.from({ length: copies }, () => items).flat(), level);
        expect(more.estimate!).toBeCloseTo(once.estimate!, 9);
        expect(more.high! - more.low!).toBeLessThan(once.high! - once.low!);
      }),
    );
  });

  it('with π = 1 is the unweighted share and Wilson’s interval', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 80 }), confidence, (outcomes, level) => {
        const result = weightedProportion(
          outcomes.map((agreed) => ({ agreed, inclusionProbability: 1 })),
          level,
        );
        const share = outcomes.filter(Boolean).length / outcomes.length;
        const wilson = wilsonInterval(share, outcomes.length, zForConfidence(level));
        expect(result.estimate).toBeCloseTo(share, 12);
        expect(result.low).toBeCloseTo(wilson.low, 12);
        expect(result.high).toBeCloseTo(wilson.high, 12);
      }),
    );
  });
});
