import type { Schemas } from '../../api/client';
import { countLabel, formatCount, formatPercent } from '../../lib/format';
import { NOT_A_NUMBER, rateFromPercent } from './percent-rate';

type ShadowRun = Schemas['ShadowRunDto'];
type Report = Schemas['ShadowReportDto'];
type QuestionFlips = Schemas['QuestionFlipsDto'];
type FlipCell = Schemas['FlipCellDto'];

/** The answer the API writes where a side gave none (a question the other version lacks, a failure). */
export const NO_ANSWER = '(none)';

/** The sample rate the form starts at, in percent. */
export const DEFAULT_SAMPLE_PERCENT = 10;

export interface ShadowForm {
  /** The version to judge with; null for the draft, frozen when the run starts. */
  versionId: string | null;
  /** The sample rate as a percent, as typed (Mantine's NumberInput gives '' when empty). */
  percent: number | string;
  /** The cap on judgments; '' for none. */
  maxJudgments: number | string;
}

export type ParsedShadowForm =
  | { ok: true; body: Schemas['StartShadowRunDto'] }
  | { ok: false; field: 'percent' | 'maxJudgments'; error: string };

/**
 * The form as the start route's body: the percent as a rate, the draft as no `versionId`, an empty
 * cap as none. It converts only; the server says which rates and caps it takes, and its refusal shows
 * at the field. Only what is not a number stops here, as no request can carry it.
 */
export function startBody(form: ShadowForm): ParsedShadowForm {
  const sampleRate = rateFromPercent(form.percent);
  if (sampleRate === undefined) return { ok: false, field: 'percent', error: NOT_A_NUMBER };
  const body: Schemas['StartShadowRunDto'] = { sampleRate };
  if (form.versionId) body.versionId = form.versionId;
  if (String(form.maxJudgments).trim() !== '') {
    const cap = Number(form.maxJudgments);
    if (!Number.isFinite(cap)) return { ok: false, field: 'maxJudgments', error: NOT_A_NUMBER };
    body.maxJudgments = cap;
  }
  return { ok: true, body };
}

/** Each form field's body field, whose issues in a refusal show at it. */
export const START_FIELDS = { percent: 'sampleRate', maxJudgments: 'maxJudgments' } as const;

const STOP_REASONS: Record<NonNullable<ShadowRun['stopReason']>, string> = {
  requested: 'stopped on request',
  max_judgments: 'stopped at its cap',
  pack_deleted: 'stopped because the pack was deleted',
};

/** "Active", or "Stopped on request", "Stopped at its cap", … */
export function runStatusText(run: Pick<ShadowRun, 'status' | 'stopReason'>): string {
  if (run.status === 'active') return 'Active';
  const reason = run.stopReason ? STOP_REASONS[run.stopReason] : 'stopped';
  return reason.charAt(0).toUpperCase() + reason.slice(1);
}

/** "10% of live traffic, at most 50 judgments" or "100% of live traffic, no cap". */
export function runScopeText(run: Pick<ShadowRun, 'sampleRate' | 'maxJudgments'>): string {
  const cap = run.maxJudgments === null ? 'no cap' : `at most ${countLabel(run.maxJudgments, 'judgment')}`;
  return `${formatPercent(run.sampleRate, 2)} of live traffic, ${cap}`;
}

/**
 * An answer's place on a matrix axis: `true` then `false`, scores by value, choices by name, and
 * `(none)` last.
 */
function answerOrder(a: string, b: string): number {
  const rank = (value: string) =>
    value === 'true' ? 0 : value === 'false' ? 1 : value === NO_ANSWER ? 3 : 2;
  const byRank = rank(a) - rank(b);
  if (byRank !== 0) return byRank;
  const [x, y] = [Number(a), Number(b)];
  if (a !== '' && b !== '' && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
  return a.localeCompare(b);
}

export interface FlipMatrix {
  /** Live answers, one row each. */
  rows: string[];
  /** Shadow answers, one column each. */
  columns: string[];
  /** The cell of a live answer and a shadow answer; undefined where none occurred. */
  cell: (from: string, to: string) => FlipCell | undefined;
}

/** A question's answer-flip matrix: the live answers that occurred as rows, the shadow ones as columns. */
export function flipMatrix(question: Pick<QuestionFlips, 'flips'>): FlipMatrix {
  const cells = new Map(question.flips.map((flip) => [`${flip.from}\u0000${flip.to}`, flip]));
  return {
    rows: [...new Set(question.flips.map((flip) => flip.from))].sort(answerOrder),
    columns: [...new Set(question.flips.map((flip) => flip.to))].sort(answerOrder),
    cell: (from, to) => cells.get(`${from}\u0000${to}`),
  };
}

/** The questions whose answers changed, most changed first (then by id); at most `limit`. */
export function mostChangedQuestions(report: Pick<Report, 'questions'>, limit = 3): QuestionFlips[] {
  return report.questions
    .filter((question) => question.changed > 0)
    .sort((a, b) => b.changed - a.changed || a.questionId.localeCompare(b.questionId))
    .slice(0, limit);
}

/** "accept → review" for a status change. */
export function statusChangeText(change: Pick<Schemas['ShadowStatusChangeDto'], 'from' | 'to'>): string {
  return `${change.from} → ${change.to}`;
}

/** The status changes where the status differs, most first. */
export function changedStatuses(report: Pick<Report, 'statusChanges'>): Schemas['ShadowStatusChangeDto'][] {
  return report.statusChanges
    .filter((change) => change.from !== change.to)
    .sort((a, b) => b.count - a.count || statusChangeText(a).localeCompare(statusChangeText(b)));
}

/** The run the publish dialog reports on: the newest whose version holds the draft as it is now. */
export function runMatchingDraft<T extends Pick<ShadowRun, 'matchesDraft'>>(
  runs: readonly T[],
): T | undefined {
  return runs.find((run) => run.matchesDraft);
}

/**
 * The publish dialog's summary of a run's report, one line each: what was judged, how the statuses
 * would change, the review share, the questions with the most changed answers, and agreement with
 * reviewers where there are labels.
 */
export function publishSummaryLines(report: Report): string[] {
  const failed = report.failed ? `, ${formatCount(report.failed)} of them failed` : '';
  const lines = [`${formatCount(report.judged)} live tickets judged again by the draft${failed}.`];
  if (report.judged === 0) return lines;
  const changes = changedStatuses(report);
  lines.push(
    changes.length
      ? `Status changes: ${changes.map((change) => `${statusChangeText(change)} ${change.count}`).join(', ')}.`
      : 'No status would change.',
  );
  lines.push(
    `Sent to review: ${formatPercent(report.reviewShare.live, 1)} live → ${formatPercent(report.reviewShare.shadow, 1)} with the draft.`,
  );
  const changed = mostChangedQuestions(report);
  lines.push(
    changed.length
      ? `Most changed answers: ${changed.map((question) => `${question.questionId} (${question.changed} of ${question.compared})`).join(', ')}.`
      : 'No answer changed.',
  );
  for (const agreement of report.agreement.filter((row) => row.labels > 0)) {
    lines.push(
      `Agreement with reviewers on ${agreement.questionId} (${agreement.labels} labels): live ${formatPercent(agreement.live.estimate)}, draft ${formatPercent(agreement.shadow.estimate)}.`,
    );
  }
  return lines;
}
