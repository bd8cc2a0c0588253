import type { Answer } from '@app/domain';
import { defineStatement } from './statement.js';

/** The user's pack version's window: its UTC days from `fromDay` to `toDay`, both included. */
export interface VersionWindow {
  userId: string;
  versionId: string;
  fromDay: string;
  toDay: string;
}

export interface VersionCountsRow {
  evaluations: number;
  autoDecided: number;
  audited: number;
}

/** The counters hold no owner: they count only when the version is the user's. */
const OWNED_VERSION =
  'EXISTS (SELECT 1 FROM pack_versions v WHERE v.id = :versionId AND v.user_id = :userId)';

/**
 * The live evaluations of a version in a window, by the counters the trigger keeps per version and
 * day (1795750800000-quality-counters.ts): at most one row a day, however many evaluations.
 */
export const versionCounts = defineStatement<VersionWindow, VersionCountsRow>({
  name: 'quality.versionCounts',
  sql: `
    SELECT coalesce(sum(accept + review + reject), 0)::int AS evaluations,
           coalesce(sum(accept + reject), 0)::int AS "autoDecided",
           coalesce(sum(audited), 0)::int AS audited
      FROM evaluation_daily_version_stats
     WHERE pack_version_id = :versionId AND day >= :fromDay::date AND day <= :toDay::date
       AND ${OWNED_VERSION}`,
});

export interface AnswerCountRow {
  questionId: string;
  answer: string;
  count: number;
}

/** The judge's answers of a version's live evaluations in a window, per question and answer. */
export const answerCounts = defineStatement<VersionWindow, AnswerCountRow>({
  name: 'quality.answerCounts',
  sql: `
    SELECT question_id AS "questionId", answer, sum(count)::int AS count
      FROM evaluation_daily_answers
     WHERE pack_version_id = :versionId AND day >= :fromDay::date AND day <= :toDay::date
       AND ${OWNED_VERSION}
     GROUP BY question_id, answer
     ORDER BY question_id, answer`,
});

export interface LabeledDrawRow {
  status: string;
  /** π: the probability with which the evaluation was selected. */
  auditProbability: number;
  /** The judge's answer per labeled question (absent where it gave none). */
  answers: Record<string, Answer>;
  /** The reviewer's answer per labeled question. */
  labels: Record<string, Answer>;
}

/** One label of the audit sample, with its evaluation's facts as the label carries them. */
export interface AuditLabelRow {
  evaluationId: string;
  status: string;
  auditProbability: number;
  questionId: string;
  /** The judge's answer to the question; null when it gave none. */
  model: Answer | null;
  label: Answer;
}

/**
 * The labels of the audit sample: on live evaluations of the version drawn and selected (any status:
 * a selected review item's label counts as well), a draw's labels together, read from the copies of
 * the evaluation's facts each label carries (migration 1795751500000-label-evaluation-facts) on the
 * labels' version index, never from the evaluations. `fromDay`/`toDay` null: the version's whole
 * history.
 */
export const auditLabels = defineStatement<
  { userId: string; versionId: string; fromDay: string | null; toDay: string | null },
  AuditLabelRow
>({
  name: 'quality.auditLabels',
  sql: `
    SELECT evaluation_id AS "evaluationId", evaluation_status AS status, audit_probability AS "auditProbability",
           question_id AS "questionId", judge_answer AS model, answer AS label
      FROM labels
     WHERE pack_version_id = :versionId AND audit_selected AND user_id = :userId
       AND (:fromDay::date IS NULL OR evaluation_created_at >= (:fromDay::date AT TIME ZONE 'UTC'))
       AND (:toDay::date IS NULL OR evaluation_created_at < ((:toDay::date + 1) AT TIME ZONE 'UTC'))
     ORDER BY evaluation_created_at, evaluation_id, question_id`,
  plannedPerCall: true,
});

export interface AuditedPackRow {
  packId: string;
  packName: string;
  versionId: string;
}

/**
 * The user's live packs with the audit on, most recently changed first: the dashboard's Quality
 * card (GET /api/stats `quality`). Few rows, on the packs' user index.
 */
export const auditedPacks = defineStatement<{ userId: string; limit: number }, AuditedPackRow>({
  name: 'quality.auditedPacks',
  sql: `
    SELECT id AS "packId", name AS "packName", live_version_id AS "versionId"
      FROM packs
     WHERE user_id = :userId AND deleted_at IS NULL AND audit_rate > 0 AND live_version_id IS NOT NULL
     ORDER BY updated_at DESC, id DESC
     LIMIT :limit`,
});
