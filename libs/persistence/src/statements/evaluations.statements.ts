import type { Answer, EvaluationSource, EvaluationStatus, JudgmentResult, Ticket } from '@app/domain';
import { defineStatement } from './statement.js';

/** One evaluation row as the inserts send it. */
export interface EvaluationRowParams {
  id: string;
  userId: string;
  packId: string;
  packVersionId: string;
  source: EvaluationSource;
  status: EvaluationStatus;
  redactedTicket: Ticket;
  result: JudgmentResult;
  modelId: string;
  latencyMs: number;
  inputTokens: number;
  outputTokens: number;
  simulationId: string | null;
  datasetTicketId: string | null;
  inboundEventId: string | null;
  selectedProbabilities: Record<string, number>;
  /** Null: now (clock_timestamp, so rows of one transaction stay ordered). */
  createdAt: Date | null;
}

/** The columns of an evaluation row, their types and parameters, in insert order; created_at last. */
export const EVALUATION_ROW_COLUMNS = [
  ['id', 'uuid', 'id'], ['user_id', 'uuid', 'userId'], ['pack_id', 'uuid', 'packId'],
  ['pack_version_id', 'uuid', 'packVersionId'], ['source', 'text', 'source'], ['status', 'text', 'status'],
  ['redacted_ticket', 'jsonb', 'redactedTicket'], ['result', 'jsonb', 'result'], ['model_id', 'text', 'modelId'],
  ['latency_ms', 'int', 'latencyMs'], ['input_tokens', 'int', 'inputTokens'], ['output_tokens', 'int', 'outputTokens'],
  ['simulation_id', 'uuid', 'simulationId'], ['dataset_ticket_id', 'uuid', 'datasetTicketId'],
  ['inbound_event_id', 'uuid', 'inboundEventId'], ['selected_probabilities', 'jsonb', 'selectedProbabilities'],
  ['created_at', 'timestamptz', 'createdAt'],
] as const satisfies ReadonlyArray<readonly [string, string, keyof EvaluationRowParams]>; // prettier-ignore

export const EVALUATION_COLUMN_LIST = EVALUATION_ROW_COLUMNS.map(([column]) => column).join(', ');

/** One row's `VALUES`, by parameter name; the creation time defaults to now. */
export const EVALUATION_ROW_VALUES = EVALUATION_ROW_COLUMNS.map(([, , param]) =>
  param === 'createdAt' ? 'COALESCE(:createdAt, clock_timestamp())' : `:${param}`,
).join(', ');

export const EVALUATION_JSON_PARAMS = ['redactedTicket', 'result', 'selectedProbabilities'] as const;

/**
 * The INSERT of one evaluation. Conflicts on the unique links (one per simulation ticket, one per
 * inbound event) insert nothing: a row comes back only when it is new.
 */
export const insertEvaluation = defineStatement<EvaluationRowParams, { createdAt: Date }>({
  name: 'evaluations.insert',
  sql: `
    INSERT INTO evaluations (${EVALUATION_COLUMN_LIST}) VALUES (${EVALUATION_ROW_VALUES})
    ON CONFLICT DO NOTHING RETURNING created_at AS "createdAt"`,
  json: EVALUATION_JSON_PARAMS,
});

interface VersionQuestion {
  userId: string;
  packVersionId: string;
  questionId: string;
}

/** Of the version's evaluations with a stored selected probability for the question: how many, and below. */
export const countStoredBelowThreshold = defineStatement<
  VersionQuestion & { threshold: number },
  { answered: number; below: number }
>({
  name: 'evaluations.countStoredBelowThreshold',
  sql: `
    SELECT count(*)::int AS answered,
           (count(*) FILTER (WHERE (selected_probabilities ->> :questionId)::float8 < :threshold))::int AS below
      FROM evaluations
     WHERE user_id = :userId AND pack_version_id = :packVersionId AND selected_probabilities ? :questionId`,
});

/** The question's answers on the version's evaluations written before selected probabilities were stored. */
export const unstoredAnswers = defineStatement<VersionQuestion, { answer: Answer }>({
  name: 'evaluations.unstoredAnswers',
  sql: `
    SELECT result -> 'answers' -> :questionId AS answer
      FROM evaluations
     WHERE user_id = :userId AND pack_version_id = :packVersionId AND selected_probabilities IS NULL
       AND result -> 'answers' ? :questionId`,
});

type EvaluationParam = (typeof EVALUATION_ROW_COLUMNS)[number][2];

/** Many evaluation rows: one array per column (values as `insertEvaluation` sends them). */
export type EvaluationColumnArrays = Record<EvaluationParam, unknown[]>;

const ALIASES = EVALUATION_ROW_COLUMNS.map((_, i) => `c${i + 1}`);

/**
 * Many evaluation rows in one statement, inserted in batch order (so of two rows with the same id,
 * the first is the one stored); the creation time (the last column) defaults to now.
 */
export const insertEvaluations = defineStatement<EvaluationColumnArrays, { id: string; createdAt: Date }>({
  name: 'evaluations.insertMany',
  sql: `
    INSERT INTO evaluations (${EVALUATION_COLUMN_LIST})
    SELECT ${[...ALIASES.slice(0, -1), `COALESCE(${ALIASES.at(-1)}, clock_timestamp())`].join(', ')}
      FROM unnest(${EVALUATION_ROW_COLUMNS.map(([, type, param]) => `:${param}::${type}[]`).join(', ')})
        WITH ORDINALITY AS r(${ALIASES.join(', ')}, position)
     ORDER BY position
    ON CONFLICT DO NOTHING
    RETURNING id, created_at AS "createdAt"`,
});
