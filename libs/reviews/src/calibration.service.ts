import { Injectable } from '@nestjs/common';
import {
  agrees,
  applyCalibration,
  calibrateQuestion,
  calibrationErrors,
  ConflictError,
  guaranteedThreshold,
  NotFoundError,
  selectedProbability,
  type AuditedAnswer,
  type CalibrationErrors,
  type FittedCalibrationMap,
  type LabeledAnswer,
  type QuestionCalibration,
} from '@app/domain';
import {
  CalibrationMapCache,
  EvaluationRepository,
  LabelRepository,
  PackRepository,
  PackVersionLookup,
  type LabeledResult,
} from '@app/persistence';

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

/** What the audit sample says about a question's threshold and calibration (docs/quality.md). */
export interface AuditCalibration {
  /** Expected calibration error of the judge's probabilities and of the calibrated ones, on the audit sample. */
  ece: CalibrationErrors;
  /**
   * The lowest threshold at which, with probability at least 1 − δ, reviewers agree with at least
   * `targetAgreement` of the answers at or above it; null when the audit labels support none.
   */
  guaranteedMinSelectedProbability: number | null;
  /** Share of the version's answers at or above the guaranteed threshold (decided automatically); null without one. */
  coverageAtGuaranteed: number | null;
  /** Without a guaranteed threshold: about how many more audit labels one needs; null when more alike cannot help. */
  auditLabelsNeeded: number | null;
  /** Audit-sample labels of the question. */
  auditLabels: number;
  /** The question's fitted calibration map (its points: selected probability → calibrated); null without one. */
  calibrationMap: CalibrationMapView | null;
}

export interface CalibrationMapView {
  method: 'platt' | 'isotonic';
  labels: number;
  fittedAt: string;
  points: Array<{ selectedProbability: number; calibrated: number }>;
}

export interface CalibrationView {
  packId: string;
  versionId: string;
  targetAgreement: number;
  delta: number;
  questions: Array<QuestionCalibration & AuditCalibration & { reviewShareAtSuggested: number | null }>;
}

@Injectable()
export class CalibrationService {
  constructor(
    private readonly packs: PackRepository,
    private readonly versions: PackVersionLookup,
    private readonly labels: LabelRepository,
    private readonly evaluations: EvaluationRepository,
    private readonly maps: CalibrationMapCache,
  ) {}

  /** Per-question calibration of a pack version (the live one by default) from its labels. */
  async calibrate(
    userId: string,
    packId: string,
    versionId: string | undefined,
    targetAgreement: number,
    delta = 0.1,
  ): Promise<CalibrationView> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    const id = versionId ?? pack.liveVersionId;
    if (!id) throw new ConflictError('pack has no published version');
    const version = await this.versions.find(userId, id);
    if (!version || version.packId !== pack.id) throw new NotFoundError('version not found');

    const byQuestion = new Map<string, LabeledResult[]>();
    const [labels, maps] = await Promise.all([
      this.labels.listForVersion(userId, version.id),
      this.maps.find(userId, pack.id, version.id, version.document),
    ]);
    for (const row of labels) {
      const items = byQuestion.get(row.questionId) ?? [];
      items.push(row);
      byQuestion.set(row.questionId, items);
    }
    const questions = await Promise.all(
      version.document.questions.map(async (question) => {
        const map = maps.get(question.id);
        const labeled = byQuestion.get(question.id) ?? [];
        const report = calibrateQuestion(
          question,
          labeled.map((row): LabeledAnswer => ({ model: row.model ?? undefined, label: row.answer })),
          targetAgreement,
          map && ((probability) => applyCalibration(map, probability)),
        );
        const threshold = report.suggestedMinSelectedProbability;
        const sample = auditedAnswers(labeled);
        const guaranteed = guaranteedThreshold(sample, [], targetAgreement, delta);
        const [reviewShareAtSuggested, belowGuaranteed] = await Promise.all(
          [threshold, guaranteed.threshold].map((t) =>
            t === null
              ? Promise.resolve(null)
              : this.evaluations.shareBelowThreshold(userId, version.id, question.id, t),
          ),
        );
        return {
          ...report,
          reviewShareAtSuggested,
          ece: calibrationErrors(sample),
          guaranteedMinSelectedProbability: guaranteed.threshold,
          coverageAtGuaranteed: belowGuaranteed === null ? null : 1 - belowGuaranteed,
          auditLabelsNeeded: guaranteed.labelsNeeded,
          auditLabels: guaranteed.labels,
          calibrationMap: mapView(map),
        };
      }),
    );
    return { packId: pack.id, versionId: version.id, targetAgreement, delta, questions };
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

/** A question's labeled answers in the audit sample: the judge's selected probability, agreement and π. */
function auditedAnswers(labels: readonly LabeledResult[]): AuditedAnswer[] {
  return labels.flatMap(({ model, answer, auditProbability }) =>
    model && auditProbability !== null
      ? [
          {
            selectedProbability: selectedProbability(model),
            agreed: agrees(model, answer),
            inclusionProbability: auditProbability,
          },
        ]
      : [],
  );
}

function mapView(map: FittedCalibrationMap | undefined): CalibrationMapView | null {
  if (!map) return null;
  const { method, labels, fittedAt, points } = map;
  return { method, labels, fittedAt: fittedAt.toISOString(), points: points.map((point) => ({ ...point })) };
}
