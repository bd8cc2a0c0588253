import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { isUuid, type Answer, type JudgmentResult } from '@app/domain';
import { EvaluationEntity } from '../entities/evaluation.entity.js';
import { LabelEntity } from '../entities/label.entity.js';
import { labelsForVersion, upsertLabel } from '../statements/labels.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

export interface NewLabel {
  questionId: string;
  answer: Answer;
  note: string;
  agreement: boolean;
}

export interface LabeledResult {
  result: JudgmentResult;
  questionId: string;
  answer: Answer;
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
      await this.lockEvaluation(tx, evaluationId);
      const upserted = await this.sql.first(
        upsertLabel,
        { id: randomUUID(), userId, evaluationId, ...label },
        tx,
      );
      await tx
        .getRepository(EvaluationEntity)
        .update({ id: evaluationId, labeled: false }, { labeled: true });
      const saved = await tx.getRepository(LabelEntity).findOneByOrFail({ id: upserted!.id });
      return { label: saved, created: upserted!.created };
    });
  }

  async delete(userId: string, evaluationId: string, labelId: string): Promise<boolean> {
    if (!isUuid(labelId) || !isUuid(evaluationId)) return false;
    return this.dataSource.transaction(async (tx) => {
      await this.lockEvaluation(tx, evaluationId);
      const labels = tx.getRepository(LabelEntity);
      const deleted = await labels.delete({ id: labelId, evaluationId, userId });
      const labeled = await labels.existsBy({ evaluationId });
      await tx.getRepository(EvaluationEntity).update({ id: evaluationId }, { labeled });
      return (deleted.affected ?? 0) > 0;
    });
  }

  listForEvaluation(userId: string, evaluationId: string): Promise<LabelEntity[]> {
    return this.dataSource
      .getRepository(LabelEntity)
      .find({ where: { userId, evaluationId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Every label on evaluations of one pack version, with the model's result, for calibration. */
  async listForVersion(userId: string, packVersionId: string): Promise<LabeledResult[]> {
    if (!isUuid(packVersionId)) return [];
    return this.sql.rows(labelsForVersion, { userId, packVersionId });
  }

  /** Serialises label writes per evaluation, so its `labeled` flag follows them. */
  private async lockEvaluation(tx: EntityManager, evaluationId: string): Promise<void> {
    await tx
      .getRepository(EvaluationEntity)
      .createQueryBuilder('e')
      .select('e.id')
      .where({ id: evaluationId })
      .setLock('pessimistic_write')
      .getOne();
  }
}
