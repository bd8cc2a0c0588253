import type { EvaluationSource, EvaluationStatus, JudgmentResult, Ticket } from '@app/domain';
import type { EvaluationEntity } from '../entities/evaluation.entity.js';
import { aligned, defineStatement, type Statement } from './statement.js';

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
  /** The audit draw: π and the outcome; both null when nothing was drawn. */
  auditProbability: number | null;
  auditSelected: boolean | null;
  auditUncertainty: number | null;
  /** USD; null when its model has no price (unknown). */
  costUsd: number | null;
}

/**
 * The columns of an evaluation row that come from parameters, their types and parameters, in insert
 * order. created_at is not one of them: Postgres stamps every row with clock_timestamp() as it
 * inserts it, never a time taken earlier by the caller, so a row commits at most a statement's
 * length after its stamp. The shadow sampler's cursor relies on that (shadow.statements.ts), and
 * rows of one statement stay in order.
 */
export const EVALUATION_ROW_COLUMNS = [
  ['id', 'uuid', 'id'], ['user_id', 'uuid', 'userId'], ['pack_id', 'uuid', 'packId'],
  ['pack_version_id', 'uuid', 'packVersionId'], ['source', 'text', 'source'], ['status', 'text', 'status'],
  ['redacted_ticket', 'jsonb', 'redactedTicket'], ['result', 'jsonb', 'result'], ['model_id', 'text', 'modelId'],
  ['latency_ms', 'int', 'latencyMs'], ['input_tokens', 'int', 'inputTokens'], ['output_tokens', 'int', 'outputTokens'],
  ['simulation_id', 'uuid', 'simulationId'], ['dataset_ticket_id', 'uuid', 'datasetTicketId'],
  ['inbound_event_id', 'uuid', 'inboundEventId'], ['selected_probabilities', 'jsonb', 'selectedProbabilities'],
  ['audit_probability', 'float8', 'auditProbability'], ['audit_selected', 'boolean', 'auditSelected'],
  ['audit_uncertainty', 'float8', 'auditUncertainty'], ['cost_usd', 'float8', 'costUsd'],
] as const satisfies ReadonlyArray<readonly [string, string, keyof EvaluationRowParams]>; // prettier-ignore

/** The parameters' columns. */
export const EVALUATION_ROW_COLUMN_LIST = EVALUATION_ROW_COLUMNS.map(([column]) => column).join(', ');

/** The inserted columns: the parameters' and created_at, last. */
export const EVALUATION_COLUMN_LIST = `${EVALUATION_ROW_COLUMN_LIST}, created_at`;

/** One row's `VALUES`, by parameter name, and its creation time. */
export const EVALUATION_ROW_VALUES = [
  ...EVALUATION_ROW_COLUMNS.map(([, , param]) => `:${param}`),
  'clock_timestamp()',
].join(', ');

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

/**
 * Of the version's evaluations that answered the question: how many, and how many with a selected
 * probability in a bin below `bin` (the domain's `probabilityBin` of the threshold). Read from the
 * per-version histogram the stats trigger keeps (`evaluation_probability_bins`, migration
 * 1795751400000): at most 10,001 rows of its primary key, however many evaluations. The version must
 * be the user's.
 */
export const countBelowBin = defineStatement<
  { userId: string; packVersionId: string; questionId: string; bin: number },
  { answered: number; below: number }
>({
  name: 'evaluations.countBelowBin',
  sql: `
    SELECT COALESCE(sum(b.count), 0)::int AS answered,
           COALESCE(sum(b.count) FILTER (WHERE b.bin < :bin), 0)::int AS below
      FROM evaluation_probability_bins b
      JOIN pack_versions v ON v.id = b.pack_version_id
     WHERE b.pack_version_id = :packVersionId AND b.question_id = :questionId AND v.user_id = :userId`,
});

/**
 * The threshold preview (GET /api/packs/{packId}/threshold-preview): of the pack's live evaluations
 * (`api`, `webhook`, `mcp`; any version) since `since` with a stored selected probability for the
 * question, how many, and how many below `threshold`, on `evaluations_user_pack_idx`.
 */
