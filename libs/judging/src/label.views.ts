import type { LabelEntity } from '@app/persistence';
import type { LabelView } from './evaluation.views.js';

export function toLabelView(label: LabelEntity): LabelView {
  return {
    id: label.id,
    questionId: label.questionId,
    answer: label.answer,
    note: label.note,
    agreement: label.agreement,
    createdAt: label.createdAt.toISOString(),
  };
}
