import { Injectable } from '@nestjs/common';
import { agrees, BadRequestError, checkLabelFit, NotFoundError } from '@app/domain';
import { toLabelView, type LabelView } from '@app/judging';
import { EvaluationRepository, LabelRepository, PackVersionLookup } from '@app/persistence';

export interface LabelInput {
  questionId: string;
  answer: unknown;
  note?: string;
}

@Injectable()
export class LabelService {
  constructor(
    private readonly evaluations: EvaluationRepository,
    private readonly versions: PackVersionLookup,
    private readonly labels: LabelRepository,
  ) {}

  /**
   * Labels one question of an evaluation (replacing an earlier label for it). The answer must fit
   * the question in the evaluation's own pack version; agreement with the model is computed here.
   */
  async put(
    userId: string,
    evaluationId: string,
    input: LabelInput,
  ): Promise<{ label: LabelView; created: boolean }> {
    const evaluation = await this.evaluations.findById(userId, evaluationId);
    if (!evaluation) throw new NotFoundError('evaluation not found');
    const version = await this.versions.find(userId, evaluation.packVersionId);
    if (!version) throw new NotFoundError('version not found');
    const fit = checkLabelFit(version.document, input.questionId, input.answer);
    if (!fit.ok) throw new BadRequestError(fit.error);
    const agreement = agrees(evaluation.result.answers[input.questionId], fit.answer);
    const { label, created } = await this.labels.upsert(userId, evaluation.id, {
      questionId: input.questionId,
      answer: fit.answer,
      note: input.note ?? '',
      agreement,
    });
    return { label: toLabelView(label), created };
  }

  async delete(userId: string, evaluationId: string, labelId: string): Promise<void> {
    const evaluation = await this.evaluations.findById(userId, evaluationId);
    if (!evaluation || !(await this.labels.delete(userId, evaluation.id, labelId)))
      throw new NotFoundError('label not found');
  }
}
