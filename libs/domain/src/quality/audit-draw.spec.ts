import { describe, expect, it } from '@jest/globals';
import {
  AUDIT_FLOOR_SHARE,
  auditProbability,
  auditUncertainty,
  drawAudit,
  isAuditedSource,
  seededRandom,
  type AuditSettings,
} from './audit-draw.js';

const uncertainty = (rate: number): AuditSettings => ({ rate, strategy: 'uncertainty' });
const uniform = (rate: number): AuditSettings => ({ rate, strategy: 'uniform' });

describe('auditUncertainty', () => {
  it('is the square root of the mean chance of a disagreement, from the selected probabilities', () => {
    // (0.1 + 0.3 + 0.05) / 3 = 0.15 → √0.15 = 0.3872983346
    expect(auditUncertainty({ a: 0.9, b: 0.7, c: 0.95 })).toBeCloseTo(0.3872983346, 10);
    // one question at 0.75: √0.25 = 0.5
    expect(auditUncertainty({ a: 0.75 })).toBeCloseTo(0.5, 12);
    expect(auditUncertainty({ a: 1 })).toBe(0);
  });

  it('takes the calibrated probability where a question has a map', () => {
    // a maps to 0.6 (1 − 0.6 = 0.4); b has no map and keeps 0.8 (0.2): √((0.4 + 0.2) / 2) = √0.3
    const calibrate = (questionId: string) => (questionId === 'a' ? 0.6 : undefined);
    expect(auditUncertainty({ a: 0.99, b: 0.8 }, false, calibrate)).toBeCloseTo(Math.sqrt(0.3), 12);
    // An overconfident judge: 0.99 everywhere is 0.1 raw, but a map saying 0.75 makes it 0.5.
    expect(auditUncertainty({ a: 0.99 })).toBeCloseTo(0.1, 12);
    expect(auditUncertainty({ a: 0.99 }, false, () => 0.75)).toBeCloseTo(0.5, 12);
  });

  it('keeps a map’s value inside [0, 1]', () => {
    expect(auditUncertainty({ a: 0.5 }, false, () => 1.2)).toBe(0);
    expect(auditUncertainty({ a: 0.5 }, false, () => -0.5)).toBe(1);
  });

  it('is 0 without answers, and 1 for a failed judgment', () => {
    expect(auditUncertainty({})).toBe(0);
    expect(auditUncertainty({}, true)).toBe(1);
    expect(auditUncertainty({ a: 0.99 }, true)).toBe(1);
  });
});

describe('auditProbability', () => {
  it('is the rate with the uniform strategy, whatever the uncertainty', () => {
    expect(auditProbability(uniform(0.05), 0.9, 0.1)).toBe(0.05);
    expect(auditProbability(uniform(0.05), 0, null)).toBe(0.05);
    expect(auditProbability(uniform(1), 0.3, 0.2)).toBe(1);
  });

  it('grows with the uncertainty, computed by hand', () => {
    // rate 0.1, λ 0.2, u 0.3, ū 0.15: 0.1·(0.2 + 0.8·0.3/0.15) = 0.1·(0.2 + 1.6) = 0.18
    expect(auditProbability(uncertainty(0.1), 0.3, 0.15)).toBeCloseTo(0.18, 12);
    // u = ū: 0.1·(0.2 + 0.8·1) = 0.1, the rate itself
    expect(auditProbability(uncertainty(0.1), 0.15, 0.15)).toBeCloseTo(0.1, 12);
    // u 0.05, ū 0.2: 0.1·(0.2 + 0.8·0.25) = 0.1·0.4 = 0.04
    expect(auditProbability(uncertainty(0.1), 0.05, 0.2)).toBeCloseTo(0.04, 12);
  });

  it('is bounded below by λ·rate, so every decision can be selected', () => {
    // u = 0: 0.1·(0.2 + 0) = 0.02 = λ·rate
    expect(auditProbability(uncertainty(0.1), 0, 0.3)).toBeCloseTo(AUDIT_FLOOR_SHARE * 0.1, 12);
    expect(auditProbability(uncertainty(0.1), 0, 0.3)).toBeGreaterThan(0);
  });

  it('is capped at 1', () => {
    // 0.5·(0.2 + 0.8·1/0.1) = 0.5·8.2 = 4.1 → 1
    expect(auditProbability(uncertainty(0.5), 1, 0.1)).toBe(1);
  });

  it('falls back to the rate without a usable mean uncertainty', () => {
    expect(auditProbability(uncertainty(0.1), 0.4, null)).toBe(0.1);
    expect(auditProbability(uncertainty(0.1), 0.4, 0)).toBe(0.1);
    expect(auditProbability(uncertainty(0.1), 0.4, Number.NaN)).toBe(0.1);
  });

  it('is 0 at rate 0, whatever the strategy', () => {
    expect(auditProbability(uncertainty(0), 1, 0.1)).toBe(0);
    expect(auditProbability(uniform(0), 1, 0.1)).toBe(0);
  });

  it('has the rate as its mean over decisions whose mean uncertainty is ū (no cap reached)', () => {
    // u = 0.1, 0.2, 0.3 → ū = 0.2; π = 0.1·(0.2 + 0.8·u/0.2) = 0.06, 0.1, 0.14; mean 0.1
    const values = [0.1, 0.2, 0.3].map((u) => auditProbability(uncertainty(0.1), u, 0.2));
    expect(values[0]).toBeCloseTo(0.06, 12);
    expect(values[2]).toBeCloseTo(0.14, 12);
    expect(values.reduce((sum, value) => sum + value, 0) / 3).toBeCloseTo(0.1, 12);
  });
});

