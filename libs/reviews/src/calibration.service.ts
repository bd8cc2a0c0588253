import { Injectable } from '@nestjs/common';
import {
  calibrateQuestion,
  ConflictError,
  NotFoundError,
  type LabeledAnswer,
  type QuestionCalibration,
} from '@app/domain';
import { EvaluationRepository, LabelRepository, PackRepository, PackVersionLookup } from '@app/persistence';

/** Days of live traffic the threshold preview looks back over. */
export const THRESHOLD_PREVIEW_DAYS = 30;

export interface ThresholdPreviewView {
  packId: string;
  questionId: string;
  threshold: number;
  days: number;
  since: string;
  evaluated: number;
  belowThreshold: number;
  reviewShare: number | null;
}

export interface CalibrationView {
  packId: string;
  versionId: string;
  targetAgreement: number;
  questions: Array<QuestionCalibration & { reviewShareAtSuggested: number | null }>;
}

@Injectable()
export class CalibrationService {
  constructor(
    private readonly packs: PackRepository,
    private readonly versions: PackVersionLookup,
    private readonly labels: LabelRepository,
    private readonly evaluations: EvaluationRepository,
  ) {}

  /** Per-question calibration of a pack version (the live one by default) from its labels. */
  async calibrate(
    userId: string,
    packId: string,
    versionId: string | undefined,
    targetAgreement: number,
  ): Promise<CalibrationView> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    const id = versionId ?? pack.liveVersionId;
    if (!id) throw new ConflictError('pack has no published version');
    const version = await this.versions.find(userId, id);
    if (!version || version.packId !== pack.id) throw new NotFoundError('version not found');

    const byQuestion = new Map<string, LabeledAnswer[]>();
    for (const row of await this.labels.listForVersion(userId, version.id)) {
      const items = byQuestion.get(row.questionId) ?? [];
      items.push({ model: row.result.answers[row.questionId], label: row.answer });
      byQuestion.set(row.questionId, items);
    }
    const questions = await Promise.all(
      version.document.questions.map(async (question) => {
        const report = calibrateQuestion(question, byQuestion.get(question.id) ?? [], targetAgreement);
        const threshold = report.suggestedMinSelectedProbability;
        const reviewShareAtSuggested =
          threshold === null
            ? null
            : await this.evaluations.shareBelowThreshold(userId, version.id, question.id, threshold);
        return { ...report, reviewShareAtSuggested };
      }),
    );
    return { packId: pack.id, versionId: version.id, targetAgreement, questions };
  }

  /**
   * What a threshold would have done to the last 30 days of the pack's live traffic (api, webhook,
   * mcp; every version): of the evaluations that stored a selected probability for the question, how
   * many, and how many are below `threshold` (so would have gone to review for this question).
   */
  async previewThreshold(
    userId: string,
    packId: string,
    questionId: string,
    threshold: number,
    now = new Date(),
  ): Promise<ThresholdPreviewView> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    const since = new Date(now.getTime() - THRESHOLD_PREVIEW_DAYS * 86_400_000);
    const { evaluated, below } = await this.evaluations.countLiveBelowThresholdSince(
      userId,
      pack.id,
      questionId,
      threshold,
      since,
    );
    return {
      packId: pack.id,
      questionId,
      threshold,
      days: THRESHOLD_PREVIEW_DAYS,
      since: since.toISOString(),
      evaluated,
      belowThreshold: below,
      reviewShare: evaluated ? below / evaluated : null,
    };
  }
}
