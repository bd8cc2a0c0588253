import { selectedProbabilities } from '@app/domain';
import type { EvaluationEntity } from '../entities/evaluation.entity.js';
import {
  EVALUATION_COLUMN_LIST,
  EVALUATION_ROW_COLUMNS,
  insertEvaluation,
  type EvaluationRowParams,
} from '../statements/evaluations.statements.js';
import type { PreparedSql } from '../statements/prepared-sql.js';

/** What one evaluation row holds, written by the judge route, simulations and inbound judging alike. */
export type NewEvaluation = Omit<
  EvaluationEntity,
  'createdAt' | 'labeled' | 'simulationId' | 'datasetTicketId' | 'inboundEventId' | 'selectedProbabilities'
> &
  Partial<Pick<EvaluationEntity, 'simulationId' | 'datasetTicketId'>>;

/** The columns of an evaluation row and their types, in the order of `evaluationRowValues`. */
export const EVALUATION_COLUMN_TYPES = EVALUATION_ROW_COLUMNS;
export const EVALUATION_COLUMNS = EVALUATION_COLUMN_LIST;

/** The row's parameters; its selected probabilities come from the domain rule, computed once here. */
export function toEvaluationRow(
  evaluation: NewEvaluation,
  links: { inboundEventId?: string; createdAt?: Date } = {},
): EvaluationRowParams {
  return {
    ...evaluation,
    simulationId: evaluation.simulationId ?? null,
    datasetTicketId: evaluation.datasetTicketId ?? null,
    inboundEventId: links.inboundEventId ?? null,
    selectedProbabilities: selectedProbabilities(evaluation.result.answers),
    createdAt: links.createdAt ?? null,
  };
}

/** The row's values in column order (the batched insert sends one array per column). */
export function evaluationRowValues(evaluation: NewEvaluation): unknown[] {
  return insertEvaluation.values(toEvaluationRow(evaluation));
}

/** Inserts one row: the creation time when it is new, null when a unique link already had one. */
export async function insertEvaluationRow(sql: PreparedSql, evaluation: NewEvaluation): Promise<Date | null> {
  return (await sql.first(insertEvaluation, toEvaluationRow(evaluation)))?.createdAt ?? null;
}