describe('drawAudit', () => {
  it('selects iff the random number is below π', () => {
    // π = 0.18 (computed above)
    expect(drawAudit(uncertainty(0.1), 0.3, 0.15, 0.17)).toEqual({
      probability: expect.closeTo(0.18, 12),
      selected: true,
      uncertainty: 0.3,
    });
    expect(drawAudit(uncertainty(0.1), 0.3, 0.15, 0.181)?.selected).toBe(false);
    expect(drawAudit(uncertainty(0.1), 0.3, 0.15, 0.5)?.selected).toBe(false);
  });

  it('selects everything at rate 1 with the uniform strategy', () => {
    for (const random of [0, 0.5, 0.999999])
      expect(drawAudit(uniform(1), 0, null, random)).toEqual({
        probability: 1,
        selected: true,
        uncertainty: 0,
      });
  });

  it('records nothing at rate 0', () => {
    expect(drawAudit(uniform(0), 0.5, 0.2, 0)).toBeNull();
    expect(drawAudit(uncertainty(0), 1, 0.2, 0)).toBeNull();
  });
});

describe('seededRandom', () => {
  it('gives the same sequence for the same seed, another for another seed', () => {
    const take = (next: () => number) => Array.from({ length: 5 }, next);
    const first = take(seededRandom(42));
    expect(take(seededRandom(42))).toEqual(first);
    expect(take(seededRandom(43))).not.toEqual(first);
    // mulberry32's published first output for seed 42
    expect(first[0]).toBeCloseTo(0.6011037519201636, 15);
  });

  it('stays in [0, 1) with a mean near one half', () => {
    const next = seededRandom(7);
    let sum = 0;
    for (let i = 0; i < 10_000; i++) {
      const value = next();
      expect(value >= 0 && value < 1).toBe(true);
      sum += value;
    }
    // the mean of 10,000 uniforms has a standard error of √(1/12/10,000) ≈ 0.0029
    expect(Math.abs(sum / 10_000 - 0.5)).toBeLessThan(0.015);
  });

  it('makes a seeded draw reproducible', () => {
    const draws = (seed: number) => {
      const next = seededRandom(seed);
      return Array.from({ length: 20 }, () => drawAudit(uniform(0.5), 0, null, next())?.selected);
    };
    expect(draws(5)).toEqual(draws(5));
  });
});

describe('isAuditedSource', () => {
  it('takes live traffic only', () => {
    expect(['api', 'webhook', 'mcp'].every((s) => isAuditedSource(s as 'api'))).toBe(true);
    expect(isAuditedSource('playground')).toBe(false);
    expect(isAuditedSource('simulation')).toBe(false);
  });
});
