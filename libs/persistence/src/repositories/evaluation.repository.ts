import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import {
  isUuid,
  probabilityBin,
  selectedProbabilities,
  shareBelowThreshold,
  type EvaluationSource,
  type EvaluationStatus,
} from '@app/domain';
import type { KeysetPosition, ValuedPosition } from '../cursor.js';
import { EvaluationEntity } from '../entities/evaluation.entity.js';
import {
  countAudits,
  countBelowBin,
  countLiveBelowThresholdSince,
  countEvaluations,
  countReviews,
  estimateSearch,
  listAudits,
  listByValue,
  listEvaluations,
  listReviews,
  listShape,
  type EvaluationListFilters,
  type ListedEvaluation,
  type ListPlan,
  type ListParams,
  type ValuedEvaluation,
} from '../statements/evaluations.statements.js';
import { evaluationSearchTerms } from '../statements/evaluation-search.js';
import type { Statement } from '../statements/statement.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { EvaluationInserts } from './evaluation-inserts.js';
import type { NewEvaluation } from './evaluation-rows.js';

/**
 * The most matches a search reads through the search indexes and sorts (`matchesFirst`), by the
 * planner's estimate: sorting 20,000 rows' keys takes a few milliseconds, while walking the user's
 * history to matches that lie together in time can read hundreds of thousands of rows. Above it,
 * matches are dense enough that walking in order finds a page soon.
 */
export const FEW_MATCHES = 20_000;

/** The filters of GET /api/evaluations; each left out is no filter. */
export interface EvaluationFilter {
  packId?: string;
  packVersionId?: string;
  simulationId?: string;
  status?: EvaluationStatus;
  /** Any of these sources. */
  sources?: EvaluationSource[];
  /** created_at from (inclusive) and to (exclusive), ISO 8601 date-times. */
  from?: string;
  to?: string;
  /** External id prefix or subject words (evaluation-search.ts); blank: no search. */
  q?: string;
}

export type EvaluationOrder = 'newest' | 'oldest';

/**
 * `review`: evaluations in `review`. `audit`: automatic decisions (`accept`, `reject`) the audit
 * draw selected.
 */
export type ReviewQueue = 'review' | 'audit';

export interface ReviewFilter {
  packId?: string;
  questionId?: string;
  labeled?: boolean;
  /** Any of these sources; left out: every source. */
  sources?: EvaluationSource[];
}

/** A count that stops at a cap: `count` is exact when `capped` is false, else a lower bound. */
export interface CappedCount {
  count: number;
  capped: boolean;
}

export interface EvaluationPage {
  items: EvaluationEntity[];
  /** Position of the last item when more rows follow, else null. */
  next: KeysetPosition | null;
}

/** A page in the value order: the position holds the last item's value too. */
export interface ValuedPage {
  items: EvaluationEntity[];
  next: ValuedPosition | null;
}

