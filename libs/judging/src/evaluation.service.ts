import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { NotFoundError, type ExportCell, type ExportTable } from '@app/domain';
import {
  CursorCodec,
  EvaluationRepository,
  LabelRepository,
  type EvaluationFilter,
  type KeysetPosition,
} from '@app/persistence';
import {
  EVALUATION_EXPORT_BATCH,
  EVALUATION_EXPORT_COLUMNS,
  toEvaluationExportRow,
} from './evaluation.export.js';
import {
  toEvaluationView,
  toListItemView,
  type EvaluationListItemView,
  type EvaluationView,
} from './evaluation.views.js';
import { toLabelView } from './label.views.js';

export const EVALUATIONS_PAGE_SIZE = 50;

export interface EvaluationListPage {
  items: EvaluationListItemView[];
  nextCursor: string | null;
}

@Injectable()
export class EvaluationService {
  private readonly cursors: CursorCodec;

  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly labels: LabelRepository,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cursors = new CursorCodec(config.sessionSecret);
  }

  async get(userId: string, id: string): Promise<EvaluationView> {
    const evaluation = await this.evaluations.findById(userId, id);
    if (!evaluation) throw new NotFoundError('evaluation not found');
    const labels = await this.labels.listForEvaluation(userId, id);
    return toEvaluationView(evaluation, labels.map(toLabelView));
  }

  async list(userId: string, filter: EvaluationFilter, cursor?: string): Promise<EvaluationListPage> {
    const scope = `${userId}:evaluations`;
    const after = cursor ? this.cursors.decode(cursor, scope) : null;
    const page = await this.evaluations.list(userId, filter, after, EVALUATIONS_PAGE_SIZE);
    return {
      items: page.items.map(toListItemView),
      nextCursor: page.next ? this.cursors.encode(page.next, scope) : null,
    };
  }

  /**
   * Every evaluation the list would give for these filters, in the list's order, as export rows:
   * read in keyset batches with the list's own query (so its filters are the list's), one batch
   * at a time as the reader asks for rows. A reader that stops early ends the reads.
   */
  export(userId: string, filter: EvaluationFilter): ExportTable {
    return { columns: EVALUATION_EXPORT_COLUMNS, rows: this.exportRows(userId, filter) };
  }

  private async *exportRows(userId: string, filter: EvaluationFilter): AsyncGenerator<ExportCell[]> {
    let after: KeysetPosition | null = null;
    do {
      const page = await this.evaluations.list(userId, filter, after, EVALUATION_EXPORT_BATCH);
      for (const evaluation of page.items) yield toEvaluationExportRow(evaluation);
      after = page.next;
    } while (after);
  }
}
