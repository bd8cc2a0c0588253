import normalQuantile from '@stdlib/stats-base-dists-normal-quantile';
import { wilsonInterval } from '../quality/weighted.js';

/** The one-sided normal quantile z of a confidence level: 1.644854 for 0.95. */
export function oneSidedZ(confidence: number): number {
  if (!(confidence > 0 && confidence < 1))
    throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  return normalQuantile(confidence, 0, 1);
}

/**
 * The one-sided upper confidence bound of a proportion, from Wilson's score interval (Wilson 1927;
 * Brown, Cai & DasGupta 2001): the true proportion is below it with probability `confidence`.
 */
export function wilsonUpperBound(successes: number, trials: number, confidence: number): number {
  if (!(trials > 0)) throw new RangeError(`trials must be positive, got ${trials}`);
  return wilsonInterval(successes / trials, trials, oneSidedZ(confidence)).high;
}

/**
 * The pooled two-proportion z statistic (p₁ − p₂) / √(p̄(1 − p̄)(1/n₁ + 1/n₂)), p̄ = (x₁ + x₂)/(n₁ + n₂).
 * 0 when both samples are all successes or all failures (no variance, no difference).
 */
export function twoProportionZ(x1: number, n1: number, x2: number, n2: number): number {
  if (!(n1 > 0 && n2 > 0)) throw new RangeError('both samples must be non-empty');
  const pooled = (x1 + x2) / (n1 + n2);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2));
  return se > 0 ? (x1 / n1 - x2 / n2) / se : 0;
}

export interface PsiBin {
  category: string;
  recentCount: number;
  baselineCount: number;
  /** Smoothed shares: (count + α) / (total + α·bins). */
  recentShare: number;
  baselineShare: number;
}

export interface PsiResult {
  psi: number;
  recentTotal: number;
  baselineTotal: number;
  /** Every category seen in either window, the largest rise of share first. */
  bins: PsiBin[];
}

/**
 * The population stability index Σ (rᵢ − bᵢ)·ln(rᵢ / bᵢ) over the categories of both windows, with
 * each window's shares smoothed by `smoothing` (α) per category, so a category absent from one
 * window contributes a finite amount (Siddiqi 2006; Yurdakul 2018).
 */
export function populationStabilityIndex(
  recent: Readonly<Record<string, number>>,
  baseline: Readonly<Record<string, number>>,
  smoothing: number,
): PsiResult {
  if (!(smoothing > 0)) throw new RangeError(`smoothing must be positive, got ${smoothing}`);
  const categories = [...new Set([...Object.keys(recent), ...Object.keys(baseline)])].sort();
  const total = (counts: Readonly<Record<string, number>>) =>
    categories.reduce((sum, category) => sum + (counts[category] ?? 0), 0);
  const recentTotal = total(recent);
  const baselineTotal = total(baseline);
  const share = (count: number, sum: number) => (count + smoothing) / (sum + smoothing * categories.length);
  let psi = 0;
  const bins = categories.map((category) => {
    const recentCount = recent[category] ?? 0;
    const baselineCount = baseline[category] ?? 0;
    const recentShare = share(recentCount, recentTotal);
    const baselineShare = share(baselineCount, baselineTotal);
    psi += (recentShare - baselineShare) * Math.log(recentShare / baselineShare);
    return { category, recentCount, baselineCount, recentShare, baselineShare };
  });
  bins.sort((a, b) => b.recentShare - b.baselineShare - (a.recentShare - a.baselineShare));
  return { psi, recentTotal, baselineTotal, bins };
}
