import { selectedProbabilities } from '@app/domain';
import type { EvaluationEntity } from '../entities/evaluation.entity.js';
import {
  insertEvaluation,
  type EvaluationColumnArrays,
  type EvaluationRowParams,
} from '../statements/evaluations.statements.js';
import type { PreparedSql } from '../statements/prepared-sql.js';

/** What one evaluation row holds, written by the judge route, simulations and inbound judging alike. */
export type NewEvaluation = Omit<
  EvaluationEntity,
  | 'createdAt'
  | 'labeled'
  | 'simulationId'
  | 'datasetTicketId'
  | 'inboundEventId'
  | 'selectedProbabilities'
  | 'auditProbability'
  | 'auditSelected'
  | 'auditUncertainty'
  | 'costUsd'
> &
  Partial<
    Pick<
      EvaluationEntity,
      | 'simulationId'
      | 'datasetTicketId'
      | 'auditProbability'
      | 'auditSelected'
      | 'auditUncertainty'
      | 'costUsd'
    >
  >;

/** The row's parameters; its selected probabilities come from the domain rule, computed once here. */
export function toEvaluationRow(
  evaluation: NewEvaluation,
  links: { inboundEventId?: string } = {},
): EvaluationRowParams {
  return {
    ...evaluation,
    simulationId: evaluation.simulationId ?? null,
    datasetTicketId: evaluation.datasetTicketId ?? null,
    inboundEventId: links.inboundEventId ?? null,
    selectedProbabilities: selectedProbabilities(evaluation.result.answers),
    auditProbability: evaluation.auditProbability ?? null,
    auditSelected: evaluation.auditSelected ?? null,
    auditUncertainty: evaluation.auditUncertainty ?? null,
    costUsd: evaluation.costUsd ?? null,
  };
}

/** The rows (from `toEvaluationRow`) as one array per column, for statements that unnest them. */
export function evaluationColumns(rows: EvaluationRowParams[]): EvaluationColumnArrays {
  const columns = Object.fromEntries(insertEvaluation.parameters.map((param) => [param, [] as unknown[]]));
  for (const row of rows) {
    const values = insertEvaluation.values(row);
    insertEvaluation.parameters.forEach((param, i) => columns[param].push(values[i]));
  }
  return columns as EvaluationColumnArrays;
}

/** Inserts one row: the creation time when it is new, null when a unique link already had one. */
export async function insertEvaluationRow(sql: PreparedSql, evaluation: NewEvaluation): Promise<Date | null> {
  return (await sql.first(insertEvaluation, toEvaluationRow(evaluation)))?.createdAt ?? null;
}
