import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import { inclusionWeight, type AuditedAnswer } from './weighted.js';

/** What the labels say about auto-accepting a question's answers at or above a threshold. */
export interface GuaranteedThreshold {
  /**
   * The lowest selected probability t such that, with probability at least 1 − δ, reviewers agree
   * with at least `targetAgreement` of the answers at or above t; null when no t passes.
   */
  threshold: number | null;
  /** Share of the population's answers at or above the threshold; null without a threshold. */
  coverage: number | null;
  /**
   * Without a threshold: about how many more audit labels would let one pass if agreement stays as
   * it is at the top; null when the top's agreement is not above the target (more labels of the
   * same kind cannot help). With no labels at all, the least that could ever do: the first tested
   * stratum's size.
   */
  labelsNeeded: number | null;
  labels: number;
}

/** Stratum sizes above this are not worth promising: the target is within rounding of the agreement. */
const LARGEST_STRATUM = 10_000_000;

/**
 * The exact (Clopper–Pearson, 1934) one-sided lower bound at level 1 − δ on a proportion after
 * `agreeing` successes in `trials`: the δ quantile of Beta(k, n − k + 1); 0 when k = 0. Fractional
 * k and n (effective counts of a weighted sample) go into the same quantile.
 */
export function clopperPearsonLower(agreeing: number, trials: number, delta: number): number {
  if (agreeing <= 0 || trials <= 0) return 0;
  return betaQuantile(delta, agreeing, trials - agreeing + 1);
}

/**
 * n₀ = ⌈ln δ / ln target⌉: the fewest labels whose bound can reach the target at all, all of them
 * agreeing (the bound is then δ^(1/n)). Infinite for a target of 1.
 */
export function minimumStratumSize(targetAgreement: number, delta: number): number {
  if (targetAgreement >= 1) return Infinity;
  if (targetAgreement <= 0) return 1;
  return Math.max(1, Math.ceil(Math.log(delta) / Math.log(targetAgreement) - 1e-9));
}

/**
 * Where the walk starts: the smallest stratum whose bound would pass if its agreement were halfway
 * between the target and 1 (75 labels for 0.9 and δ = 0.1), and never below n₀. Starting at n₀
 * itself, the first test passes only if nearly every one of ~22 answers agrees, so a judge that is
 * right 95% of the time at the top was stopped at its first step in most samples (bench:quality).
 * The size depends on the target and δ alone, not on any label, so the guarantee is unchanged.
 */
export function firstTestedStratumSize(targetAgreement: number, delta: number): number {
  const smallest = minimumStratumSize(targetAgreement, delta);
  if (!Number.isFinite(smallest)) return smallest;
  return Math.max(smallest, stratumSizeNeeded((1 + targetAgreement) / 2, targetAgreement, delta) ?? smallest);
}

/** One stratum "every labeled answer at or above t", as the bound sees it. */
interface Stratum {
  threshold: number;
  labels: number;
  /** Effective size and agreeing count: the raw counts when the weights are equal, Kish's otherwise. */
  trials: number;
  agreeing: number;
}

/** The strata at each distinct selected probability of the sample, from the highest down. */
function strataFromTheTop(sample: readonly AuditedAnswer[]): Stratum[] {
  const weights = sample.map((item) => inclusionWeight(item.inclusionProbability));
  const equal = weights.every((weight) => Math.abs(weight - weights[0]) <= 1e-12 * weights[0]);
  const order = sample
    .map((_, i) => i)
    .sort((i, j) => sample[j].selectedProbability - sample[i].selectedProbability);
  const strata: Stratum[] = [];
  let count = 0;
  let agreeingCount = 0;
  let sum = 0;
  let squares = 0;
  let agreeingWeight = 0;
  for (let rank = 0; rank < order.length; rank++) {
    const item = sample[order[rank]];
    const weight = weights[order[rank]];
    count++;
    sum += weight;
    squares += weight * weight;
    if (item.agreed) {
      agreeingCount++;
      agreeingWeight += weight;
    }
    // A stratum holds every tie of its threshold.
    const next = order[rank + 1];
    if (next !== undefined && sample[next].selectedProbability === item.selectedProbability) continue;
    const effective = (sum * sum) / squares;
    strata.push({
      threshold: item.selectedProbability,
      labels: count,
      trials: equal ? count : effective,
      agreeing: equal ? agreeingCount : (agreeingWeight / sum) * effective,
    });
  }
  return strata;
}

