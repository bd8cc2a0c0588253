import { inclusionWeight, type AuditedAnswer } from './weighted.js';

/**
 * Labels from which a question's map is isotonic instead of Platt's. Isotonic regression assumes
 * nothing about the curve's shape but follows the noise of its labels; Platt's two parameters
 * cannot, at the price of a shape. Niculescu-Mizil and Caruana (ICML 2005) found isotonic worse
 * than Platt below about 1,000 calibration labels, and bench:quality agrees: with 200 labels an
 * isotonic map's ECE was 0.046 against Platt's 0.031, and the two meet near 1,000.
 */
export const ISOTONIC_MIN_LABELS = 1000;

/**
 * Strength of the ridge that pulls Platt's (intercept, slope) towards (0, 1), the judge's own
 * probability, in units of one label. Without it, labels that all agree (separable data) send the
 * slope to infinity; with it, a handful of labels moves the map only as far as they can support.
 */
export const PLATT_RIDGE = 1;

/**
 * Steps of the two grids a Platt map is drawn on: every 1/40 on [0, 1], and every 1/40 of the
 * logit range [logit ε, logit(1 − ε)], which puts points where the curve turns near 0 and 1 (half
 * the answers of a confident judge lie above 0.95). Interpolating between the union's points stays
 * within 0.003 of the curve for slopes up to 4; 21 points every 0.05 were 0.14 off near p = 1.
 */
export const PLATT_GRID_STEPS = 40;

/** Selected probabilities are kept within [ε, 1 − ε] before the logit, so p = 1 (no probabilities given) is finite. */
const LOGIT_EPSILON = 1e-4;

export interface CalibrationPoint {
  selectedProbability: number;
  calibrated: number;
}

/** A question's map from the judge's selected probability to the chance a reviewer agrees. */
export interface CalibrationMap {
  method: 'platt' | 'isotonic';
  labels: number;
  /** Sorted by selectedProbability, calibrated non-decreasing; `applyCalibration` interpolates between them. */
  points: CalibrationPoint[];
}

export interface PlattFit {
  intercept: number;
  slope: number;
}

const logit = (p: number) => {
  const clamped = Math.min(1 - LOGIT_EPSILON, Math.max(LOGIT_EPSILON, p));
  return Math.log(clamped / (1 - clamped));
};
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Weights 1/π rescaled to sum to the number of labels, so the ridge means the same at any audit rate. */
function normalizedWeights(items: readonly AuditedAnswer[]): number[] {
  const weights = items.map((item) => inclusionWeight(item.inclusionProbability));
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => (weight * items.length) / total);
}

/**
 * Platt scaling: P(agree) = σ(a + b·logit p), fitted by weighted maximum likelihood with the
 * penalty (λ/2)(a² + (b − 1)²), by Newton's method with step halving (the objective is convex).
 * The slope is kept at or above 0, so the map never decreases.
 */
export function fitPlatt(items: readonly AuditedAnswer[], ridge = PLATT_RIDGE): PlattFit {
  const weights = normalizedWeights(items);
  const xs = items.map((item) => logit(item.selectedProbability));
  const ys = items.map((item) => (item.agreed ? 1 : 0));
  const loss = (a: number, b: number) => {
    let sum = (ridge / 2) * (a * a + (b - 1) * (b - 1));
    for (let i = 0; i < xs.length; i++) {
      const eta = a + b * xs[i];
      // log(1 + e^η) − y·η, written to stay finite for large |η|.
      sum += weights[i] * (Math.max(eta, 0) + Math.log1p(Math.exp(-Math.abs(eta))) - ys[i] * eta);
    }
    return sum;
  };
  let a = 0;
  let b = 1;
  let current = loss(a, b);
  for (let iteration = 0; iteration < 100; iteration++) {
    let ga = ridge * a;
    let gb = ridge * (b - 1);
    let haa = ridge;
    let hab = 0;
    let hbb = ridge;
    for (let i = 0; i < xs.length; i++) {
      const mu = sigmoid(a + b * xs[i]);
      const curvature = weights[i] * mu * (1 - mu);
      ga += weights[i] * (mu - ys[i]);
      gb += weights[i] * (mu - ys[i]) * xs[i];
      haa += curvature;
      hab += curvature * xs[i];
      hbb += curvature * xs[i] * xs[i];
    }
    const determinant = haa * hbb - hab * hab;
    if (!(determinant > 0)) break;
    const stepA = (hbb * ga - hab * gb) / determinant;
    const stepB = (haa * gb - hab * ga) / determinant;
    let scale = 1;
    let next = loss(a - stepA, b - stepB);
    while (next > current && scale > 1e-6) {
      scale /= 2;
      next = loss(a - scale * stepA, b - scale * stepB);
    }
    if (next > current) break;
    a -= scale * stepA;
    b -= scale * stepB;
    const converged = Math.abs(scale * stepA) + Math.abs(scale * stepB) < 1e-10;
    current = next;
    if (converged) break;
  }
  if (b >= 0) return { intercept: a, slope: b };
  // Labels that disagree more as the judge grows surer: the map must still not decrease, and under
  // the constraint slope ≥ 0 the convex optimum lies on slope = 0, a constant map.
  return { intercept: fitIntercept(weights, ys, ridge), slope: 0 };
}

