import type { EvaluationEntity } from '../entities/evaluation.entity.js';

/** What one evaluation row holds, written by the judge route, simulations and inbound judging alike. */
export type NewEvaluation = Omit<
  EvaluationEntity,
  'createdAt' | 'labeled' | 'simulationId' | 'datasetTicketId' | 'inboundEventId'
> &
  Partial<Pick<EvaluationEntity, 'simulationId' | 'datasetTicketId'>>;

/** Anything that runs SQL: the data source, or a transaction's entity manager. */
export interface SqlRunner {
  query(sql: string, parameters?: unknown[]): Promise<unknown>;
}

/** The columns of an evaluation row and their types, in the order of `evaluationRowValues`. */
export const EVALUATION_COLUMN_TYPES = [
  ['id', 'uuid'], ['user_id', 'uuid'], ['pack_id', 'uuid'], ['pack_version_id', 'uuid'],
  ['source', 'text'], ['status', 'text'], ['redacted_ticket', 'jsonb'], ['result', 'jsonb'],
  ['model_id', 'text'], ['latency_ms', 'int'], ['input_tokens', 'int'], ['output_tokens', 'int'],
  ['simulation_id', 'uuid'], ['dataset_ticket_id', 'uuid'], ['inbound_event_id', 'uuid'],
  ['created_at', 'timestamptz'],
] as const; // prettier-ignore

export const EVALUATION_COLUMNS = EVALUATION_COLUMN_TYPES.map(([column]) => column).join(', ');

/** `VALUES` placeholders for EVALUATION_COLUMNS, from $1; the creation time defaults to now. */
export const EVALUATION_PLACEHOLDERS = `$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, COALESCE($16, clock_timestamp())`;

export function evaluationRowValues(
  evaluation: NewEvaluation,
  links: { inboundEventId?: string; createdAt?: Date } = {},
): unknown[] {
  return [
    evaluation.id,
    evaluation.userId,
    evaluation.packId,
    evaluation.packVersionId,
    evaluation.source,
    evaluation.status,
    JSON.stringify(evaluation.redactedTicket),
    JSON.stringify(evaluation.result),
    evaluation.modelId,
    evaluation.latencyMs,
    evaluation.inputTokens,
    evaluation.outputTokens,
    evaluation.simulationId ?? null,
    evaluation.datasetTicketId ?? null,
    links.inboundEventId ?? null,
    links.createdAt ?? null,
  ];
}

/**
 * The INSERT of an evaluation, in plain SQL (it runs once per judgment). Conflicts on the unique
 * links (one per simulation ticket, one per inbound event) insert nothing: the creation time is
 * returned only when the row is new, which is how callers stay exactly-once over retried jobs.
 */
export async function insertEvaluationRow(
  runner: SqlRunner,
  evaluation: NewEvaluation,
): Promise<Date | null> {
  const rows = (await runner.query(
    `INSERT INTO evaluations (${EVALUATION_COLUMNS}) VALUES (${EVALUATION_PLACEHOLDERS})
     ON CONFLICT DO NOTHING RETURNING created_at`,
    evaluationRowValues(evaluation),
  )) as Array<{ created_at: Date }>;
  return rows[0]?.created_at ?? null;
}
