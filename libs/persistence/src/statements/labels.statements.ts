import type { Answer, JudgmentResult } from '@app/domain';
import { defineStatement } from './statement.js';

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
  { id: string; created: boolean }
>({
  name: 'labels.upsert',
  sql: `
    INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, note, agreement)
    VALUES (:id, :userId, :evaluationId, :questionId, :answer, :note, :agreement)
    ON CONFLICT (evaluation_id, question_id) DO UPDATE
      SET answer = excluded.answer, note = excluded.note, agreement = excluded.agreement, updated_at = now()
    RETURNING id, (xmax = 0) AS created`,
  json: ['answer'],
});

/** Every label on evaluations of one pack version, with the model's result, for calibration. */
export const labelsForVersion = defineStatement<
  { userId: string; packVersionId: string },
  { result: JudgmentResult; questionId: string; answer: Answer }
>({
  name: 'labels.forVersion',
  sql: `
    SELECT e.result, l.question_id AS "questionId", l.answer
      FROM labels l JOIN evaluations e ON e.id = l.evaluation_id
     WHERE l.user_id = :userId AND e.user_id = :userId AND e.pack_version_id = :packVersionId`,
});