/** The intercept alone (slope 0): weighted logistic regression on a constant, with the ridge on a. */
function fitIntercept(weights: readonly number[], ys: readonly number[], ridge: number): number {
  let a = 0;
  for (let iteration = 0; iteration < 100; iteration++) {
    const mu = sigmoid(a);
    let gradient = ridge * a;
    let curvature = ridge;
    for (let i = 0; i < ys.length; i++) {
      gradient += weights[i] * (mu - ys[i]);
      curvature += weights[i] * mu * (1 - mu);
    }
    const step = gradient / curvature;
    a -= step;
    if (Math.abs(step) < 1e-12) break;
  }
  return a;
}

/** The Platt curve at one selected probability. */
export function plattProbability(fit: PlattFit, selectedProbability: number): number {
  return sigmoid(fit.intercept + fit.slope * logit(selectedProbability));
}

/**
 * Weighted isotonic regression by pool-adjacent-violators (Ayer et al. 1955): answers with the same
 * probability are pooled first, then adjacent blocks whose means decrease are merged. Returns each
 * block's ends, as scikit-learn's IsotonicRegression keeps them for its linear interpolation.
 */
export function isotonicPoints(items: readonly AuditedAnswer[]): CalibrationPoint[] {
  const weights = normalizedWeights(items);
  const order = items
    .map((_, i) => i)
    .sort((i, j) => items[i].selectedProbability - items[j].selectedProbability);
  const blocks: Array<{ from: number; to: number; weight: number; agreeing: number }> = [];
  for (const i of order) {
    const p = items[i].selectedProbability;
    const agreeing = items[i].agreed ? weights[i] : 0;
    const last = blocks.at(-1);
    if (last && last.to === p) {
      last.weight += weights[i];
      last.agreeing += agreeing;
    } else blocks.push({ from: p, to: p, weight: weights[i], agreeing });
    // Merge while the newest block's mean is below its predecessor's (compared without division).
    while (blocks.length > 1) {
      const top = blocks[blocks.length - 1];
      const below = blocks[blocks.length - 2];
      if (top.agreeing * below.weight >= below.agreeing * top.weight) break;
      below.to = top.to;
      below.weight += top.weight;
      below.agreeing += top.agreeing;
      blocks.pop();
    }
  }
  return blocks.flatMap(({ from, to, weight, agreeing }) => {
    const calibrated = Math.min(1, Math.max(0, agreeing / weight));
    return from === to
      ? [{ selectedProbability: from, calibrated }]
      : [
          { selectedProbability: from, calibrated },
          { selectedProbability: to, calibrated },
        ];
  });
}

/** The probabilities a Platt map is given at: both grids of PLATT_GRID_STEPS, merged and sorted. */
export function plattGrid(): number[] {
  const range = logit(1 - LOGIT_EPSILON);
  const grid = new Set<number>();
  for (let i = 0; i <= PLATT_GRID_STEPS; i++) {
    grid.add(i / PLATT_GRID_STEPS);
    grid.add(sigmoid(-range + (2 * range * i) / PLATT_GRID_STEPS));
  }
  return [...grid].sort((a, b) => a - b);
}

/** The method a question's map takes with this many labels. */
export function calibrationMethodFor(labels: number): CalibrationMap['method'] {
  return labels >= ISOTONIC_MIN_LABELS ? 'isotonic' : 'platt';
}

/**
 * A question's calibration map from its labeled answers, weighted by 1/π: Platt's with fewer than
 * ISOTONIC_MIN_LABELS labels, isotonic from there (or the method given). Null without labels.
 */
export function fitCalibrationMap(
  items: readonly AuditedAnswer[],
  method: CalibrationMap['method'] = calibrationMethodFor(items.length),
): CalibrationMap | null {
  const labels = items.length;
  if (!labels) return null;
  if (method === 'isotonic') return { method, labels, points: isotonicPoints(items) };
  const fit = fitPlatt(items);
  const points = plattGrid().map((selectedProbability) => ({
    selectedProbability,
    calibrated: plattProbability(fit, selectedProbability),
  }));
  return { method: 'platt', labels, points };
}

/** The calibrated probability of a selected probability: linear between the map's points, flat beyond its ends. */
export function applyCalibration(map: CalibrationMap, selectedProbability: number): number {
  const { points } = map;
  if (selectedProbability <= points[0].selectedProbability) return points[0].calibrated;
  const last = points[points.length - 1];
  if (selectedProbability >= last.selectedProbability) return last.calibrated;
  // The first point above p, by binary search: maps hold up to a few hundred points.
  let low = 0;
  let high = points.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (points[middle].selectedProbability <= selectedProbability) low = middle;
    else high = middle;
  }
  const left = points[low];
  const right = points[high];
  const share =
    (selectedProbability - left.selectedProbability) / (right.selectedProbability - left.selectedProbability);
  return left.calibrated + share * (right.calibrated - left.calibrated);
}