@Injectable()
export class EvaluationRepository {
  private readonly evaluations: Repository<EvaluationEntity>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly inserts: EvaluationInserts,
    private readonly sql: PreparedSql,
  ) {
    this.evaluations = dataSource.getRepository(EvaluationEntity);
  }

  async insert(evaluation: NewEvaluation): Promise<EvaluationEntity> {
    const createdAt = await this.inserts.insert(evaluation);
    if (!createdAt) throw new Error(`evaluation ${evaluation.id} exists already`);
    return {
      ...evaluation,
      simulationId: evaluation.simulationId ?? null,
      datasetTicketId: evaluation.datasetTicketId ?? null,
      inboundEventId: null,
      selectedProbabilities: selectedProbabilities(evaluation.result.answers),
      auditProbability: evaluation.auditProbability ?? null,
      auditSelected: evaluation.auditSelected ?? null,
      auditUncertainty: evaluation.auditUncertainty ?? null,
      costUsd: evaluation.costUsd ?? null,
      labeled: false,
      createdAt,
    };
  }

  findById(userId: string, id: string): Promise<EvaluationEntity | null> {
    return isUuid(id) ? this.evaluations.findOneBy({ id, userId }) : Promise.resolve(null);
  }

  /**
   * Newest (or oldest) first, keyset-paginated on (created_at, id) so pages never skip or repeat
   * rows. An id filter that is not a uuid matches nothing.
   */
  async list(
    userId: string,
    filter: EvaluationFilter,
    order: EvaluationOrder,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<EvaluationPage> {
    const filters = listFilters(userId, filter);
    if (!filters) return { items: [], next: null };
    const params = { ...filters, limit: limit + 1, afterAt: after?.createdAt, afterId: after?.id };
    const plan = await this.planFor(filters);
    return pageOf(await this.sql.rows(listEvaluations[plan][order], params), limit);
  }

  /** How many evaluations the list holds for these filters, counted up to `cap` (exact below it). */
  async count(userId: string, filter: EvaluationFilter, cap: number): Promise<CappedCount> {
    const filters = listFilters(userId, filter);
    if (!filters) return { count: 0, capped: false };
    const plan = await this.planFor(filters);
    return cappedCount(await this.sql.first(countEvaluations[plan], { ...filters, cap: cap + 1 }), cap);
  }

  /**
   * `matchesFirst` for a search the planner expects to match at most `FEW_MATCHES` rows in the whole
   * table, else `walk` (evaluations.statements.ts says why the planner cannot make this choice itself).
   */
  private async planFor(filters: EvaluationListFilters): Promise<ListPlan> {
    if (filters.prefix == null) return 'walk';
    const explained = await this.sql.first(estimateSearch, filters);
    const estimate = explained?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? Infinity;
    return estimate <= FEW_MATCHES ? 'matchesFirst' : 'walk';
  }

  /**
   * A queue, newest first, on its partial indexes: the review queue (evaluations in `review`) or the
   * audit queue (selected automatic decisions).
   */
  async listReviews(
    userId: string,
    filter: ReviewFilter,
    after: KeysetPosition | null,
    limit: number,
    queue: ReviewQueue = 'review',
  ): Promise<EvaluationPage> {
    if (filter.packId !== undefined && !isUuid(filter.packId)) return { items: [], next: null };
    const { packId, questionId, labeled, sources } = filter;
    const shapes = queue === 'audit' ? listAudits : listReviews;
    return this.page(shapes, { userId, packId, questionId, labeled, sources }, after, limit);
  }

  /**
   * A queue ordered by the expected value of a label, highest first (docs/reviews.md): keyset on
   * (value, created_at, id).
   */
  async listReviewsByValue(
    userId: string,
    filter: ReviewFilter,
    after: ValuedPosition | null,
    limit: number,
    queue: ReviewQueue = 'review',
  ): Promise<ValuedPage> {
    if (filter.packId !== undefined && !isUuid(filter.packId)) return { items: [], next: null };
    const params = {
      userId,
      ...filter,
      limit: limit + 1,
      afterValue: after?.value,
      afterAt: after?.createdAt,
      afterId: after?.id,
    };
    const rows = await this.sql.rows(listByValue[queue], params);
    return valuedPageOf(rows, limit);
  }

  /**
   * How many evaluations a queue holds for these filters, counted up to `cap` (a bounded cost,
   * whatever the queue's length): exact below the cap.
   */
  async countReviews(
    userId: string,
    filter: ReviewFilter,
    cap: number,
    queue: ReviewQueue = 'review',
  ): Promise<CappedCount> {
    if (filter.packId !== undefined && !isUuid(filter.packId)) return { count: 0, capped: false };
    const { packId, questionId, labeled, sources } = filter;
    const filters = { packId, questionId, labeled, sources };
    const given = Object.keys(filters).filter((key) => filters[key as keyof typeof filters] !== undefined);
    const statements = queue === 'audit' ? countAudits : countReviews;
    const row = await this.sql.first(statements[listShape(given)], { userId, ...filters, cap: cap + 1 });
    return cappedCount(row, cap);
  }

  /**
   * Of this version's evaluations that answered the question, the share whose selected probability
   * is below `threshold`; null without such evaluations. Counted on the version's histogram of
   * selected probabilities at 0.0001 resolution (`probabilityBin`), kept by the database as rows are
   * inserted; answers in the threshold's own bin count as not below (`probabilityBin` says when that
   * differs from the decision rule).
   */
  async shareBelowThreshold(
    userId: string,
    packVersionId: string,
    questionId: string,
    threshold: number,
  ): Promise<number | null> {
    if (!isUuid(packVersionId)) return null;
    const params = { userId, packVersionId, questionId, bin: probabilityBin(threshold) };
    return shareBelowThreshold((await this.sql.first(countBelowBin, params)) ?? { answered: 0, below: 0 });
  }

  /**
   * Of the pack's live evaluations (api, webhook, mcp) since `since` that stored a selected probability
   * for the question: how many, and how many are below `threshold`. Rows written before selected
   * probabilities were stored are not counted.
   */
  async countLiveBelowThresholdSince(
    userId: string,
    packId: string,
    questionId: string,
    threshold: number,
    since: Date,
  ): Promise<{ evaluated: number; below: number }> {
    if (!isUuid(packId)) return { evaluated: 0, below: 0 };
    const params = { userId, packId, questionId, threshold, since };
    return (await this.sql.first(countLiveBelowThresholdSince, params)) ?? { evaluated: 0, below: 0 };
  }

  /**
   * One page of a list: the statement of the shape its filters take (those given, in declared
   * order, then the position), `limit + 1` rows to learn whether more follow.
   */
  private async page(
    shapes: Record<string, Statement<ListParams, ListedEvaluation>>,
    filters: Omit<ListParams, 'limit' | 'afterAt' | 'afterId'>,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<EvaluationPage> {
    const given = Object.keys(filters).filter(
      (key) => key !== 'userId' && filters[key as keyof typeof filters] !== undefined,
    );
    const shape = listShape(after ? [...given, 'after'] : given);
    const params = { ...filters, limit: limit + 1, afterAt: after?.createdAt, afterId: after?.id };
    return pageOf(await this.sql.rows(shapes[shape], params), limit);
  }
}

/** A page from `limit + 1` rows: the first `limit`, and the last one's position when more follow. */
function pageOf(rows: ListedEvaluation[], limit: number): EvaluationPage {
  const items = rows.slice(0, limit).map(({ createdAtText: _, ...evaluation }) => evaluation);
  const last = rows[limit - 1];
  const next = rows.length > limit && last ? { createdAt: last.createdAtText, id: last.id } : null;
  return { items, next };
}

/** A value-ordered page from `limit + 1` rows, as `pageOf`. */
function valuedPageOf(rows: ValuedEvaluation[], limit: number): ValuedPage {
  const items = rows.slice(0, limit).map(({ createdAtText: _, labelValue: __, ...evaluation }) => evaluation);
  const last = rows[limit - 1];
  const next =
    rows.length > limit && last
      ? { value: last.labelValue, createdAt: last.createdAtText, id: last.id }
      : null;
  return { items, next };
}

/** A count of at most `cap + 1` rows as the API reports it: `cap` and capped when it went past. */
function cappedCount(row: { count: number } | null, cap: number): CappedCount {
  const count = row?.count ?? 0;
  return count > cap ? { count: cap, capped: true } : { count, capped: false };
}

/** The list's statement parameters; null when an id filter is not a uuid (nothing matches). */
function listFilters(userId: string, filter: EvaluationFilter): EvaluationListFilters | null {
  const { packId, packVersionId, simulationId, q, ...rest } = filter;
  if ([packId, packVersionId, simulationId].some((id) => id !== undefined && !isUuid(id))) return null;
  const search = q === undefined ? null : evaluationSearchTerms(q);
  return { userId, packId, packVersionId, simulationId, ...rest, ...search };
}
