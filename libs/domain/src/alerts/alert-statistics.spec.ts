import { describe, expect, it } from '@jest/globals';
import { oneSidedZ, populationStabilityIndex, twoProportionZ, wilsonUpperBound } from './alert-statistics.js';

describe('alert statistics', () => {
  it('takes the one-sided normal quantile', () => {
    expect(oneSidedZ(0.95)).toBeCloseTo(1.644854, 6);
    expect(() => oneSidedZ(1)).toThrow(RangeError);
  });

  it('bounds 27 agreeing of 40 from above at 95% (one-sided Wilson)', () => {
    // z = 1.644854, z² = 2.705543; p̂ = 0.675, n = 40.
    // denominator = 1 + z²/n = 1.0676386
    // centre = (0.675 + z²/80) / 1.0676386 = 0.7088193 / 1.0676386 = 0.663913
    // half = z·√(0.675·0.325/40 + z²/6400) / 1.0676386 = 1.644854·√0.0059070 / 1.0676386 = 0.118411
    // upper = 0.782324
    expect(wilsonUpperBound(27, 40, 0.95)).toBeCloseTo(0.782324, 5);
    // 10 of 40: centre 0.265838, half 0.110135, upper 0.375973.
    expect(wilsonUpperBound(10, 40, 0.95)).toBeCloseTo(0.375973, 5);
  });

  it('is wider with fewer trials at the same proportion', () => {
    expect(wilsonUpperBound(3, 4, 0.95)).toBeGreaterThan(wilsonUpperBound(30, 40, 0.95));
    expect(wilsonUpperBound(4, 4, 0.95)).toBe(1);
  });

  it('computes the pooled two-proportion z', () => {
    // 30/100 against 20/200: p̄ = 50/300 = 1/6, se = √(1/6·5/6·(1/100 + 1/200)) = √0.0020833 = 0.0456435
    // z = (0.3 − 0.1) / 0.0456435 = 4.381780
    expect(twoProportionZ(30, 100, 20, 200)).toBeCloseTo(4.38178, 5);
    // 12/100 against 10/100: p̄ = 0.11, se = √(0.11·0.89·0.02) = 0.0442493, z = 0.02 / 0.0442493 = 0.451985
    expect(twoProportionZ(12, 100, 10, 100)).toBeCloseTo(0.451985, 5);
    expect(twoProportionZ(0, 10, 0, 20)).toBe(0);
  });

  it('computes the PSI of two windows with smoothed shares', () => {
    // α = 0.5, two categories: shares (count + 0.5) / (total + 1).
    // recent a 30.5/101 = 0.301980, b 70.5/101 = 0.698020; baseline a 60.5/101 = 0.599010, b 40.5/101 = 0.400990
    // a: (0.301980 − 0.599010)·ln(0.301980/0.599010) = 0.203441
    // b: (0.698020 − 0.400990)·ln(0.698020/0.400990) = 0.164647
    // PSI = 0.368087
    const result = populationStabilityIndex({ a: 30, b: 70 }, { a: 60, b: 40 }, 0.5);
    expect(result.psi).toBeCloseTo(0.368087, 5);
    expect(result.recentTotal).toBe(100);
    expect(result.baselineTotal).toBe(100);
    expect(result.bins[0]).toMatchObject({ category: 'b', recentCount: 70, baselineCount: 40 });
    expect(result.bins[0].recentShare).toBeCloseTo(0.69802, 5);
  });

  it('keeps a category absent from one window finite through the smoothing', () => {
    // recent a 50, c 50; baseline a 100. Shares (count + 0.5) / (100 + 1):
    // a: 0.5 against 0.995050 → (−0.495050)·ln(0.502488) = 0.340685
    // c: 0.5 against 0.004950 → 0.495050·ln(101) = 2.284713
    const result = populationStabilityIndex({ a: 50, c: 50 }, { a: 100 }, 0.5);
    expect(result.psi).toBeCloseTo(2.625398, 5);
    expect(result.bins[0].category).toBe('c');
  });

  it('is 0 for the same distribution', () => {
    expect(populationStabilityIndex({ a: 10, b: 30 }, { a: 20, b: 60 }, 0.5).psi).toBeCloseTo(0, 3);
  });
});
