import type { Calibrate } from '../decision.js';
import type { EvaluationSource } from '../judgment.js';

/**
 * Audit sampling (docs/reviews.md, "Audit sampling"): when a live evaluation is stored, it is
 * selected for audit with a probability π that it records either way, so that every estimate made
 * from audit labels can weight a label by 1/π.
 */
export const AUDIT_STRATEGIES = ['uniform', 'uncertainty'] as const;
export type AuditStrategy = (typeof AUDIT_STRATEGIES)[number];

export interface AuditSettings {
  /** The expected share of the pack's automatic decisions that are selected, 0 (off) to 1. */
  rate: number;
  strategy: AuditStrategy;
}

export const DEFAULT_AUDIT_SETTINGS: AuditSettings = { rate: 0, strategy: 'uncertainty' };

/**
 * λ of the uncertainty strategy: the share of the rate every evaluation gets whatever its
 * uncertainty, so that π ≥ λ·rate > 0 and no automatic decision is beyond the audit's reach.
 */
export const AUDIT_FLOOR_SHARE = 0.2;

/** Live traffic: the only sources drawn for audit (the playground and simulations never are). */
export const AUDITED_SOURCES: readonly EvaluationSource[] = ['api', 'webhook', 'mcp'];

export function isAuditedSource(source: EvaluationSource): boolean {
  return AUDITED_SOURCES.includes(source);
}

/** What the draw stored with an evaluation: π, whether it was selected, and the u it was drawn with. */
export interface AuditDraw {
  probability: number;
  selected: boolean;
  /** u, stored so that ū (the mean over recent draws) is the mean of what the draws used. */
  uncertainty: number;
}

/**
 * The judge's uncertainty on an evaluation, u = √(mean over its answered questions of (1 − c)), with c
 * the chance a reviewer agrees with the answer: the question's calibrated probability where the pack
 * has a map for it (`calibrate`), else the judge's selected probability. 1 − c is the chance of a
 * disagreement, and a disagreement is what moves every audit estimate (docs/quality.md, "The audit
 * draw"): Neyman's allocation puts π in proportion to the standard deviation of what is measured,
 * hence the square root. A failed judgment (no answers because the model could not answer) is
 * wholly uncertain, 1; an evaluation with no answers for another reason has nothing uncertain, 0.
 */
export function auditUncertainty(
  selectedProbabilities: Record<string, number>,
  failed = false,
  calibrate?: Calibrate,
): number {
  if (failed) return 1;
  const entries = Object.entries(selectedProbabilities);
  if (!entries.length) return 0;
  let disagreement = 0;
  for (const [questionId, probability] of entries)
    disagreement += 1 - clamp01(calibrate?.(questionId, probability) ?? probability);
  return clamp01(Math.sqrt(disagreement / entries.length));
}

/**
 * π for an evaluation of uncertainty `uncertainty`:
 * - `uniform`: π = rate;
 * - `uncertainty`: π = min(1, rate·(λ + (1 − λ)·u/ū)), with ū the pack's mean uncertainty over its
 *   recent live automatic decisions, so that the mean of π over them is the rate (less where the
 *   cap at 1 bites). Without a usable ū (null, 0 or not finite): π = rate.
 * A rate of 0 is 0: the audit is off.
 */
export function auditProbability(
  settings: AuditSettings,
  uncertainty: number,
  meanUncertainty: number | null,
): number {
  const rate = clamp01(settings.rate);
  if (rate === 0) return 0;
  if (settings.strategy === 'uniform') return rate;
  if (meanUncertainty === null || !Number.isFinite(meanUncertainty) || meanUncertainty <= 0) return rate;
  const weight = AUDIT_FLOOR_SHARE + (1 - AUDIT_FLOOR_SHARE) * (clamp01(uncertainty) / meanUncertainty);
  return Math.min(1, rate * weight);
}

/**
 * The draw: selected iff `random` (uniform on [0, 1)) < π. Null when the audit is off (rate 0):
 * nothing is recorded, as before audits existed.
 */
export function drawAudit(
  settings: AuditSettings,
  uncertainty: number,
  meanUncertainty: number | null,
  random: number,
): AuditDraw | null {
  if (!(settings.rate > 0)) return null;
  const probability = auditProbability(settings, uncertainty, meanUncertainty);
  return { probability, selected: random < probability, uncertainty };
}

/**
 * A deterministic sequence of uniform numbers in [0, 1) from a 32-bit seed (mulberry32): the draw's
 * random numbers when AUDIT_SEED is set, so tests can know which evaluations are selected. Not for
 * anything secret.
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
