import { hajekMean, inclusionWeight, zForConfidence } from './weighted.js';

/** One labeled answer of one question, as categories (`answerCategory` of the judge's and the label's answer). */
export interface AuditedCategory {
  judge: string;
  label: string;
  /** The probability with which its evaluation was selected for audit, 0 < π ≤ 1. */
  inclusionProbability: number;
}

/** One answer value's share of a question: the judge's raw share and the share corrected for its errors. */
export interface CorrectedShare {
  value: string;
  /** Share of the population's judge answers that are `value`; null when there is none. */
  judgeShare: number | null;
  /** judgeShare + the weighted mean of (label is value − judge is value); null without labels. */
  correctedShare: number | null;
  low: number | null;
  high: number | null;
  labels: number;
}

const clamp = (value: number) => Math.min(1, Math.max(0, value));

/**
 * Prediction-powered inference (Angelopoulos et al., Science 2023) for the share of one answer
 * value. The judge has answered the whole population (`answered`, of which `judgeCount` are
 * `value`); the audit sample measures its error on that value, d = 1[label = v] − 1[judge = v],
 * and the Hájek mean of d corrects the judge's share. The variance is the linearized Hájek
 * variance Σw²(d − Δ̂)²/(Σw)² plus 1/n², what one pseudo-disagreement of mean weight adds, so the
 * interval keeps a width of about z/n when the sample shows no error at all (docs/quality.md).
 */
export function predictionPoweredShare(
  value: string,
  population: { answered: number; judgeCount: number },
  sample: readonly AuditedCategory[],
  confidence: number,
): CorrectedShare {
  const z = zForConfidence(confidence);
  const judgeShare = population.answered > 0 ? population.judgeCount / population.answered : null;
  const labels = sample.length;
  if (judgeShare === null || !labels)
    return { value, judgeShare, correctedShare: null, low: null, high: null, labels };
  const weights = sample.map((item) => inclusionWeight(item.inclusionProbability));
  const errors = sample.map((item) => Number(item.label === value) - Number(item.judge === value));
  const rectifier = hajekMean(errors, weights)!;
  let total = 0;
  let spread = 0;
  for (let i = 0; i < labels; i++) {
    total += weights[i];
    spread += weights[i] ** 2 * (errors[i] - rectifier) ** 2;
  }
  const standardError = Math.sqrt(spread / total ** 2 + 1 / labels ** 2);
  const corrected = judgeShare + rectifier;
  return {
    value,
    judgeShare,
    // A share is in [0, 1]; clamping the estimate and both ends keeps low ≤ estimate ≤ high.
    correctedShare: clamp(corrected),
    low: clamp(corrected - z * standardError),
    high: clamp(corrected + z * standardError),
    labels,
  };
}

/**
 * Every answer value's corrected share for one question: the values the judge gave (`judgeCounts`)
 * and those only reviewers gave (a judge share of 0 the labels may correct upwards), most
 * frequent judge answer first.
 */
export function predictionPoweredShares(
  judgeCounts: ReadonlyMap<string, number>,
  sample: readonly AuditedCategory[],
  confidence: number,
): CorrectedShare[] {
  let answered = 0;
  for (const count of judgeCounts.values()) answered += count;
  const values = [...new Set([...judgeCounts.keys(), ...sample.map((item) => item.label)])];
  const count = (value: string) => judgeCounts.get(value) ?? 0;
  values.sort((a, b) => count(b) - count(a) || (a < b ? -1 : a > b ? 1 : 0));
  return values.map((value) =>
    predictionPoweredShare(value, { answered, judgeCount: count(value) }, sample, confidence),
  );
}
