import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isUuid, type Answer } from '@app/domain';
import { LabelEntity } from '../entities/label.entity.js';
import type { KeysetPosition } from '../cursor.js';
import { listShape } from '../statements/evaluations.statements.js';
import {
  deleteLabel,
  exportLabels,
  labelsForVersion,
  lockEvaluation,
  markLabeled,
  syncLabeled,
  upsertLabel,
  type ExportedLabel,
} from '../statements/labels.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

export interface NewLabel {
  questionId: string;
  answer: Answer;
  note: string;
  agreement: boolean;
}

export type { ExportedLabel };

export interface LabelExportFilter {
  packId?: string;
  packVersionId?: string;
}

export interface LabelExportBatch {
  items: ExportedLabel[];
  /** Position of the last item when more labels follow, else null. */
  next: KeysetPosition | null;
}

export interface LabeledResult {
  questionId: string;
  /** The model's answer to the question; null when it gave none. */
  model: Answer | null;
  answer: Answer;
  /** π of the label's evaluation when the audit sample drew it; null for any other label. */
  auditProbability: number | null;
}

/**
 * Labels, scoped by owner. Writes lock the evaluation row so that its `labeled` flag always
 * matches whether labels exist, even when reviewers label and unlabel at the same time.
 */
@Injectable()
export class LabelRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: PreparedSql,
  ) {}

  /** Inserts the label, or replaces the one for the same question; `created` tells which. */
  async upsert(
    userId: string,
    evaluationId: string,
    label: NewLabel,
  ): Promise<{ label: LabelEntity; created: boolean }> {
    return this.dataSource.transaction(async (tx) => {
      await this.sql.query(lockEvaluation, { evaluationId }, tx);
      const upserted = await this.sql.first(
        upsertLabel,
        { id: randomUUID(), userId, evaluationId, ...label },
        tx,
      );
      await this.sql.query(markLabeled, { evaluationId }, tx);
      const { created, ...saved } = upserted!;
      return { label: saved, created };
    });
  }

  async delete(userId: string, evaluationId: string, labelId: string): Promise<boolean> {
    if (!isUuid(labelId) || !isUuid(evaluationId)) return false;
    return this.dataSource.transaction(async (tx) => {
      await this.sql.query(lockEvaluation, { evaluationId }, tx);
      const deleted = await this.sql.affected(deleteLabel, { userId, evaluationId, labelId }, tx);
      await this.sql.query(syncLabeled, { evaluationId }, tx);
      return deleted > 0;
    });
  }

  listForEvaluation(userId: string, evaluationId: string): Promise<LabelEntity[]> {
    return this.dataSource
      .getRepository(LabelEntity)
      .find({ where: { userId, evaluationId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Every label on evaluations of one pack version, with the model's answer to its question and the audit's π, for calibration. */
  async listForVersion(userId: string, packVersionId: string): Promise<LabeledResult[]> {
    if (!isUuid(packVersionId)) return [];
    return this.sql.rows(labelsForVersion, { userId, packVersionId });
  }

  /** One batch of the user's labels, newest first, after `after` (keyset on created_at, id). */
  async exportBatch(
    userId: string,
    filter: LabelExportFilter,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<LabelExportBatch> {
    const { packId, packVersionId } = filter;
    if ([packId, packVersionId].some((id) => id !== undefined && !isUuid(id)))
      return { items: [], next: null };
    const given = Object.entries({ packId, packVersionId })
      .filter(([, value]) => value !== undefined)
      .map(([key]) => key);
    const shape = listShape(after ? [...given, 'after'] : given);
    const params = {
      userId,
      packId,
      packVersionId,
      limit: limit + 1,
      afterAt: after?.createdAt,
      afterId: after?.id,
    };
    const rows = await this.sql.rows(exportLabels[shape], params);
    const items = rows.slice(0, limit);
    const last = items.at(-1);
    return {
      items,
      next: rows.length > limit && last ? { createdAt: last.createdAtText, id: last.id } : null,
    };
  }
}
