import { applyCalibration, calibrationMethodFor, fitCalibrationMap } from './calibration-map.js';
import { inclusionWeight, type AuditedAnswer } from './weighted.js';

/** Equal-width bins on [0, 1], the same ten as the calibration report's reliability bins. */
export const ECE_BINS = 10;

/** Folds of the cross-fitting behind the calibrated ECE. */
export const CROSS_FIT_FOLDS = 5;

/** One probability judged against an outcome (0/1, or a true chance of agreement in a simulation). */
export interface WeightedForecast {
  probability: number;
  outcome: number;
  weight: number;
}

/**
 * Expected calibration error over ECE_BINS equal-width bins (the last includes 1):
 * Σ_b (W_b / W)·|weighted mean outcome in b − weighted mean probability in b|. Null without weight.
 */
export function expectedCalibrationError(forecasts: readonly WeightedForecast[]): number | null {
  const weight = new Array<number>(ECE_BINS).fill(0);
  const outcome = new Array<number>(ECE_BINS).fill(0);
  const probability = new Array<number>(ECE_BINS).fill(0);
  let total = 0;
  for (const forecast of forecasts) {
    const bin = Math.min(ECE_BINS - 1, Math.max(0, Math.floor(forecast.probability * ECE_BINS)));
    weight[bin] += forecast.weight;
    outcome[bin] += forecast.weight * forecast.outcome;
    probability[bin] += forecast.weight * forecast.probability;
    total += forecast.weight;
  }
  if (!(total > 0)) return null;
  // W_b/W · |Σ_b w·y / W_b − Σ_b w·p / W_b| = |Σ_b w·(y − p)| / W.
  let error = 0;
  for (let bin = 0; bin < ECE_BINS; bin++) error += Math.abs(outcome[bin] - probability[bin]);
  return error / total;
}

export interface CalibrationErrors {
  /** ECE of the judge's own selected probabilities; null without labels. */
  raw: number | null;
  /** ECE of the calibrated probabilities, each from a map fitted without it; null under 2 labels. */
  calibrated: number | null;
  labels: number;
}

/**
 * The fold of each labeled answer: ranked by selected probability (ties in input order), the
 * rank modulo CROSS_FIT_FOLDS. Deterministic, and every fold spans the whole probability range.
 */
export function crossFitFolds(items: readonly AuditedAnswer[]): number[] {
  const order = items
    .map((_, i) => i)
    .sort((i, j) => items[i].selectedProbability - items[j].selectedProbability || i - j);
  const folds = new Array<number>(items.length);
  order.forEach((item, rank) => (folds[item] = rank % CROSS_FIT_FOLDS));
  return folds;
}

/**
 * Raw and calibrated ECE from a question's labeled answers, weighted by 1/π. The calibrated one is
 * cross-fitted: each fold is calibrated by a map fitted on the other folds, so no label grades a
 * map it helped fit (an in-sample isotonic map would score close to 0 whatever its real error).
 */
export function calibrationErrors(items: readonly AuditedAnswer[]): CalibrationErrors {
  const labels = items.length;
  const weights = items.map((item) => inclusionWeight(item.inclusionProbability));
  const outcomes = items.map((item) => (item.agreed ? 1 : 0));
  const raw = expectedCalibrationError(
    items.map((item, i) => ({
      probability: item.selectedProbability,
      outcome: outcomes[i],
      weight: weights[i],
    })),
  );
  if (labels < 2) return { raw, calibrated: null, labels };
  const folds = crossFitFolds(items);
  // The method of the map the question really gets, though each fold fits on fewer labels.
  const method = calibrationMethodFor(labels);
  const calibrated = new Array<number>(labels);
  for (let fold = 0; fold < CROSS_FIT_FOLDS; fold++) {
    const heldOut = items.flatMap((_, i) => (folds[i] === fold ? [i] : []));
    if (!heldOut.length) continue;
    const map = fitCalibrationMap(
      items.filter((_, i) => folds[i] !== fold),
      method,
    )!;
    for (const i of heldOut) calibrated[i] = applyCalibration(map, items[i].selectedProbability);
  }
  return {
    raw,
    calibrated: expectedCalibrationError(
      items.map((_, i) => ({ probability: calibrated[i], outcome: outcomes[i], weight: weights[i] })),
    ),
    labels,
  };
}
