import type { EvaluationListQuery } from '../../api/queries/evaluations';
import { totalText } from '../../lib/format';
import { EXPERIMENTS_PARAM, includesExperiments, sourceFilter } from '../../lib/sources';

type Status = NonNullable<EvaluationListQuery['status']>;

const STATUSES: readonly Status[] = ['accept', 'review', 'reject'];

/** The Evaluations page's filters, kept in the URL query string. */
export interface EvaluationFilters {
  packId?: string;
  /** A version of `packId`; ignored without it. */
  packVersionId?: string;
  status?: Status;
  /** Include the playground and simulations; off, live traffic only. */
  experiments: boolean;
  /** Calendar days in the browser's time zone (`YYYY-MM-DD`), both included. */
  fromDay?: string;
  toDay?: string;
  q?: string;
  order: 'newest' | 'oldest';
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` day that exists; anything else is no filter. */
function day(value: string | null): string | undefined {
  if (!value || !DAY.test(value)) return undefined;
  return Number.isNaN(new Date(`${value}T00:00:00`).getTime()) ? undefined : value;
}

/** The filters a query string holds; anything unknown or empty is no filter. */
export function readFilters(params: URLSearchParams): EvaluationFilters {
  const status = params.get('status');
  const packId = params.get('packId') || undefined;
  return {
    packId,
    packVersionId: (packId && params.get('packVersionId')) || undefined,
    status: STATUSES.includes(status as Status) ? (status as Status) : undefined,
    experiments: includesExperiments(params),
    fromDay: day(params.get('from')),
    toDay: day(params.get('to')),
    q: params.get('q')?.trim() || undefined,
    order: params.get('order') === 'oldest' ? 'oldest' : 'newest',
  };
}

/** The query string for some filters (no empty keys, defaults left out). */
export function filtersToParams(filters: EvaluationFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.packId) params.set('packId', filters.packId);
  if (filters.packId && filters.packVersionId) params.set('packVersionId', filters.packVersionId);
  if (filters.status) params.set('status', filters.status);
  if (filters.experiments) params.set(EXPERIMENTS_PARAM, 'true');
  if (filters.fromDay) params.set('from', filters.fromDay);
  if (filters.toDay) params.set('to', filters.toDay);
  if (filters.q) params.set('q', filters.q);
  if (filters.order === 'oldest') params.set('order', 'oldest');
  return params;
}

/** The start of a local day as an ISO instant (`days` later when asked). */
function startOfDay(value: string, days = 0): string {
  const date = new Date(`${value}T00:00:00`);
  date.setDate(date.getDate() + days);
  return date.toISOString();
}

/**
 * The query of `GET /api/evaluations` for these filters: the days become instants of the browser's
 * zone, `to` the start of the day after (the API's `to` is exclusive); the order only when oldest.
 */
export function listQuery(filters: EvaluationFilters): EvaluationListQuery {
  const query: EvaluationListQuery = {};
  if (filters.packId) query.packId = filters.packId;
  if (filters.packId && filters.packVersionId) query.packVersionId = filters.packVersionId;
  if (filters.status) query.status = filters.status;
  const source = sourceFilter(filters.experiments);
  if (source) query.source = source;
  if (filters.fromDay) query.from = startOfDay(filters.fromDay);
  if (filters.toDay) query.to = startOfDay(filters.toDay, 1);
  if (filters.q) query.q = filters.q;
  if (filters.order === 'oldest') query.order = 'oldest';
  return query;
}

/** True when the days run backwards (the API would refuse them). */
export function daysReversed(filters: EvaluationFilters): boolean {
  return Boolean(filters.fromDay && filters.toDay && filters.fromDay > filters.toDay);
}

/** The CSV export of the same filters: `/api/evaluations/export?…` (a cursor never goes with it). */
export function exportHref(query: EvaluationListQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (key === 'cursor' || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return `/api/evaluations/export${text ? `?${text}` : ''}`;
}

/** "1 evaluation", "1,234 evaluations", "10,000+ evaluations" (the count stopped at its cap). */
export function evaluationCount(total: number, capped: boolean): string {
  return `${totalText(total, capped)} ${total === 1 && !capped ? 'evaluation' : 'evaluations'}`;
}
