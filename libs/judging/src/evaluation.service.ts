import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { BadRequestError, NotFoundError, type ExportCell, type ExportTable } from '@app/domain';
import {
  CursorCodec,
  EvaluationRepository,
  LabelRepository,
  type EvaluationFilter,
  type EvaluationOrder,
  type KeysetPosition,
} from '@app/persistence';
import {
  EVALUATION_EXPORT_BATCH,
  EVALUATION_EXPORT_COLUMNS,
  toEvaluationExportRow,
} from './evaluation.export.js';
import { CalibrationReader } from './calibrated-fields.js';
import {
  toEvaluationView,
  toListItemView,
  type EvaluationListItemView,
  type EvaluationView,
} from './evaluation.views.js';
import { toLabelView } from './label.views.js';

export const EVALUATIONS_PAGE_SIZE = 50;

/** The list's total is counted up to this many evaluations; beyond, `totalCapped` is true. */
export const EVALUATIONS_TOTAL_CAP = 10_000;

/**
 * With a search (`q`), up to this many: a common word's 10,001 matches meant reading some 50,000
 * rows or a GIN bitmap of every row holding the word, 0.6 to 1.7 s at 2,000,000 rows
 * (docs/performance.md); 1,001 stays within the list's budget, as the review queue's cap does.
 */
export const EVALUATIONS_SEARCH_TOTAL_CAP = 1_000;

export interface EvaluationListPage {
  items: EvaluationListItemView[];
  nextCursor: string | null;
  /** Evaluations for these filters (all pages), up to EVALUATIONS_TOTAL_CAP (EVALUATIONS_SEARCH_TOTAL_CAP with `q`). */
  total: number;
  /** True when there are more than `total` (the count stopped at the cap). */
  totalCapped: boolean;
}

@Injectable()
export class EvaluationService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly labels: LabelRepository,
    private readonly calibration: CalibrationReader,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new CursorCodec(config.sessionSecret);
  }

  async get(userId: string, id: string): Promise<EvaluationView> {
    const evaluation = await this.evaluations.findById(userId, id);
    if (!evaluation) throw new NotFoundError('evaluation not found');
    const [labels, calibration] = await Promise.all([
      this.labels.listForEvaluation(userId, id),
      this.calibration.fieldsFor(userId, [evaluation]),
    ]);
    return toEvaluationView(evaluation, labels.map(toLabelView), calibration.get(evaluation.id));
  }

  /**
   * A page of the user's evaluations in `order`. A cursor is signed for its user and order (one of
   * the other order is `invalid cursor`); it holds only a position, so the same filters go with it.
   */
  async list(
    userId: string,
    filter: EvaluationFilter,
    order: EvaluationOrder = 'newest',
    cursor?: string,
  ): Promise<EvaluationListPage> {
    checkWindow(filter);
    // The newest-first scope is the one cursors had before `order` existed, so theirs stay valid.
    const scope = order === 'newest' ? `${userId}:evaluations` : `${userId}:evaluations:oldest`;
    const after = cursor ? this.cursors.decode(cursor, scope) : null;
    const cap = filter.q?.trim() ? EVALUATIONS_SEARCH_TOTAL_CAP : EVALUATIONS_TOTAL_CAP;
    const [page, total] = await Promise.all([
      this.evaluations.list(userId, filter, order, after, EVALUATIONS_PAGE_SIZE),
      this.evaluations.count(userId, filter, cap),
    ]);
    return {
      items: page.items.map(toListItemView),
      nextCursor: page.next ? this.cursors.encode(page.next, scope) : null,
      total: total.count,
      totalCapped: total.capped,
    };
  }

  /**
   * Every evaluation the list would give for these filters, in the list's order, as export rows:
   * read in keyset batches with the list's own query (so its filters are the list's), one batch
   * at a time as the reader asks for rows. A reader that stops early ends the reads.
   */
  export(userId: string, filter: EvaluationFilter, order: EvaluationOrder = 'newest'): ExportTable {
    checkWindow(filter);
    return { columns: EVALUATION_EXPORT_COLUMNS, rows: this.exportRows(userId, filter, order) };
  }

  private async *exportRows(
    userId: string,
    filter: EvaluationFilter,
    order: EvaluationOrder,
  ): AsyncGenerator<ExportCell[]> {
    let after: KeysetPosition | null = null;
    do {
      const page = await this.evaluations.list(userId, filter, order, after, EVALUATION_EXPORT_BATCH);
      for (const evaluation of page.items) yield toEvaluationExportRow(evaluation);
      after = page.next;
    } while (after);
  }
}

/** A `from` later than `to` is refused rather than answered with nothing. */
function checkWindow(filter: EvaluationFilter): void {
  if (filter.from !== undefined && filter.to !== undefined && Date.parse(filter.from) > Date.parse(filter.to))
    throw new BadRequestError('from must not be later than to');
}
