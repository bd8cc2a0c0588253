import type { Calibrate } from './decision.js';
import { selectedProbability } from './decision.js';
import type { Answer } from './judgment.js';
import type { PackDocument } from './pack-document.js';
import { applyCalibration, type AuditedAnswer, type CalibrationMap } from './quality/index.js';

/**
 * Labels a question needs before it gets a calibration map. Below this, Platt's two parameters are
 * set mostly by the ridge that holds them at the judge's own probability, so a map would move the
 * decision by what two or three labels happen to say; the question keeps its raw probability.
 */
export const MIN_LABELS_TO_FIT = 10;

/** The worker refits a pack once this many labels were written since its last fit... */
export const REFIT_AFTER_NEW_LABELS = 20;

/** ...or once its last fit is this old and any label was written since. */
export const REFIT_AFTER_MS = 24 * 60 * 60 * 1000;

/** A question's map as stored: the map with when it was fitted. */
export interface FittedCalibrationMap extends CalibrationMap {
  fittedAt: Date;
}

/** One label of a question as the fit reads it from the evaluation it labels. */
export interface CalibrationLabel {
  /** The judge's answer to the question (the selected probability is read from it). */
  judgeAnswer: Answer;
  /** Whether the reviewer's label agrees with it (`agrees`, stored with the label). */
  agreed: boolean;
  /** Whether the evaluation was selected for audit; null when no audit draw was made. */
  auditSelected: boolean | null;
  /** π, the probability with which the audit draw selected it; null when no draw was made. */
  auditProbability: number | null;
}

/**
 * The training pair of one label, weighted: 1/π for a label on an audit-selected evaluation, since
 * the audit sample stands for the automatic decisions it was drawn from; 1 for any other label.
 * Review items reach reviewers by their selected probability, the map's own input, so among them
 * the chance of agreement at a given probability is still estimated without bias (docs/quality.md).
 */
export function calibrationTrainingAnswer(label: CalibrationLabel): AuditedAnswer {
  const audited = label.auditSelected === true && label.auditProbability !== null;
  return {
    selectedProbability: selectedProbability(label.judgeAnswer),
    agreed: label.agreed,
    inclusionProbability: audited ? label.auditProbability! : 1,
  };
}

/** Whether the worker refits a pack now, given the labels written since its last fit (docs/quality.md). */
export function calibrationRefitDue(newLabels: number, lastFittedAt: Date | null, now: Date): boolean {
  if (newLabels >= REFIT_AFTER_NEW_LABELS) return true;
  if (newLabels === 0) return false;
  return lastFittedAt === null || now.getTime() - lastFittedAt.getTime() >= REFIT_AFTER_MS;
}

/** Whether any question of the document opts in to its calibrated probability. */
export function usesCalibration(document: PackDocument): boolean {
  return document.questions.some((question) => question.review.useCalibrated === true);
}

/** The decision rule's `calibrate` over a version's maps (by question id). */
export function calibratorOf(maps: ReadonlyMap<string, CalibrationMap>): Calibrate {
  return (questionId, probability) => {
    const map = maps.get(questionId);
    return map ? applyCalibration(map, probability) : undefined;
  };
}

/** Each answered question's calibrated probability, for the questions that have a map. */
export function calibratedProbabilities(
  answers: Readonly<Record<string, Answer>>,
  maps: ReadonlyMap<string, CalibrationMap>,
): Record<string, number> {
  // Own keys only, and defined rather than assigned: a question may be named `constructor` or `__proto__`.
  return Object.fromEntries(
    [...maps]
      .filter(([questionId]) => Object.hasOwn(answers, questionId))
      .map(([questionId, map]) => [
        questionId,
        applyCalibration(map, selectedProbability(answers[questionId])),
      ]),
  );
}