export const countLiveBelowThresholdSince = defineStatement<
  { userId: string; packId: string; questionId: string; threshold: number; since: Date },
  { evaluated: number; below: number }
>({
  name: 'evaluations.countLiveBelowThresholdSince',
  sql: `
    SELECT count(*)::int AS evaluated,
           (count(*) FILTER (WHERE (selected_probabilities ->> :questionId)::float8 < :threshold))::int AS below
      FROM evaluations
     WHERE user_id = :userId AND pack_id = :packId AND created_at >= :since
       AND source IN ('api', 'webhook', 'mcp') AND selected_probabilities ? :questionId`,
});

type EvaluationParam = (typeof EVALUATION_ROW_COLUMNS)[number][2];

/** Many evaluation rows: one array per column (values as `insertEvaluation` sends them). */
export type EvaluationColumnArrays = Record<EvaluationParam, unknown[]>;

/**
 * Rows from one array parameter per column (`EvaluationColumnArrays`) and `extra` arrays beside them
 * (`[column, type, parameter]`), named by their columns, with their `position` in the arrays.
 */
export function unnestEvaluationRows(extra: ReadonlyArray<readonly [string, string, string]> = []): string {
  const columns = [...EVALUATION_ROW_COLUMNS, ...extra];
  return `unnest(${columns.map(([, type, param]) => `:${param}::${type}[]`).join(', ')})
        WITH ORDINALITY AS r(${columns.map(([column]) => column).join(', ')}, position)`;
}

/**
 * Many evaluation rows in one statement, inserted in batch order (so of two rows with the same id,
 * the first is the one stored), each stamped as it is inserted.
 */
export const insertEvaluations = defineStatement<EvaluationColumnArrays, { id: string; createdAt: Date }>({
  name: 'evaluations.insertMany',
  sql: `
    INSERT INTO evaluations (${EVALUATION_COLUMN_LIST})
    SELECT ${EVALUATION_ROW_COLUMN_LIST}, clock_timestamp()
      FROM ${unnestEvaluationRows()}
     ORDER BY position
    ON CONFLICT DO NOTHING
    RETURNING id, created_at AS "createdAt"`,
});

/** An evaluation as listed: its columns, and its creation time as text, for cursors. */
export type ListedEvaluation = EvaluationEntity & { createdAtText: string };

const EVALUATION = `
  id, user_id AS "userId", pack_id AS "packId", pack_version_id AS "packVersionId", source, status,
  redacted_ticket AS "redactedTicket", result, model_id AS "modelId", latency_ms AS "latencyMs",
  input_tokens AS "inputTokens", output_tokens AS "outputTokens", simulation_id AS "simulationId",
  dataset_ticket_id AS "datasetTicketId", inbound_event_id AS "inboundEventId",
  selected_probabilities AS "selectedProbabilities", audit_probability AS "auditProbability",
  audit_selected AS "auditSelected", audit_uncertainty AS "auditUncertainty", cost_usd AS "costUsd", labeled,
  created_at AS "createdAt", created_at::text AS "createdAtText"`;

/** The parameters of the review queue's statements, one per shape of its filters. */
export interface ListParams {
  userId: string;
  limit: number;
  packId?: string;
  /** Any of these sources (the review queue's `source`). */
  sources?: EvaluationSource[];
  questionId?: string;
  labeled?: boolean;
  /** The keyset position: rows strictly older than (afterAt, afterId). */
  afterAt?: string;
  afterId?: string;
}

const AFTER = '(created_at, id) < (:afterAt::timestamptz, :afterId::uuid)';

/** Every subset of `filters`, in their order: one statement per shape a list can take. */
export function shapes<K extends string>(filters: readonly K[]): K[][] {
  return filters.reduce<K[][]>(
    (subsets, filter) => [...subsets, ...subsets.map((s) => [...s, filter])],
    [[]],
  );
}

/** The name of a list's shape: the filters it applies, in their declared order. */
export function listShape(filters: readonly string[]): string {
  return filters.length ? filters.join('+') : 'all';
}

