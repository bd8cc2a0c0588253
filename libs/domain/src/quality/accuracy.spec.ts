import { describe, expect, it } from '@jest/globals';
import type { Answer } from '../judgment.js';
import { agreesOnEveryQuestion, autoDecisionAccuracy } from './accuracy.js';
import { kishEffectiveSize, wilsonInterval, zForConfidence } from './weighted.js';

const choice = (value: string, p = 0.9): Answer => ({
  type: 'choice',
  choice: value,
  probabilities: { [value]: p },
});
const label = (value: string): Answer => ({ type: 'choice', choice: value });

describe('agreement on every labeled question', () => {
  it('needs every labeled question to agree, and at least one label', () => {
    expect(
      agreesOnEveryQuestion([
        { model: choice('billing'), label: label('billing') },
        { model: { type: 'boolean', probability: 0.8 }, label: { type: 'boolean', probability: 1 } },
      ]),
    ).toBe(true);
    expect(
      agreesOnEveryQuestion([
        { model: choice('billing'), label: label('billing') },
        { model: choice('billing'), label: label('tech') },
      ]),
    ).toBe(false);
    // A failed judgment (no model answer) never agrees, as in the calibration report.
    expect(agreesOnEveryQuestion([{ model: undefined, label: label('billing') }])).toBe(false);
    expect(agreesOnEveryQuestion([])).toBeNull();
  });
});

describe('autoDecisionAccuracy', () => {
  it('is the weighted share of evaluations agreed on every question; unlabeled ones do not count', () => {
    // y = 1 (π 0.5, w 2), y = 0 (π 0.25, w 4), unlabeled (skipped), y = 1 (π 1, w 1).
    // estimate = (2 + 1) / (2 + 4 + 1) = 3/7 = 0.428571; n_eff = 49 / (4 + 16 + 1) = 7/3; labels = 3.
    const result = autoDecisionAccuracy(
      [
        {
          inclusionProbability: 0.5,
          labeled: [
            { model: choice('billing'), label: label('billing') },
            { model: choice('high'), label: label('high') },
          ],
        },
        {
          inclusionProbability: 0.25,
          labeled: [
            { model: choice('billing'), label: label('billing') },
            { model: choice('high'), label: label('low') },
          ],
        },
        { inclusionProbability: 1, labeled: [] },
        { inclusionProbability: 1, labeled: [{ model: choice('tech'), label: label('tech') }] },
      ],
      0.95,
    );
    expect(result.labels).toBe(3);
    expect(result.estimate).toBeCloseTo(3 / 7, 12);
    expect(kishEffectiveSize([2, 4, 1])).toBeCloseTo(7 / 3, 12);
    const wilson = wilsonInterval(3 / 7, 7 / 3, zForConfidence(0.95));
    expect(result.low).toBeCloseTo(wilson.low, 12);
    expect(result.high).toBeCloseTo(wilson.high, 12);
  });

  it('is null with no labeled evaluation', () => {
    expect(autoDecisionAccuracy([{ inclusionProbability: 0.1, labeled: [] }], 0.95)).toEqual({
      estimate: null,
      low: null,
      high: null,
      labels: 0,
    });
  });
});
