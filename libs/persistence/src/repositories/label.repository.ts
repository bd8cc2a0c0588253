import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { isUuid, type Answer, type JudgmentResult } from '@app/domain';
import { LabelEntity } from '../entities/label.entity.js';

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
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Inserts the label, or replaces the one for the same question; `created` tells which. */
  async upsert(
    userId: string,
    evaluationId: string,
    label: NewLabel,
  ): Promise<{ label: LabelEntity; created: boolean }> {
    return this.dataSource.transaction(async (tx) => {
      await this.lockEvaluation(tx, evaluationId);
      const rows: Array<Record<string, unknown>> = await tx.query(
        `INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, note, agreement)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (evaluation_id, question_id) DO UPDATE
           SET answer = excluded.answer, note = excluded.note, agreement = excluded.agreement, updated_at = now()
         RETURNING id, (xmax = 0) AS created`,
        [
          randomUUID(),
          userId,
          evaluationId,
          label.questionId,
          JSON.stringify(label.answer),
          label.note,
          label.agreement,
        ],
      );
      await tx.query(`UPDATE evaluations SET labeled = true WHERE id = $1 AND NOT labeled`, [evaluationId]);
      const saved = await tx.getRepository(LabelEntity).findOneByOrFail({ id: rows[0].id as string });
      return { label: saved, created: rows[0].created as boolean };
    });
  }

  async delete(userId: string, evaluationId: string, labelId: string): Promise<boolean> {
    if (!isUuid(labelId) || !isUuid(evaluationId)) return false;
    return this.dataSource.transaction(async (tx) => {
      await this.lockEvaluation(tx, evaluationId);
      const [, deleted]: [unknown, number] = await tx.query(
        `DELETE FROM labels WHERE id = $1 AND evaluation_id = $2 AND user_id = $3`,
        [labelId, evaluationId, userId],
      );
      await tx.query(
        `UPDATE evaluations SET labeled = EXISTS (SELECT 1 FROM labels WHERE evaluation_id = $1) WHERE id = $1`,
        [evaluationId],
      );
      return deleted > 0;
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
    const rows: Array<{ result: JudgmentResult; question_id: string; answer: Answer }> =
      await this.dataSource.query(
        `SELECT e.result, l.question_id, l.answer
         FROM labels l JOIN evaluations e ON e.id = l.evaluation_id
        WHERE l.user_id = $1 AND e.user_id = $1 AND e.pack_version_id = $2`,
        [userId, packVersionId],
      );
    return rows.map((row) => ({ result: row.result, questionId: row.question_id, answer: row.answer }));
  }

  private async lockEvaluation(tx: EntityManager, evaluationId: string): Promise<void> {
    await tx.query(`SELECT 1 FROM evaluations WHERE id = $1 FOR UPDATE`, [evaluationId]);
  }
}