/** The WHERE of one shape: the base, then each filter's condition, one per line. */
export function whereOf<K extends string>(
  base: string,
  shape: readonly K[],
  conditions: Record<K, string>,
): string {
  return [base, ...shape.map((filter) => conditions[filter])].join(`\n${' '.repeat(13)}AND `);
}

/**
 * A keyset-paginated list (newest first) in every shape its optional filters give it: each shape
 * is its own statement, planned and snapshotted on its own, so no filter is a run-time string.
 */
function listStatements<K extends string>(
  name: string,
  base: string,
  conditions: Record<K, string>,
): Record<string, Statement<ListParams, ListedEvaluation>> {
  const filters = Object.keys(conditions) as K[];
  return Object.fromEntries(
    shapes(filters).map((shape) => {
      const where = whereOf(base, shape, conditions);
      const statement = defineStatement<ListParams, ListedEvaluation>({
        name: `${name}[${listShape(shape)}]`,
        sql: `
          SELECT ${aligned(EVALUATION, 17)}
            FROM evaluations
           WHERE ${where}
           ORDER BY created_at DESC, id DESC
           LIMIT :limit`,
      });
      return [listShape(shape), statement];
    }),
  );
}

export type CountParams = Omit<ListParams, 'limit' | 'afterAt' | 'afterId'> & { cap: number };

/**
 * The rows of a list, counted up to `cap` (so the cost is bounded however long the list): one
 * statement per shape of its filters, as the list's. A shape for which `inListOrder` holds counts
 * in the list's order, so the planner walks the list's index and stops at the cap (see
 * REVIEW_COUNT_ORDER).
 */
function countStatements<K extends string>(
  name: string,
  base: string,
  conditions: Record<K, string>,
  inListOrder: (shape: readonly K[]) => boolean = () => false,
): Record<string, Statement<CountParams, { count: number }>> {
  const filters = Object.keys(conditions) as K[];
  return Object.fromEntries(
    shapes(filters).map((shape) => {
      const order = inListOrder(shape) ? `\n                   ORDER BY created_at DESC, id DESC` : '';
      const statement = defineStatement<CountParams, { count: number }>({
        name: `${name}[${listShape(shape)}]`,
        sql: `
          SELECT count(*)::int AS count
            FROM (SELECT 1
                    FROM evaluations
                   WHERE ${whereOf(base, shape, conditions).replaceAll('\n', `\n${' '.repeat(8)}`)}${order}
                   LIMIT :cap) AS capped`,
      });
      return [listShape(shape), statement];
    }),
  );
}

/**
 * The filters of GET /api/evaluations; a filter left out is sent as null. The search (`prefix`,
 * `prefixEnd`, `words`) is evaluation-search.ts's.
 */
export interface EvaluationListFilters {
  userId: string;
  packId?: string;
  packVersionId?: string;
  simulationId?: string;
  status?: EvaluationStatus;
  sources?: EvaluationSource[];
  /** created_at from (inclusive) and to (exclusive): ISO 8601 text, read by Postgres. */
  from?: string;
  to?: string;
  prefix?: string;
  prefixEnd?: string | null;
  words?: string | null;
  wholeWords?: string | null;
}

export type EvaluationListParams = EvaluationListFilters & {
  limit: number;
  afterAt?: string;
  afterId?: string;
};

/**
 * Every filter of the list, each `(:x IS NULL OR ...)`: the statements are planned per call, with
 * the values sent, so a filter left out folds away and the planner picks an index for those given
 * (and knows how common a searched word is). One statement per order, not one per shape of ten
 * filters. The search is an external id prefix on `evaluations_external_id_idx` or subject words on
 * `evaluations_subject_words_idx` (a BitmapOr of the two).
 */
/** The search of the list (`q`), on its own: `estimateSearch` asks the planner about it. */
const SEARCH_FILTER = `(:prefix::text IS NULL
     OR ((redacted_ticket ->> 'externalId') COLLATE "C") >= :prefix AND ((redacted_ticket ->> 'externalId') COLLATE "C") < :prefixEnd::text
     OR to_tsvector('simple', redacted_ticket ->> 'subject') @@ to_tsquery('simple', :words::text))`;

