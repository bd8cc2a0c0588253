import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { predictionPoweredShare, predictionPoweredShares, type AuditedCategory } from './ppi.js';
import { zForConfidence } from './weighted.js';

const Z95 = 1.959963984540054;
const item = (judge: string, label: string, inclusionProbability = 1): AuditedCategory => ({
  judge,
  label,
  inclusionProbability,
});

describe('prediction-powered share', () => {
  it('corrects the judge’s share by its measured error, on 6 labels', () => {
    // Population: 100 judge answers, 40 of them billing → judgeShare = 0.4.
    // d = 1[label = billing] − 1[judge = billing] over the six labels below: 0, 0, +1, +1, 0, −1
    // (two answers the judge missed, one it gave wrongly) → Δ̂ = 1/6 = 0.166667; correctedShare = 0.566667.
    // Σ(d − Δ̂)² = 3·(1/6)² + 2·(5/6)² + (7/6)² = (3 + 50 + 49)/36 = 102/36 = 2.833333
    // se² = 2.833333/6² + 1/6² (the pseudo-disagreement) = 0.078704 + 0.027778 = 0.106481; se = 0.326315
    // interval = 0.566667 ± 1.959964·0.326315 = 0.566667 ± 0.639564 → [0, 1] after clipping.
    const sample = [
      item('billing', 'billing'),
      item('tech', 'tech'),
      item('tech', 'billing'),
      item('account', 'billing'),
      item('account', 'account'),
      item('billing', 'tech'),
    ];
    const result = predictionPoweredShare('billing', { answered: 100, judgeCount: 40 }, sample, 0.95);
    expect(result.judgeShare).toBeCloseTo(0.4, 12);
    expect(result.correctedShare).toBeCloseTo(0.566667, 6);
    expect(result.low).toBe(0);
    expect(result.high).toBe(1);
    expect(result.labels).toBe(6);
    // The same six labels for `tech`: d = 0, 0, −1, 0, 0, +1 → Δ̂ = 0; judgeShare 35/100.
    // se² = (1 + 1)/36 + 1/36 = 3/36 = 0.083333; se = 0.288675; half-width = 1.959964·0.288675 = 0.565793.
    const tech = predictionPoweredShare('tech', { answered: 100, judgeCount: 35 }, sample, 0.95);
    expect(tech.correctedShare).toBeCloseTo(0.35, 12);
    expect(tech.low).toBe(0);
    expect(tech.high).toBeCloseTo(0.35 + Z95 * Math.sqrt(3 / 36), 9);
    expect(tech.high).toBeCloseTo(0.915793, 6);
  });

  it('keeps a width of z/n when no label shows an error (one pseudo-disagreement)', () => {
    // d = 0 for all 6: Δ̂ = 0, se² = 0 + 1/6², se = 1/6; half-width = 1.959964/6 = 0.326661.
    const sample = [1, 2, 3].flatMap(() => [item('billing', 'billing'), item('tech', 'tech')]);
    const result = predictionPoweredShare('billing', { answered: 1000, judgeCount: 500 }, sample, 0.95);
    expect(result.correctedShare).toBeCloseTo(0.5, 12);
    expect(result.low).toBeCloseTo(0.173339, 6);
    expect(result.high).toBeCloseTo(0.826661, 6);
  });

  it('weights the rectifier by 1/π (Hájek)', () => {
    // w = 2, 4, 1 for d = +1, 0, −1 → Δ̂ = (2 − 1)/7 = 1/7 = 0.142857; judgeShare 0.2 → corrected 0.342857.
    // Σw²(d − Δ̂)² = 4·(6/7)² + 16·(1/7)² + 1·(8/7)² = (144 + 16 + 64)/49 = 224/49
    // se² = (224/49)/7² + 1/3² = 0.093294 + 0.111111 = 0.204405; se = 0.452112
    const sample = [
      item('tech', 'billing', 0.5),
      item('billing', 'billing', 0.25),
      item('billing', 'tech', 1),
    ];
    const result = predictionPoweredShare('billing', { answered: 10, judgeCount: 2 }, sample, 0.8);
    expect(result.correctedShare).toBeCloseTo(0.342857, 6);
    const z80 = 1.2815515655446004;
    expect(result.high).toBeCloseTo(0.342857 + z80 * 0.452112, 5);
    expect(result.low).toBe(0);
  });

  it('is null without labels and without judge answers', () => {
    expect(predictionPoweredShare('billing', { answered: 10, judgeCount: 4 }, [], 0.95)).toEqual({
      value: 'billing',
      judgeShare: 0.4,
      correctedShare: null,
      low: null,
      high: null,
      labels: 0,
    });
    expect(predictionPoweredShare('billing', { answered: 0, judgeCount: 0 }, [], 0.95).judgeShare).toBeNull();
  });

  it('lists every value the judge or a reviewer gave, the judge’s most frequent first', () => {
    const shares = predictionPoweredShares(
      new Map([
        ['tech', 30],
        ['billing', 70],
      ]),
      [item('billing', 'refund')],
      0.95,
    );
    expect(shares.map((share) => share.value)).toEqual(['billing', 'tech', 'refund']);
    expect(shares[2].judgeShare).toBe(0);
    // refund: d = +1 on the only label → corrected 0 + 1 = 1.
    expect(shares[2].correctedShare).toBe(1);
  });
});

