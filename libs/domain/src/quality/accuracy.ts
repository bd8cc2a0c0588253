import { agrees, type LabeledAnswer } from '../calibration.js';
import { weightedProportion, type ShareEstimate } from './weighted.js';

/** One audited evaluation: the judge's and the reviewer's answer on each question the reviewer labeled. */
export interface AuditedEvaluation {
  labeled: LabeledAnswer[];
  /** The probability with which the evaluation was selected for audit, 0 < π ≤ 1. */
  inclusionProbability: number;
}

/**
 * Whether the reviewer agrees with the judge on every question they labeled (agreement as
 * `agrees` defines it); null when no question is labeled yet, so the evaluation is no label at all.
 */
export function agreesOnEveryQuestion(labeled: readonly LabeledAnswer[]): boolean | null {
  if (!labeled.length) return null;
  return labeled.every(({ model, label }) => agrees(model, label));
}

/**
 * `autoDecisionAccuracy`: the weighted share of automatically decided evaluations the reviewer
 * agrees with on every labeled question, with Wilson's interval at Kish's effective size.
 */
export function autoDecisionAccuracy(
  evaluations: readonly AuditedEvaluation[],
  confidence: number,
): ShareEstimate {
  const outcomes = evaluations.flatMap(({ labeled, inclusionProbability }) => {
    const agreed = agreesOnEveryQuestion(labeled);
    return agreed === null ? [] : [{ agreed, inclusionProbability }];
  });
  return weightedProportion(outcomes, confidence);
}
