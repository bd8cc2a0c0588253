import { createHash } from 'node:crypto';
import { answerCategory } from './calibration.js';
import type { Answer } from './judgment.js';

/** A shadow run's states: `active` while it samples and judges; `stopped` for good, its report kept. */
export const SHADOW_RUN_STATUSES = ['active', 'stopped'] as const;
export type ShadowRunStatus = (typeof SHADOW_RUN_STATUSES)[number];

/** Why a run stopped: its owner asked, it reached `maxJudgments`, or its pack was deleted. */
export const SHADOW_STOP_REASONS = ['requested', 'max_judgments', 'pack_deleted'] as const;
export type ShadowStopReason = (typeof SHADOW_STOP_REASONS)[number];

/** The sample rate when none is given: one live evaluation in ten is judged again. */
export const DEFAULT_SHADOW_SAMPLE_RATE = 0.1;

const TWO_TO_48 = 2 ** 48;

/**
 * The shadow draw of one live evaluation: a number in [0, 1) from SHA-256 of `runId:evaluationId`
 * (its first 48 bits). The evaluation is sampled when it is below the run's sample rate. Seeded by
 * the run: the same evaluation always draws the same number in one run, whichever worker looks,
 * however often it looks, so the sample can be recomputed (and checked) from the ids alone; and two
 * runs draw independently.
 */
export function shadowDraw(runId: string, evaluationId: string): number {
  const digest = createHash('sha256').update(`${runId}:${evaluationId}`).digest();
  return digest.readUIntBE(0, 6) / TWO_TO_48;
}

export function isShadowSampled(runId: string, evaluationId: string, sampleRate: number): boolean {
  return shadowDraw(runId, evaluationId) < sampleRate;
}

/**
 * Each question's answer category on both sides (`answerCategory`: the choice, `true`/`false`, the
 * score, or `(none)` where a side gave no answer), for the questions of the shadow version and of
 * the live answers, sorted by id: what the report's flip matrices count.
 */
export function answerPairs(
  questionIds: readonly string[],
  live: Record<string, Answer> | undefined,
  shadow: Record<string, Answer> | undefined,
): Record<string, [string, string]> {
  const ids = new Set([...questionIds, ...Object.keys(live ?? {})]);
  const pairs: Record<string, [string, string]> = {};
  for (const id of [...ids].sort()) pairs[id] = [answerCategory(live?.[id]), answerCategory(shadow?.[id])];
  return pairs;
}

/** What a run's sampling step sees under the run's lock. */
export interface ShadowSamplingState {
  sampleRate: number;
  maxJudgments: number | null;
  /** Drawn so far (pending or judged). */
  sampled: number;
  /** Drawn and not yet judged. */
  pending: number;
}

/** What a sampling step stores: the drawn evaluations, and the last one looked at (the new cursor). */
export interface ShadowDraw {
  drawn: string[];
  untilId: string;
}

/**
 * One sampling step of a run over `candidates` (its live evaluations after the cursor, oldest
 * first): each drawn with the run's seeded draw, at most `maxPending` waiting at once and never past
 * `maxJudgments`. The cursor stops at the last evaluation looked at, so one left undrawn for lack
 * of room is looked at again by a later step; at the cap, nothing more will ever be drawn, and the
 * cursor goes on past the rest. Null when there is nothing to look at.
 */
export function planShadowDraw(
  runId: string,
  state: ShadowSamplingState,
  candidates: ReadonlyArray<{ id: string }>,
  maxPending: number,
): ShadowDraw | null {
  const cap = state.maxJudgments === null ? Infinity : Math.max(0, state.maxJudgments - state.sampled);
  const room = Math.min(cap, Math.max(0, maxPending - state.pending));
  const drawn: string[] = [];
  let untilId: string | undefined;
  for (const candidate of candidates) {
    if (isShadowSampled(runId, candidate.id, state.sampleRate)) {
      // Out of room short of the cap: stop before this one, so a later step draws it.
      if (drawn.length === room && room < cap) break;
      if (drawn.length < room) drawn.push(candidate.id);
    }
    untilId = candidate.id;
  }
  return untilId === undefined ? null : { drawn, untilId };
}
