import { answerCell, type ExportCell } from '@app/domain';
import type { EvaluationEntity } from '@app/persistence';

/** Evaluations read per query of an export: a bounded batch, whatever the export's length. */
export const EVALUATION_EXPORT_BATCH = 500;

/**
 * The columns of GET /api/evaluations/export. Answers are one JSON column (question id -> answer
 * text): the header is written before the first row, and the rows of an export may come from any
 * pack and version, so per-question columns are not known up front (the simulation export, of one
 * version, has them).
 */
export const EVALUATION_EXPORT_COLUMNS = [
  'id',
  'createdAt',
  'source',
  'status',
  'packId',
  'packVersionId',
  'simulationId',
  'externalId',
  'subject',
  'answers',
] as const;

export function toEvaluationExportRow(evaluation: EvaluationEntity): ExportCell[] {
  const answers = Object.entries(evaluation.result.answers ?? {}).map(([id, answer]) => [
    id,
    answerCell(answer),
  ]);
  return [
    evaluation.id,
    evaluation.createdAt.toISOString(),
    evaluation.source,
    evaluation.status,
    evaluation.packId,
    evaluation.packVersionId,
    evaluation.simulationId,
    evaluation.redactedTicket.externalId ?? null,
    evaluation.redactedTicket.subject,
    JSON.stringify(Object.fromEntries(answers)),
  ];
}
