import { Injectable } from '@nestjs/common';
import { answerCell, type ExportCell, type ExportTable } from '@app/domain';
import {
  LabelRepository,
  type ExportedLabel,
  type KeysetPosition,
  type LabelExportFilter,
} from '@app/persistence';

/** Labels read per query of an export. */
export const LABEL_EXPORT_BATCH = 500;

export const LABEL_EXPORT_COLUMNS = [
  'evaluationId',
  'questionId',
  'label',
  'judgeAnswer',
  'agreement',
  'note',
  'createdAt',
  'packId',
  'packVersionId',
] as const;

/** Every label of a user (GET /api/labels/export), newest first, read in keyset batches as the reader asks. */
@Injectable()
export class LabelExports {
  constructor(private readonly labels: LabelRepository) {}

  export(userId: string, filter: LabelExportFilter): ExportTable {
    return { columns: LABEL_EXPORT_COLUMNS, rows: this.rows(userId, filter) };
  }

  private async *rows(userId: string, filter: LabelExportFilter): AsyncGenerator<ExportCell[]> {
    let after: KeysetPosition | null = null;
    do {
      const batch = await this.labels.exportBatch(userId, filter, after, LABEL_EXPORT_BATCH);
      for (const label of batch.items) yield toLabelExportRow(label);
      after = batch.next;
    } while (after);
  }
}

function toLabelExportRow(label: ExportedLabel): ExportCell[] {
  return [
    label.evaluationId,
    label.questionId,
    answerCell(label.answer),
    answerCell(label.judgeAnswer),
    String(label.agreement),
    label.note || null,
    label.createdAt.toISOString(),
    label.packId,
    label.packVersionId,
  ];
}
