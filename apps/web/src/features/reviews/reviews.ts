import type { Schemas } from '../../api/client';
import { formatCount, totalText } from '../../lib/format';
import {
  EXPERIMENTS_PARAM,
  includesExperiments,
  sourceFilter,
  type EvaluationSource,
} from '../../lib/sources';

type Answer = Schemas['AnswerDto'];
type QuestionType = Schemas['PackDocumentDto']['questions'][number]['type'];

// ---------------------------------------------------------------------------------------------
// Review queue filters, kept in the URL query string.

export type LabeledFilter = 'all' | 'true' | 'false';

/** `review`: what the decision rule sent to review. `audit`: automatic decisions drawn for audit. */
export type ReviewQueueName = 'review' | 'audit';

export interface ReviewFilters {
  packId?: string;
  questionId?: string;
  labeled: LabeledFilter;
  /** Include the playground and simulations; off, the queue holds live traffic only. */
  experiments: boolean;
  /** The queue; left out: the review queue. */
  queue?: ReviewQueueName;
  /** "Most valuable first" (the API's `order=value`); off: newest first. */
  byValue?: boolean;
}

export interface ReviewQuery {
  packId?: string;
  questionId?: string;
  labeled?: 'true' | 'false';
  source?: EvaluationSource[];
  queue?: 'audit';
  order?: 'value';
  cursor?: string;
}

/** The filters a query string holds; anything unknown or empty is no filter. */
export function readFilters(params: URLSearchParams): ReviewFilters {
  const labeled = params.get('labeled');
  return {
    packId: params.get('packId') || undefined,
    questionId: params.get('questionId') || undefined,
    labeled: labeled === 'true' || labeled === 'false' ? labeled : 'all',
    experiments: includesExperiments(params),
    queue: params.get('queue') === 'audit' ? 'audit' : 'review',
    byValue: params.get('order') === 'value',
  };
}

/** The query string for some filters (no empty keys; `all`, the review queue and newest first left out). */
export function filtersToParams(filters: ReviewFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.queue === 'audit') params.set('queue', 'audit');
  if (filters.packId) params.set('packId', filters.packId);
  if (filters.questionId) params.set('questionId', filters.questionId);
  if (filters.labeled !== 'all') params.set('labeled', filters.labeled);
  if (filters.byValue) params.set('order', 'value');
  if (filters.experiments) params.set(EXPERIMENTS_PARAM, 'true');
  return params;
}

/** "Review queue" or "Audit queue". */
export function queueName(filters: ReviewFilters): string {
  return filters.queue === 'audit' ? 'Audit queue' : 'Review queue';
}

/** `?a=b` for non-empty filters, `''` otherwise. */
export function filtersSearch(filters: ReviewFilters): string {
  const text = filtersToParams(filters).toString();
  return text ? `?${text}` : '';
}

/** The query of `GET /api/reviews` for these filters and page. */
export function reviewQuery(filters: ReviewFilters, cursor?: string): ReviewQuery {
  const query: ReviewQuery = {};
  if (filters.packId) query.packId = filters.packId;
  if (filters.questionId) query.questionId = filters.questionId;
  if (filters.labeled !== 'all') query.labeled = filters.labeled;
  const source = sourceFilter(filters.experiments);
  if (source) query.source = source;
  if (filters.queue === 'audit') query.queue = 'audit';
  if (filters.byValue) query.order = 'value';
  if (cursor) query.cursor = cursor;
  return query;
}

// ---------------------------------------------------------------------------------------------
// The queue's size and a place in it.

/** Under the queue's table: `50 of 247 shown`. */
export function queueCount(shown: number, total: number, capped: boolean): string {
  return `${formatCount(shown)} of ${totalText(total, capped)} shown`;
}

/**
 * Where an evaluation stands in the queue: `3 of 247` when it is among the items loaded so far
 * (1-based), else `247 in the queue` (it has left the queue, or sits further than what is loaded);
 * null while the queue is not known.
 */
export function queuePositionText(
  id: string,
  loaded: ReadonlyArray<{ id: string }> | undefined,
  total: { total: number; totalCapped: boolean } | undefined,
): string | null {
  if (!loaded || !total) return null;
  const index = loaded.findIndex((item) => item.id === id);
  const of = totalText(total.total, total.totalCapped);
  if (index >= 0) return `${formatCount(index + 1)} of ${of}`;
  return `${of} in the queue`;
}

