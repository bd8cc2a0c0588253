import { describe, expect, it } from '@jest/globals';
import {
  calibratedProbabilities,
  calibrationRefitDue,
  calibrationTrainingAnswer,
  calibratorOf,
  REFIT_AFTER_MS,
  REFIT_AFTER_NEW_LABELS,
  usesCalibration,
} from './calibration-fit.js';
import type { Answer } from './judgment.js';
import type { PackDocument } from './pack-document.js';
import type { CalibrationMap } from './quality/index.js';

/** A hand-made map: 0.2 at p = 0.5, 0.6 at p = 1, straight between, flat outside. */
const map: CalibrationMap = {
  method: 'platt',
  labels: 12,
  points: [
    { selectedProbability: 0.5, calibrated: 0.2 },
    { selectedProbability: 1, calibrated: 0.6 },
  ],
};

describe('calibrationTrainingAnswer', () => {
  const answer: Answer = { type: 'choice', choice: 'billing', probabilities: { billing: 0.8, legal: 0.2 } };

  it("reads the judge's selected probability and the label's agreement", () => {
    expect(
      calibrationTrainingAnswer({
        judgeAnswer: answer,
        agreed: false,
        auditSelected: null,
        auditProbability: null,
      }),
    ).toEqual({ selectedProbability: 0.8, agreed: false, inclusionProbability: 1 });
  });

  it('weighs a label on an audit-selected evaluation by 1/π, any other by 1', () => {
    // π = 0.05 on an audit-selected evaluation: inclusion probability 0.05, so weight 1/0.05 = 20.
    expect(
      calibrationTrainingAnswer({
        judgeAnswer: answer,
        agreed: true,
        auditSelected: true,
        auditProbability: 0.05,
      }).inclusionProbability,
    ).toBe(0.05);
    // Drawn but not selected (a review item, or labeled from the evaluation page): weight 1.
    expect(
      calibrationTrainingAnswer({
        judgeAnswer: answer,
        agreed: true,
        auditSelected: false,
        auditProbability: 0.05,
      }).inclusionProbability,
    ).toBe(1);
  });
});

describe('calibrationRefitDue', () => {
  const now = new Date('2026-11-20T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it(`refits after ${REFIT_AFTER_NEW_LABELS} new labels, however recent the last fit`, () => {
    expect(calibrationRefitDue(REFIT_AFTER_NEW_LABELS, ago(1000), now)).toBe(true);
    expect(calibrationRefitDue(REFIT_AFTER_NEW_LABELS - 1, ago(1000), now)).toBe(false);
  });

  it('refits a day after the last fit, or a pack never fitted, once any label came', () => {
    expect(calibrationRefitDue(1, ago(REFIT_AFTER_MS), now)).toBe(true);
    expect(calibrationRefitDue(1, ago(REFIT_AFTER_MS - 1), now)).toBe(false);
    expect(calibrationRefitDue(1, null, now)).toBe(true);
  });

  it('never refits without a new label', () => {
    expect(calibrationRefitDue(0, null, now)).toBe(false);
    expect(calibrationRefitDue(0, ago(10 * REFIT_AFTER_MS), now)).toBe(false);
  });
});

describe('calibrated probabilities', () => {
  const answers: Record<string, Answer> = {
    department: { type: 'choice', choice: 'billing', probabilities: { billing: 0.75, legal: 0.25 } },
    abusive: { type: 'boolean', probability: 0.1 },
  };

  it('reads each answered question with a map at its selected probability', () => {
    // department: p = 0.75, halfway from 0.5 to 1, so 0.2 + 0.5·(0.6 − 0.2) = 0.4.
    // abusive: no map. constructor: a map but no answer (and not Object.prototype's).
    const maps = new Map([
      ['department', map],
      ['constructor', map],
    ]);
    const calibrated = calibratedProbabilities(answers, maps);
    expect(Object.keys(calibrated)).toEqual(['department']);
    expect(calibrated.department).toBeCloseTo(0.4, 12);
    expect(calibratedProbabilities(answers, new Map())).toEqual({});
  });

  it('gives the decision rule a calibrate that knows only the mapped questions', () => {
    const calibrate = calibratorOf(new Map([['abusive', map]]));
    // p = 0.9: 0.2 + 0.8·0.4 = 0.52; p = 0.3, below the first point: flat at 0.2.
    expect(calibrate('abusive', 0.9)).toBeCloseTo(0.52, 12);
    expect(calibrate('abusive', 0.3)).toBeCloseTo(0.2, 12);
    expect(calibrate('department', 0.9)).toBeUndefined();
    expect(calibrate('constructor', 0.9)).toBeUndefined();
  });
});

describe('usesCalibration', () => {
  const question = (useCalibrated?: boolean) => ({
    type: 'boolean' as const,
    id: 'abusive',
    name: 'Abusive',
    instructions: '',
    criteria: {},
    review: { minSelectedProbability: 0.6, ...(useCalibrated === undefined ? {} : { useCalibrated }) },
  });
  const document = (...questions: PackDocument['questions']): PackDocument => ({ questions });

  it('is true when any question opts in', () => {
    expect(usesCalibration(document(question(), question(true)))).toBe(true);
    expect(usesCalibration(document(question(), question(false)))).toBe(false);
    expect(usesCalibration(document())).toBe(false);
  });
});