const LIST_FILTERS = `user_id = :userId
  AND (:packId::uuid IS NULL OR pack_id = :packId)
  AND (:packVersionId::uuid IS NULL OR pack_version_id = :packVersionId)
  AND (:simulationId::uuid IS NULL OR simulation_id = :simulationId)
  AND (:status::text IS NULL OR status = :status)
  AND (:sources::text[] IS NULL OR source = ANY(:sources))
  AND (:from::timestamptz IS NULL OR created_at >= :from)
  AND (:to::timestamptz IS NULL OR created_at < :to)
  AND ${SEARCH_FILTER}`;

/**
 * How the list reads its rows. `walk`: the user's rows in the list's order, filtered, stopping at the
 * page (and the count at its cap): right when matches are many, or when no search narrows them.
 * `matchesFirst`: the search indexes' matches first, then sorted (and counted in no order): right
 * when a search matches few rows, wherever they lie in time. The planner cannot choose between these
 * alone, since it assumes matches are spread evenly over the user's history: ids created together
 * (`T-0012…`) lie in one stretch of it, and walking to them read some 120,000 rows at 2,000,000
 * (docs/performance.md, `bench:evaluations`). The repository chooses by the planner's estimate of
 * the search's matches (`estimateSearch`).
 */
export type ListPlan = 'walk' | 'matchesFirst';

function listInOrder(
  order: 'newest' | 'oldest',
  plan: ListPlan,
): Statement<EvaluationListParams, ListedEvaluation> {
  const [direction, after] = order === 'newest' ? ['DESC', '<'] : ['ASC', '>'];
  // `+ interval '0'` orders by the same value through an expression no index holds, so the planner
  // cannot walk an index in order and reads the matches through the search indexes instead.
  const sortKey = plan === 'walk' ? 'created_at' : `(created_at + interval '0')`;
  return defineStatement<EvaluationListParams, ListedEvaluation>({
    name: `evaluations.list[${order}${plan === 'walk' ? '' : `, ${plan}`}]`,
    sql: `
      SELECT ${aligned(EVALUATION, 13)}
        FROM evaluations
       WHERE ${aligned(LIST_FILTERS, 13)}
         AND (:afterAt::timestamptz IS NULL OR (created_at, id) ${after} (:afterAt, :afterId::uuid))
       ORDER BY ${sortKey} ${direction}, id ${direction}
       LIMIT :limit`,
    plannedPerCall: true,
  });
}

/** GET /api/evaluations: a page newest first (the default) or oldest first, by either plan. */
export const listEvaluations = {
  walk: { newest: listInOrder('newest', 'walk'), oldest: listInOrder('oldest', 'walk') },
  matchesFirst: {
    newest: listInOrder('newest', 'matchesFirst'),
    oldest: listInOrder('oldest', 'matchesFirst'),
  },
} satisfies Record<ListPlan, Record<'newest' | 'oldest', Statement<EvaluationListParams, ListedEvaluation>>>;

/**
 * The list's rows for its filters, counted up to `cap` (the `total` of GET /api/evaluations).
 * `walk`: in the list's order, so that for a common searched word the planner walks the user's rows
 * newest first and stops at the cap, rather than building a bitmap of every row holding the word.
 * `matchesFirst`: in no order, so the planner reads the search indexes' few matches and stops at the
 * cap (a word in 1 subject of 997 read some 1,000,000 rows in the list's order at 10,000,000).
 */
export const countEvaluations = {
  walk: countInPlan('walk'),
  matchesFirst: countInPlan('matchesFirst'),
} satisfies Record<ListPlan, Statement<EvaluationListFilters & { cap: number }, { count: number }>>;

function countInPlan(plan: ListPlan): Statement<EvaluationListFilters & { cap: number }, { count: number }> {
  return defineStatement<EvaluationListFilters & { cap: number }, { count: number }>({
    name: `evaluations.count${plan === 'walk' ? '' : `[${plan}]`}`,
    sql: `
      SELECT count(*)::int AS count
        FROM (SELECT 1
                FROM evaluations
               WHERE ${aligned(LIST_FILTERS, 21)}${plan === 'walk' ? '\n               ORDER BY created_at DESC, id DESC' : ''}
               LIMIT :cap) AS capped`,
    plannedPerCall: true,
  });
}

