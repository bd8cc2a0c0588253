import {
  selectedProbabilities,
  type EvaluationSource,
  type EvaluationStatus,
  type JudgmentResult,
  type Ticket,
} from '@app/domain';
import type { EvaluationEntity } from '@app/persistence';
import { UNCALIBRATED, type CalibratedFields } from './calibrated-fields.js';

export interface EvaluationSummaryView {
  id: string;
  packId: string;
  packVersionId: string;
  source: EvaluationSource;
  status: EvaluationStatus;
  modelId: string;
  latencyMs: number;
  createdAt: string;
}

/** An evaluation as GET /api/evaluations lists it: the summary, which ticket, and what was answered. */
export interface EvaluationListItemView extends EvaluationSummaryView {
  /** The ticket's subject as stored (redacted). */
  subject: string;
  /** The ticket's `externalId`; null when it has none. */
  externalId: string | null;
  /** The answers by question id (empty when judging failed). */
  answers: JudgmentResult['answers'];
}

export interface LabelView {
  id: string;
  questionId: string;
  answer: unknown;
  note: string;
  agreement: boolean;
  createdAt: string;
}

export interface EvaluationView extends EvaluationSummaryView, CalibratedFields {
  redactedTicket: Ticket;
  result: JudgmentResult;
  /** Per question, the probability of the selected answer as the decision rule read it (stored with the row). */
  selectedProbabilities: Record<string, number>;
  usage: { inputTokens: number; outputTokens: number };
  labels: LabelView[];
  /** The audit draw: π and whether it selected the evaluation; null when nothing was drawn. */
  auditProbability: number | null;
  auditSelected: boolean | null;
}

export interface JudgeResponse {
  evaluationId: string;
  packVersionId: string;
  result: JudgmentResult;
}

export function toSummaryView(evaluation: EvaluationEntity): EvaluationSummaryView {
  return {
    id: evaluation.id,
    packId: evaluation.packId,
    packVersionId: evaluation.packVersionId,
    source: evaluation.source,
    status: evaluation.status,
    modelId: evaluation.modelId,
    latencyMs: evaluation.latencyMs,
    createdAt: evaluation.createdAt.toISOString(),
  };
}

export function toListItemView(evaluation: EvaluationEntity): EvaluationListItemView {
  return {
    ...toSummaryView(evaluation),
    subject: evaluation.redactedTicket.subject,
    externalId: evaluation.redactedTicket.externalId ?? null,
    answers: evaluation.result.answers ?? {},
  };
}

export function toEvaluationView(
  evaluation: EvaluationEntity,
  labels: LabelView[] = [],
  calibration: CalibratedFields = UNCALIBRATED,
): EvaluationView {
  return {
    ...toSummaryView(evaluation),
    redactedTicket: evaluation.redactedTicket,
    result: evaluation.result,
    // Rows written before the column existed have none stored: the domain's rule computes them.
    selectedProbabilities:
      evaluation.selectedProbabilities ?? selectedProbabilities(evaluation.result.answers),
    usage: { inputTokens: evaluation.inputTokens, outputTokens: evaluation.outputTokens },
    labels,
    auditProbability: evaluation.auditProbability ?? null,
    auditSelected: evaluation.auditSelected ?? null,
    ...calibration,
  };
}

export function toJudgeResponse(evaluation: EvaluationEntity): JudgeResponse {
  return { evaluationId: evaluation.id, packVersionId: evaluation.packVersionId, result: evaluation.result };
}