/** The smallest effective stratum size whose bound reaches the target at this agreement rate; null past LARGEST_STRATUM. */
function stratumSizeNeeded(agreement: number, targetAgreement: number, delta: number): number | null {
  const passes = (size: number) => clopperPearsonLower(agreement * size, size, delta) >= targetAgreement;
  let high = minimumStratumSize(targetAgreement, delta);
  while (!passes(high)) {
    if (high > LARGEST_STRATUM) return null;
    high *= 2;
  }
  let low = high / 2;
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (passes(middle)) high = middle;
    else low = middle;
  }
  return high;
}

/**
 * The guaranteed auto-accept threshold of "Trust or Escalate" (Jung et al., ICLR 2025), by
 * fixed-sequence testing (Bauer 1991). The candidates are the sample's distinct selected
 * probabilities from the highest down, starting where the stratum at or above one first holds
 * `firstTestedStratumSize` (effective) labels; each is tested at level δ with the lower bound of its stratum's agreement,
 * and the walk stops at the first failure. Because the order is fixed by the probabilities alone,
 * before any agreement is looked at, the chance that any accepted threshold's agreement is below
 * the target is at most δ without a multiplicity correction.
 */
export function guaranteedThreshold(
  sample: readonly AuditedAnswer[],
  populationProbabilities: readonly number[],
  targetAgreement: number,
  delta: number,
): GuaranteedThreshold {
  // Above 1/2 the bound could exceed the observed agreement: no guarantee worth the name.
  if (!(delta > 0 && delta <= 0.5)) throw new RangeError(`delta must be in (0, 0.5], got ${delta}`);
  if (!(targetAgreement >= 0 && targetAgreement <= 1))
    throw new RangeError(`targetAgreement must be in [0, 1], got ${targetAgreement}`);
  const labels = sample.length;
  const start = firstTestedStratumSize(targetAgreement, delta);
  if (!labels)
    return {
      threshold: null,
      coverage: null,
      labelsNeeded: Number.isFinite(start) ? start : null,
      labels,
    };
  const strata = strataFromTheTop(sample);
  const first = strata.findIndex((stratum) => stratum.trials >= start - 1e-9);
  let threshold: number | null = null;
  if (first >= 0) {
    for (const stratum of strata.slice(first)) {
      if (clopperPearsonLower(stratum.agreeing, stratum.trials, delta) < targetAgreement) break;
      threshold = stratum.threshold;
    }
  }
  if (threshold !== null) {
    const above = populationProbabilities.filter((p) => p >= threshold).length;
    const coverage = populationProbabilities.length ? above / populationProbabilities.length : null;
    return { threshold, coverage, labelsNeeded: null, labels };
  }
  return {
    threshold,
    coverage: null,
    labelsNeeded: labelsNeeded(strata, first, labels, targetAgreement, delta),
    labels,
  };
}

/**
 * More labels needed when no threshold passed: the top stratum (the first tested, or the whole
 * sample when none could be) keeps its agreement rate and its share of the sample; how many labels
 * in all would make its bound reach the target, less those already there.
 */
function labelsNeeded(
  strata: readonly Stratum[],
  first: number,
  labels: number,
  targetAgreement: number,
  delta: number,
): number | null {
  const top = strata[first >= 0 ? first : strata.length - 1];
  const agreement = top.agreeing / top.trials;
  if (!(agreement > targetAgreement)) return null;
  const needed = stratumSizeNeeded(agreement, targetAgreement, delta);
  if (needed === null) return null;
  // The stratum is tested only once it holds the first tested size, whatever its agreement.
  const size = Math.max(needed, firstTestedStratumSize(targetAgreement, delta));
  // The stratum holds top.trials effective labels out of `labels`; it grows in proportion.
  return Math.max(1, Math.ceil((size * labels) / top.trials) - labels);
}
