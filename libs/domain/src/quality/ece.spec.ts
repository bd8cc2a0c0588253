import { describe, expect, it } from '@jest/globals';
import { applyCalibration, calibrationMethodFor, fitCalibrationMap } from './calibration-map.js';
import { calibrationErrors, CROSS_FIT_FOLDS, crossFitFolds, expectedCalibrationError } from './ece.js';
import type { AuditedAnswer } from './weighted.js';

describe('expected calibration error', () => {
  it('averages |agreement − probability| over ten bins, weighted by their share: 4 points', () => {
    // 0.91 (agrees) and 0.99 (does not) share bin 9: mean outcome 0.5, mean probability 0.95 → 0.45.
    // 0.5 and 0.55 (both agree) share bin 5: mean outcome 1, mean probability 0.525 → 0.475.
    // ECE = (2/4)·0.45 + (2/4)·0.475 = 0.225 + 0.2375 = 0.4625.
    const forecasts = [
      { probability: 0.91, outcome: 1, weight: 1 },
      { probability: 0.99, outcome: 0, weight: 1 },
      { probability: 0.5, outcome: 1, weight: 1 },
      { probability: 0.55, outcome: 1, weight: 1 },
    ];
    expect(expectedCalibrationError(forecasts)).toBeCloseTo(0.4625, 12);
  });

  it('weights each answer: 0.91 counting three times', () => {
    // Bin 9: W = 4, mean outcome 3/4, mean probability (3·0.91 + 0.99)/4 = 0.93 → |0.75 − 0.93| = 0.18.
    // Bin 5: W = 2 → 0.475. ECE = (4/6)·0.18 + (2/6)·0.475 = 0.12 + 0.158333 = 0.278333.
    const forecasts = [
      { probability: 0.91, outcome: 1, weight: 3 },
      { probability: 0.99, outcome: 0, weight: 1 },
      { probability: 0.5, outcome: 1, weight: 1 },
      { probability: 0.55, outcome: 1, weight: 1 },
    ];
    expect(expectedCalibrationError(forecasts)).toBeCloseTo(0.278333, 6);
  });

  it('puts a probability of 1 in the last bin and is null without weight', () => {
    // 1 and 0.95 share bin 9: |0.5 − 0.975| = 0.475.
    expect(
      expectedCalibrationError([
        { probability: 1, outcome: 1, weight: 1 },
        { probability: 0.95, outcome: 0, weight: 1 },
      ]),
    ).toBeCloseTo(0.475, 12);
    expect(expectedCalibrationError([])).toBeNull();
  });
});

const answer = (selectedProbability: number, agreed: boolean, inclusionProbability = 1): AuditedAnswer => ({
  selectedProbability,
  agreed,
  inclusionProbability,
});

describe('cross-fitted calibration errors', () => {
  it('assigns folds by rank of probability, round the five folds', () => {
    const items = [0.9, 0.1, 0.5, 0.3, 0.7, 0.2, 0.8].map((p) => answer(p, true));
    // Ranks: 0.1→0, 0.2→1, 0.3→2, 0.5→3, 0.7→4, 0.8→5, 0.9→6; fold = rank mod 5, in input order.
    expect(crossFitFolds(items)).toEqual([1, 0, 3, 2, 4, 1, 0]);
  });

  it('calibrates each fold with a map fitted on the others', () => {
    const items = Array.from({ length: 40 }, (_, i) =>
      answer(0.5 + (i % 20) / 40, i % 3 !== 0, i % 2 ? 0.5 : 1),
    );
    const result = calibrationErrors(items);
    // The reference: the same folds, fitted and applied by hand.
    const folds = crossFitFolds(items);
    const method = calibrationMethodFor(items.length);
    const calibrated = items.map((item, i) => {
      const map = fitCalibrationMap(
        items.filter((_, j) => folds[j] !== folds[i]),
        method,
      )!;
      return applyCalibration(map, item.selectedProbability);
    });
    const expected = expectedCalibrationError(
      items.map((item, i) => ({
        probability: calibrated[i],
        outcome: item.agreed ? 1 : 0,
        weight: 1 / item.inclusionProbability,
      })),
    );
    expect(result.calibrated).toBeCloseTo(expected!, 12);
    expect(result.raw).toBeCloseTo(
      expectedCalibrationError(
        items.map((item) => ({
          probability: item.selectedProbability,
          outcome: item.agreed ? 1 : 0,
          weight: 1 / item.inclusionProbability,
        })),
      )!,
      12,
    );
    expect(result.labels).toBe(40);
    expect(CROSS_FIT_FOLDS).toBe(5);
  });

  it('is null without labels, and the calibrated one needs two', () => {
    expect(calibrationErrors([])).toEqual({ raw: null, calibrated: null, labels: 0 });
    // One answer at 0.8 that agrees: raw ECE |1 − 0.8| = 0.2; nothing left to fit a map on.
    const one = calibrationErrors([answer(0.8, true)]);
    expect(one.raw).toBeCloseTo(0.2, 12);
    expect(one.calibrated).toBeNull();
  });
});
