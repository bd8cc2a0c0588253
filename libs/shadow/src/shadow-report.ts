import { agrees, weightedProportion, type Answer, type CostSum, type ShareEstimate } from '@app/domain';
import type { ShadowReportRows, ShadowRunRow } from '@app/persistence';

/** The confidence of the report's agreement intervals. */
export const SHADOW_AGREEMENT_CONFIDENCE = 0.95;

export interface ShadowRunView {
  id: string;
  packId: string;
  versionId: string;
  sampleRate: number;
  maxJudgments: number | null;
  status: string;
  stopReason: string | null;
  createdAt: string;
  stoppedAt: string | null;
  /** Whether the run's version holds the pack's draft as it is now: the report speaks for a publish. */
  matchesDraft: boolean;
}

export interface FlipCell {
  from: string;
  to: string;
  count: number;
  /** The first evaluations (by when they were judged again) behind the cell, at most FLIP_EXAMPLES. */
  evaluationIds: string[];
}

export interface QuestionFlips {
  questionId: string;
  compared: number;
  /** Judgments whose answer category differs between the two versions. */
  changed: number;
  /** live answer -> shadow answer counts, every cell that occurred. */
  flips: FlipCell[];
}

export interface SideUsage {
  inputTokens: number;
  outputTokens: number;
  /** At MODEL_PRICES; judgments whose model has no price are counted apart, never as 0. */
  cost: CostSum;
  meanLatencyMs: number | null;
  p95LatencyMs: number | null;
}

export interface QuestionAgreement {
  questionId: string;
  labels: number;
  live: ShareEstimate;
  shadow: ShareEstimate;
}

export interface ShadowReport {
  /** Live evaluations drawn and kept (those not yet judged when the run stopped are dropped). */
  sampled: number;
  /** Shadow judgments recorded, failed ones included. */
  judged: number;
  /** Of those, the shadow model call failed (gateway, invalid output): recorded as review. */
  failed: number;
  /** Drawn, not judged yet. */
  pending: number;
  statusChanges: Array<{ from: string; to: string; count: number }>;
  questions: QuestionFlips[];
  /** The share of judged evaluations routed to review by each side; null before any is judged. */
  reviewShare: { live: number | null; shadow: number | null };
  /** Per question, over the judged evaluations with a reviewer label on it: each side's agreement. */
  agreement: QuestionAgreement[];
  usage: { live: SideUsage; shadow: SideUsage };
}

export interface ShadowRunDetail extends ShadowRunView {
  report: ShadowReport;
}

export function toShadowRunView(row: ShadowRunRow): ShadowRunView {
  return {
    id: row.id,
    packId: row.packId,
    versionId: row.versionId,
    sampleRate: row.sampleRate,
    maxJudgments: row.maxJudgments,
    status: row.status,
    stopReason: row.stopReason,
    createdAt: row.createdAt.toISOString(),
    stoppedAt: row.stoppedAt?.toISOString() ?? null,
    matchesDraft: row.matchesDraft,
  };
}

/** The report from the run's aggregate rows (docs/shadow-runs.md says what each figure means). */
export function shadowReport(rows: ShadowReportRows): ShadowReport {
  const { totals } = rows;
  const questions = new Map<string, QuestionFlips>();
  for (const cell of rows.flips) {
    let question = questions.get(cell.questionId);
    if (!question) {
      question = { questionId: cell.questionId, compared: 0, changed: 0, flips: [] };
      questions.set(cell.questionId, question);
    }
    question.compared += cell.count;
    if (cell.from !== cell.to) question.changed += cell.count;
    question.flips.push({
      from: cell.from,
      to: cell.to,
      count: cell.count,
      evaluationIds: cell.evaluationIds,
    });
  }
  const share = (count: number) => (totals.judged ? count / totals.judged : null);
  return {
    sampled: totals.judged + totals.pending,
    judged: totals.judged,
    failed: totals.failed,
    pending: totals.pending,
    statusChanges: rows.statusChanges,
    questions: [...questions.values()],
    reviewShare: { live: share(totals.liveReview), shadow: share(totals.shadowReview) },
    agreement: labelAgreement(rows.labels),
    usage: {
      live: {
        inputTokens: totals.liveInputTokens,
        outputTokens: totals.liveOutputTokens,
        cost: { costUsd: totals.liveCostUsd, unknownCostEvaluations: totals.liveUnknownCost },
        meanLatencyMs: totals.liveLatencyMean,
        p95LatencyMs: totals.liveLatencyP95,
      },
      shadow: {
        inputTokens: totals.shadowInputTokens,
        outputTokens: totals.shadowOutputTokens,
        cost: { costUsd: totals.shadowCostUsd, unknownCostEvaluations: totals.shadowUnknownCost },
        meanLatencyMs: totals.shadowLatencyMean,
        p95LatencyMs: totals.shadowLatencyP95,
      },
    },
  };
}

/**
 * Each side's agreement with the reviewers, per question, on the same labelled evaluations: the
 * weighted share of `weightedProportion` (Hájek, with Wilson's interval at Kish's effective size),
 * an audit-drawn evaluation weighted 1/π as in the quality report, any other labelled one 1.
 */
export function labelAgreement(labels: ShadowReportRows['labels']): QuestionAgreement[] {
  const byQuestion = new Map<string, ShadowReportRows['labels']>();
  for (const row of labels) {
    const rows = byQuestion.get(row.questionId) ?? [];
    rows.push(row);
    byQuestion.set(row.questionId, rows);
  }
  return [...byQuestion]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([questionId, rows]) => {
      const side = (answer: (row: (typeof rows)[number]) => Answer | null) =>
        weightedProportion(
          rows.map((row) => ({
            agreed: agrees(answer(row) ?? undefined, row.label),
            inclusionProbability: row.auditSelected && row.auditProbability ? row.auditProbability : 1,
          })),
          SHADOW_AGREEMENT_CONFIDENCE,
        );
      return {
        questionId,
        labels: rows.length,
        live: side((row) => row.live),
        shadow: side((row) => row.shadow),
      };
    });
}
