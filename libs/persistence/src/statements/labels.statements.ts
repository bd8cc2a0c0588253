import type { Answer } from '@app/domain';
import type { LabelEntity } from '../entities/label.entity.js';
import { listShape, shapes, whereOf } from './evaluations.statements.js';
import { aligned, defineStatement, type Statement } from './statement.js';

/** The columns of a LabelEntity. */
const LABEL = `id, user_id AS "userId", evaluation_id AS "evaluationId", question_id AS "questionId", answer, note,
  agreement, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Inserts the label or replaces the answer for the same question; `created` tells which. */
export const upsertLabel = defineStatement<
  {
    id: string;
    userId: string;
    evaluationId: string;
    questionId: string;
    answer: Answer;
    note: string;
    agreement: boolean;
  },
  LabelEntity & { created: boolean }
>({
  name: 'labels.upsert',
  sql: `
    INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, note, agreement)
    VALUES (:id, :userId, :evaluationId, :questionId, :answer, :note, :agreement)
    ON CONFLICT (evaluation_id, question_id) DO UPDATE
      SET answer = excluded.answer, note = excluded.note, agreement = excluded.agreement, updated_at = now()
    RETURNING ${aligned(LABEL, 14)}, (xmax = 0) AS created`,
  json: ['answer'],
});

/**
 * Every label on evaluations of one pack version, with the judge's answer to the label's question
 * (null when it gave none) and, for a label of the audit sample, its evaluation's inclusion
 * probability, for calibration. Read from the copies of the evaluation's facts each label carries
 * (migration 1795751500000-label-evaluation-facts) on the labels' version index: joining each label
 * to its evaluation was most of the calibration report's time at ten million evaluations.
 */
export const labelsForVersion = defineStatement<
  { userId: string; packVersionId: string },
  { questionId: string; model: Answer | null; answer: Answer; auditProbability: number | null }
>({
  name: 'labels.forVersion',
  sql: `
    SELECT question_id AS "questionId", judge_answer AS model, answer,
           CASE WHEN audit_selected THEN audit_probability END AS "auditProbability"
      FROM labels
     WHERE pack_version_id = :packVersionId AND user_id = :userId
     ORDER BY evaluation_created_at, evaluation_id, question_id`,
});

/** Serialises label writes per evaluation (run in the write's transaction), so its `labeled` flag follows them. */
export const lockEvaluation = defineStatement<{ evaluationId: string }, { id: string }>({
  name: 'labels.lockEvaluation',
  sql: `SELECT id FROM evaluations WHERE id = :evaluationId FOR UPDATE`,
});

export const markLabeled = defineStatement<{ evaluationId: string }>({
  name: 'labels.markLabeled',
  sql: `UPDATE evaluations SET labeled = true WHERE id = :evaluationId AND labeled = false`,
});

export const deleteLabel = defineStatement<{ userId: string; evaluationId: string; labelId: string }>({
  name: 'labels.delete',
  sql: `DELETE FROM labels WHERE id = :labelId AND evaluation_id = :evaluationId AND user_id = :userId`,
});

/** The evaluation's `labeled` flag set to whether any label is left on it. */
export const syncLabeled = defineStatement<{ evaluationId: string }>({
  name: 'labels.syncLabeled',
  sql: `
    UPDATE evaluations SET labeled = EXISTS (SELECT 1 FROM labels WHERE evaluation_id = :evaluationId)
     WHERE id = :evaluationId`,
});

/** A label as GET /api/labels/export writes it: with the judge's answer to its question and its pack version. */
export interface ExportedLabel {
  id: string;
  evaluationId: string;
  questionId: string;
  answer: Answer;
  /** The model's answer to the question; null when it gave none. */
  judgeAnswer: Answer | null;
  agreement: boolean;
  note: string;
  createdAt: Date;
  /** The creation time as text, for the keyset position. */
  createdAtText: string;
  packId: string;
  packVersionId: string;
}

export interface LabelExportParams {
  userId: string;
  limit: number;
  packId?: string;
  packVersionId?: string;
  afterAt?: string;
  afterId?: string;
}

const LABEL_EXPORT_FILTERS = {
  packId: 'e.pack_id = :packId',
  packVersionId: 'e.pack_version_id = :packVersionId',
  after: '(l.created_at, l.id) < (:afterAt::timestamptz, :afterId::uuid)',
};

/**
 * A user's labels, newest first, in keyset batches (GET /api/labels/export): one statement per
 * shape of the optional filters, as the evaluation lists.
 */
export const exportLabels: Record<string, Statement<LabelExportParams, ExportedLabel>> = Object.fromEntries(
  shapes(Object.keys(LABEL_EXPORT_FILTERS) as Array<keyof typeof LABEL_EXPORT_FILTERS>).map((shape) => [
    listShape(shape),
    defineStatement<LabelExportParams, ExportedLabel>({
      name: `labels.export[${listShape(shape)}]`,
      sql: `
        SELECT l.id, l.evaluation_id AS "evaluationId", l.question_id AS "questionId", l.answer,
               e.result -> 'answers' -> l.question_id AS "judgeAnswer", l.agreement, l.note,
               l.created_at AS "createdAt", l.created_at::text AS "createdAtText",
               e.pack_id AS "packId", e.pack_version_id AS "packVersionId"
          FROM labels l JOIN evaluations e ON e.id = l.evaluation_id
         WHERE ${whereOf('l.user_id = :userId AND e.user_id = :userId', shape, LABEL_EXPORT_FILTERS)}
         ORDER BY l.created_at DESC, l.id DESC
         LIMIT :limit`,
    }),
  ]),
);