/**
 * The planner's estimate of the rows a search matches in the whole table, every user's (its plan's
 * top row count, nothing executed): a fraction of a millisecond, sent only with a search. From the
 * search indexes' statistics, right within a small factor for a word or an id range. Not the user's
 * matches: the planner would multiply the user's share of the table by the word's, as if a word were
 * as common in every tenant, and a tenant whose every subject holds a word would be estimated low.
 * The table's matches bound the user's, and are what reading the (not user-scoped) word index costs.
 * The search is estimated twice, summed: as searched, and with its last word whole (`wholeWords`,
 * evaluation-search.ts says why); the sum is at least the larger, at most twice it.
 */
export const estimateSearch = defineStatement<
  Pick<EvaluationListFilters, 'prefix' | 'prefixEnd' | 'words' | 'wholeWords'>,
  { 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }
>({
  name: 'evaluations.estimateSearch',
  sql: `
    EXPLAIN (FORMAT JSON)
    SELECT 1
      FROM evaluations
     WHERE ${aligned(SEARCH_FILTER, 11)}
     UNION ALL
    SELECT 1
      FROM evaluations
     WHERE ${aligned(SEARCH_FILTER.replace(':words::text', ':wholeWords::text'), 11)}`,
  plannedPerCall: true,
});

const REVIEWS = `user_id = :userId AND status = 'review'`;

const REVIEW_FILTERS = {
  packId: 'pack_id = :packId',
  questionId: `result -> 'answers' ? :questionId`,
  labeled: 'labeled = :labeled',
  sources: 'source = ANY(:sources::text[])',
};

/**
 * The review queue (GET /api/reviews, measured by `npm run bench:stats`), on the partial review
 * indexes (`sources`: evaluations_reviews_source_idx).
 */
export const listReviews = listStatements('evaluations.listReviews', REVIEWS, {
  ...REVIEW_FILTERS,
  after: AFTER,
});

/** The review queue's total for its filters, counted up to a cap (the `total` of GET /api/reviews). */
/**
 * Which queue counts run in the list's order: those filtered by question (`result -> 'answers' ?`),
 * which no index holds and the planner, without statistics for it, takes for rare. Unordered, a
 * generic plan read every entry of the queue's index into a bitmap before counting the first row
 * (the review queue by pack and question: 301,499 entries, 30 ms at 1,000,000 evaluations in
 * bench:stats, against 3 ms in order). Not with `sources`: no index gives the order of several
 * sources (`source = ANY(…)`), so an ordered count walks the whole queue dropping other sources'
 * rows, where the source index's bitmap reads only theirs (216 ms against 104 for a source of 1
 * review in 15 and a rare question, measured in a review of this change).
 */
const REVIEW_COUNT_ORDER = (shape: readonly string[]) =>
  shape.includes('questionId') && !shape.includes('sources');

export const countReviews = countStatements(
  'evaluations.countReviews',
  REVIEWS,
  REVIEW_FILTERS,
  REVIEW_COUNT_ORDER,
);

/**
 * The audit queue (GET /api/reviews?queue=audit): automatic decisions the audit draw selected, on
 * the partial `evaluations_audit_idx`. The same filters and shapes as the review queue.
 */
const AUDITS = `user_id = :userId AND audit_selected AND status IN ('accept', 'reject')`;

export const listAudits = listStatements('evaluations.listAudits', AUDITS, {
  ...REVIEW_FILTERS,
  after: AFTER,
});

/** The audit queue's total for its filters, counted up to a cap. */
export const countAudits = countStatements(
  'evaluations.countAudits',
  AUDITS,
  REVIEW_FILTERS,
  REVIEW_COUNT_ORDER,
);

/** A queue's parameters in the value order: its filters, and a position (value, created_at, id). */
export interface ValueListParams {
  userId: string;
  limit: number;
  packId?: string;
  sources?: EvaluationSource[];
  questionId?: string;
  labeled?: boolean;
  afterValue?: number;
  afterAt?: string;
  afterId?: string;
}

