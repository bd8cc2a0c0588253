import { describe, expect, it } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { answerPairs, isShadowSampled, planShadowDraw, shadowDraw } from './shadow.js';

describe('shadowDraw', () => {
  it('is the first 48 bits of SHA-256 of runId:evaluationId, as a fraction of 2^48', () => {
    // By hand: the digest's first six bytes, read big-endian, over 2^48.
    const digest = createHash('sha256').update('run-1:evaluation-1').digest('hex');
    expect(shadowDraw('run-1', 'evaluation-1')).toBe(parseInt(digest.slice(0, 12), 16) / 2 ** 48);
  });

  it('draws the same number for the same pair, and independent ones across runs', () => {
    const evaluation = randomUUID();
    expect(shadowDraw('a', evaluation)).toBe(shadowDraw('a', evaluation));
    expect(shadowDraw('a', evaluation)).not.toBe(shadowDraw('b', evaluation));
  });

  it('samples close to the rate: 20,000 draws at 0.1 land within four standard errors', () => {
    const run = randomUUID();
    let sampled = 0;
    for (let i = 0; i < 20_000; i++) if (isShadowSampled(run, randomUUID(), 0.1)) sampled++;
    // sd = √(20000 · 0.1 · 0.9) ≈ 42.4
    expect(Math.abs(sampled - 2_000)).toBeLessThan(170);
  });

  it('samples nothing at rate 0 and everything at rate 1', () => {
    const ids = Array.from({ length: 200 }, () => randomUUID());
    expect(ids.filter((id) => isShadowSampled('r', id, 0))).toEqual([]);
    expect(ids.filter((id) => isShadowSampled('r', id, 1))).toEqual(ids);
  });
});

describe('answerPairs', () => {
  it('pairs each question of the version and of the live answers by category, (none) where a side has none', () => {
    expect(
      answerPairs(
        ['department', 'urgent'],
        {
          department: { type: 'choice', choice: 'billing', probabilities: { billing: 0.9 } },
          abusive: { type: 'boolean', probability: 0.8 },
        },
        {
          department: { type: 'choice', choice: 'technical', probabilities: { technical: 0.7 } },
          urgent: { type: 'boolean', probability: 0.3 },
        },
      ),
    ).toEqual({
      abusive: ['true', '(none)'],
      department: ['billing', 'technical'],
      urgent: ['(none)', 'false'],
    });
  });
});

describe('planShadowDraw', () => {
  const ids = ['e1', 'e2', 'e3', 'e4', 'e5'].map((id) => ({ id }));
  const state = (over: Partial<Parameters<typeof planShadowDraw>[1]> = {}) => ({
    sampleRate: 1,
    maxJudgments: null,
    sampled: 0,
    pending: 0,
    ...over,
  });

  it('draws up to the room left under maxPending, the cursor stopping before the first left undrawn', () => {
    expect(planShadowDraw('run', state({ pending: 1 }), ids, 3)).toEqual({
      drawn: ['e1', 'e2'],
      untilId: 'e2',
    });
    expect(planShadowDraw('run', state(), ids, 10)).toEqual({
      drawn: ['e1', 'e2', 'e3', 'e4', 'e5'],
      untilId: 'e5',
    });
  });

  it('at the cap draws nothing more and passes what comes after', () => {
    expect(planShadowDraw('run', state({ maxJudgments: 3, sampled: 1 }), ids, 10)).toEqual({
      drawn: ['e1', 'e2'],
      untilId: 'e5',
    });
    expect(planShadowDraw('run', state({ maxJudgments: 3, sampled: 3 }), ids, 10)).toEqual({
      drawn: [],
      untilId: 'e5',
    });
  });

  it('passes evaluations the draw leaves out, and has nothing to store without candidates', () => {
    expect(planShadowDraw('run', state({ sampleRate: 0 }), ids, 10)).toEqual({ drawn: [], untilId: 'e5' });
    expect(planShadowDraw('run', state(), [], 10)).toBeNull();
  });
});