// ---------------------------------------------------------------------------------------------
// The next item of the queue (newest first, by createdAt then id).

export interface QueuePosition {
  id: string;
  createdAt: string;
}

/** True when `item` comes after `current` in the queue's order (older, or as old with a smaller id). */
export function comesAfter(item: QueuePosition, current: QueuePosition): boolean {
  const a = Date.parse(item.createdAt);
  const b = Date.parse(current.createdAt);
  return a < b || (a === b && item.id < current.id);
}

export interface QueuePage {
  items: QueuePosition[];
  nextCursor: string | null;
}

/**
 * The id of the item that follows `current` in the queue, paging on as needed; when nothing
 * follows, the first other item (the queue starts over); null when the queue holds nothing else.
 * While `current` is in the queue its neighbour is taken as listed (the API orders by microseconds,
 * finer than the milliseconds it shows); once it has left (labeled), by creation time. In the value
 * order (`byValue`) the next item is the most valuable one other than `current`: the queue's head,
 * since labeling moves the values.
 */
export async function findNextReview(
  fetchPage: (cursor?: string) => Promise<QueuePage>,
  current: QueuePosition,
  maxPages = 20,
  byValue = false,
): Promise<string | null> {
  if (byValue) {
    const { items } = await fetchPage();
    return items.find((item) => item.id !== current.id)?.id ?? null;
  }
  let cursor: string | undefined;
  let first: string | undefined;
  let passed = false;
  for (let page = 0; page < maxPages; page++) {
    const { items, nextCursor } = await fetchPage(cursor);
    const index = items.findIndex((item) => item.id === current.id);
    const next = passed
      ? items[0]
      : index >= 0
        ? items[index + 1]
        : items.find((item) => comesAfter(item, current));
    if (next) return next.id;
    passed ||= index >= 0;
    first ??= items.find((item) => item.id !== current.id)?.id;
    if (!nextCursor) break;
    cursor = nextCursor;
  }
  return first ?? null;
}

// ---------------------------------------------------------------------------------------------
// Text.

/** One line of at most `max` characters: whitespace collapsed, an ellipsis when cut. */
export function excerpt(text: string | undefined, max = 90): string {
  const line = (text ?? '').replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

// ---------------------------------------------------------------------------------------------
// Answers and labels.

/** The label that agrees with the model's answer (a boolean label is 0 or 1). */
export function agreeingLabel(answer: Answer): Answer {
  switch (answer.type) {
    case 'choice':
      return { type: 'choice', choice: answer.choice };
    case 'boolean':
      return { type: 'boolean', probability: (answer.probability ?? 0) >= 0.5 ? 1 : 0 };
    case 'score':
      return { type: 'score', score: answer.score };
  }
}

/** The label's answer from a form value; null when the value is missing or not a number for a score. */
export function labelFromValue(type: QuestionType, value: string | number | null | undefined): Answer | null {
  if (value === null || value === undefined || value === '') return null;
  switch (type) {
    case 'choice':
      return { type: 'choice', choice: String(value) };
    case 'boolean':
      return value === 'true' || value === 'false'
        ? { type: 'boolean', probability: value === 'true' ? 1 : 0 }
        : null;
    case 'score': {
      const score = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(score) ? { type: 'score', score } : null;
    }
  }
}

/** The form value that shows an answer (the inverse of labelFromValue). */
export function valueFromLabel(answer: Answer | undefined): string | number | null {
  if (!answer) return null;
  if (answer.type === 'boolean') return (answer.probability ?? 0) >= 0.5 ? 'true' : 'false';
  if (answer.type === 'score') return answer.score ?? null;
  return answer.choice ?? null;
}

// ---------------------------------------------------------------------------------------------
// Audit sampling.

/** π as read: two decimals (`0.12`, `1`), or two significant digits below 0.01 (`0.004`). */
export function formatAuditProbability(probability: number): string {
  if (probability > 0 && probability < 0.01) return String(Number(probability.toPrecision(2)));
  return String(Number(probability.toFixed(2)));
}

/** `Selected for audit (p = 0.12)` for an evaluation the audit draw selected; null otherwise. */
export function auditText(evaluation: {
  auditProbability?: number | null;
  auditSelected?: boolean | null;
}): string | null {
  if (!evaluation.auditSelected || typeof evaluation.auditProbability !== 'number') return null;
  return `Selected for audit (p = ${formatAuditProbability(evaluation.auditProbability)})`;
}