/** An evaluation as the value order lists it: with its value, for the cursor. */
export type ValuedEvaluation = ListedEvaluation & { labelValue: number };

/**
 * A queue ordered by the expected value of a label (GET /api/reviews?order=value, docs/reviews.md):
 * v = (1 − p_min) / (1 + n), where p_min is the lowest selected probability of the evaluation's
 * answers and n the labels its question (of the questions at p_min, the one with the fewest labels,
 * then the first id) already has on evaluations of the same pack version; 0 without answers.
 * Highest value first, then newest, keyset on (value, created_at, id). The value depends on labels,
 * so it is computed for the whole queue on each page, read from the queue's partial index; the
 * label counts are the user's labels grouped once (labels are written by people: few).
 */
function valueOrdered(name: string, base: string): Statement<ValueListParams, ValuedEvaluation> {
  return defineStatement<ValueListParams, ValuedEvaluation>({
    name,
    sql: `
      WITH label_counts AS (
        SELECT e.pack_version_id, l.question_id, count(*)::int AS labels
          FROM labels l JOIN evaluations e ON e.id = l.evaluation_id
         WHERE l.user_id = :userId
         GROUP BY e.pack_version_id, l.question_id
      ), valued AS (
        SELECT ${aligned(EVALUATION, 15)},
               COALESCE(v.value, 0)::float8 AS "labelValue"
          FROM evaluations
          LEFT JOIN LATERAL (
            SELECT (1 - p.value::float8) / (1 + COALESCE(c.labels, 0)) AS value
              FROM jsonb_each_text(evaluations.selected_probabilities) AS p
              LEFT JOIN label_counts c
                ON c.pack_version_id = evaluations.pack_version_id AND c.question_id = p.key
             ORDER BY p.value::float8, COALESCE(c.labels, 0), p.key
             LIMIT 1
          ) AS v ON true
         WHERE ${base}
           AND (:packId::uuid IS NULL OR pack_id = :packId)
           AND (:questionId::text IS NULL OR result -> 'answers' ? :questionId)
           AND (:labeled::boolean IS NULL OR labeled = :labeled)
           AND (:sources::text[] IS NULL OR source = ANY(:sources))
      )
      SELECT *
        FROM valued
       WHERE :afterValue::float8 IS NULL
          OR ("labelValue", "createdAt", id) < (:afterValue, :afterAt::timestamptz, :afterId::uuid)
       ORDER BY "labelValue" DESC, "createdAt" DESC, id DESC
       LIMIT :limit`,
    plannedPerCall: true,
  });
}

/** The review and audit queues in the value order. */
export const listByValue = {
  review: valueOrdered('evaluations.listReviews[value]', REVIEWS),
  audit: valueOrdered('evaluations.listAudits[value]', AUDITS),
};

/**
 * The uncertainty strategy's ū: the mean of the u each draw used (`audit_uncertainty`) over the
 * pack's latest `limit` drawn automatic decisions (live, accept or reject, drawn while the audit was
 * on), on the partial `evaluations_audit_baseline_idx`: at most `limit` rows. Rows drawn before u
 * was stored count with u from their selected probabilities, √(mean of 1 − p), as a draw without a
 * calibration map computes it (0 without answers).
 */
export const meanAuditUncertainty = defineStatement<
  { userId: string; packId: string; limit: number },
  { meanUncertainty: number | null; decisions: number }
>({
  name: 'evaluations.meanAuditUncertainty',
  sql: `
    SELECT avg(uncertainty)::float8 AS "meanUncertainty", count(*)::int AS decisions
      FROM (SELECT COALESCE(audit_uncertainty,
                            sqrt((SELECT avg(1 - least(1, greatest(0, value::float8))) FROM jsonb_each_text(selected_probabilities))),
                            0) AS uncertainty
              FROM evaluations
             WHERE pack_id = :packId AND user_id = :userId
               AND audit_probability IS NOT NULL AND status IN ('accept', 'reject')
             ORDER BY created_at DESC
             LIMIT :limit) AS recent`,
});
