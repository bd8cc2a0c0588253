import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';

/**
 * A share estimated from labels, with its interval at the requested confidence. The three numbers
 * are null when there is no label: the data cannot support any figure then (docs/quality.md).
 */
export interface ShareEstimate {
  estimate: number | null;
  low: number | null;
  high: number | null;
  labels: number;
}

/** One labeled item of a weighted sample: whether the reviewer agreed with the judge, and how it was drawn. */
export interface WeightedAgreement {
  agreed: boolean;
  /** The probability with which the item was selected for audit, 0 < π ≤ 1; its weight is 1/π. */
  inclusionProbability: number;
}

/** One labeled answer of one question: the judge's selected probability besides its agreement. */
export interface AuditedAnswer extends WeightedAgreement {
  /** The judge's selected probability (`selectedProbability` of its answer), 0..1. */
  selectedProbability: number;
}

/** The item's design weight 1/π; a π outside (0, 1] is a caller's bug, not data to estimate from. */
export function inclusionWeight(inclusionProbability: number): number {
  if (!(inclusionProbability > 0 && inclusionProbability <= 1))
    throw new RangeError(`inclusion probability must be in (0, 1], got ${inclusionProbability}`);
  return 1 / inclusionProbability;
}

/** The two-sided normal quantile z of a confidence level: 1.959964 for 0.95. */
export function zForConfidence(confidence: number): number {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  return normalQuantile((1 + confidence) / 2, 0, 1);
}

/** Kish's effective sample size (Σw)² / Σw²: n for equal weights, less the more the weights differ. */
export function kishEffectiveSize(weights: readonly number[]): number {
  let sum = 0;
  let squares = 0;
  for (const weight of weights) {
    sum += weight;
    squares += weight * weight;
  }
  return squares > 0 ? (sum * sum) / squares : 0;
}

/** The Hájek (ratio) mean Σ w·y / Σ w; null without weight. */
export function hajekMean(values: readonly number[], weights: readonly number[]): number | null {
  let total = 0;
  let weighted = 0;
  for (let i = 0; i < values.length; i++) {
    total += weights[i];
    weighted += weights[i] * values[i];
  }
  return total > 0 ? weighted / total : null;
}

/**
 * Wilson's score interval for a proportion p̂ observed on n trials (n may be fractional, an
 * effective size): centre (p̂ + z²/2n) / (1 + z²/n), half-width z·√(p̂(1−p̂)/n + z²/4n²) / (1 + z²/n).
 * It stays inside [0, 1] and does not collapse to a point at p̂ = 0 or 1.
 */
export function wilsonInterval(proportion: number, trials: number, z: number): { low: number; high: number } {
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (proportion + z2 / (2 * trials)) / denominator;
  const half =
    (z * Math.sqrt((proportion * (1 - proportion)) / trials + z2 / (4 * trials * trials))) / denominator;
  // Clamp rounding only: mathematically the interval lies in [0, 1] and contains p̂.
  return {
    low: Math.max(0, Math.min(proportion, centre - half)),
    high: Math.min(1, Math.max(proportion, centre + half)),
  };
}

/**
 * A weighted proportion: the Hájek estimate Σw·y/Σw, with Wilson's interval taken at Kish's
 * effective sample size. With every π = 1 this is exactly the unweighted share and Wilson's interval.
 */
export function weightedProportion(items: readonly WeightedAgreement[], confidence: number): ShareEstimate {
  const z = zForConfidence(confidence);
  const labels = items.length;
  if (!labels) return { estimate: null, low: null, high: null, labels };
  const weights = items.map((item) => inclusionWeight(item.inclusionProbability));
  const estimate = hajekMean(
    items.map((item) => (item.agreed ? 1 : 0)),
    weights,
  )!;
  const { low, high } = wilsonInterval(estimate, kishEffectiveSize(weights), z);
  return { estimate, low, high, labels };
}