const categories = fc.constantFrom('billing', 'tech', 'account');
const sample = fc.array(
  fc.record({
    judge: categories,
    label: categories,
    inclusionProbability: fc.double({ min: 0.01, max: 1, noNaN: true }),
  }),
  { minLength: 1, maxLength: 40 },
);
const population = fc
  .record({
    answered: fc.integer({ min: 1, max: 10_000 }),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ answered, share }) => ({ answered, judgeCount: Math.round(answered * share) }));

describe('prediction-powered share properties', () => {
  it('holds its estimate inside its interval, within [0, 1]', () => {
    fc.assert(
      fc.property(sample, population, (items, counts) => {
        const { correctedShare, low, high } = predictionPoweredShare('billing', counts, items, 0.95);
        expect(low!).toBeGreaterThanOrEqual(0);
        expect(high!).toBeLessThanOrEqual(1);
        expect(low!).toBeLessThanOrEqual(correctedShare!);
        expect(correctedShare!).toBeLessThanOrEqual(high!);
      }),
    );
  });

  it('narrows as the same errors are seen on more labels', () => {
    fc.assert(
      fc.property(sample, population, fc.integer({ min: 2, max: 5 }), (items, counts, copies) => {
        // Unclipped widths: a mid-range judge share keeps both ends inside [0, 1] more often; compare 2·z·se.
        const width = (share: ReturnType<typeof predictionPoweredShare>) => share.high! - share.low!;
        const once = predictionPoweredShare('billing', counts, items, 0.95);
        const more = predictionPoweredShare(
          'billing',
          counts,
          Array.from({ length: copies }, () => items).flat(),
          0.95,
        );
        expect(more.correctedShare!).toBeCloseTo(once.correctedShare!, 9);
        expect(width(more)).toBeLessThanOrEqual(width(once) + 1e-12);
      }),
    );
  });

  it('with π = 1 is the unweighted mean of d with the plain sample variance', () => {
    fc.assert(
      fc.property(sample, population, (items, counts) => {
        const unweighted = items.map((entry) => ({ ...entry, inclusionProbability: 1 }));
        const result = predictionPoweredShare('billing', counts, unweighted, 0.9);
        const d = unweighted.map(
          (entry) => Number(entry.label === 'billing') - Number(entry.judge === 'billing'),
        );
        const n = d.length;
        const mean = d.reduce((sum, value) => sum + value, 0) / n;
        const variance = d.reduce((sum, value) => sum + (value - mean) ** 2, 0) / n / n + 1 / n ** 2;
        const corrected = counts.judgeCount / counts.answered + mean;
        const clip = (value: number) => Math.min(1, Math.max(0, value));
        expect(result.correctedShare).toBeCloseTo(clip(corrected), 12);
        expect(result.high).toBeCloseTo(clip(corrected + zForConfidence(0.9) * Math.sqrt(variance)), 12);
        expect(result.low).toBeCloseTo(clip(corrected - zForConfidence(0.9) * Math.sqrt(variance)), 12);
      }),
    );
  });
});
