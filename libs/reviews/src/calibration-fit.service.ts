import { Injectable, Logger } from '@nestjs/common';
import {
  calibrationRefitDue,
  calibrationTrainingAnswer,
  ConflictError,
  fitCalibrationMap,
  MIN_LABELS_TO_FIT,
  NotFoundError,
  questionFingerprint,
  type AuditedAnswer,
  type CalibrationMap,
  type PackDocument,
} from '@app/domain';
import {
  CalibrationMapRepository,
  PackRepository,
  type CalibrationFitRow,
  type VersionQuestion,
} from '@app/persistence';

export interface QuestionFitView {
  questionId: string;
  /** Labels the fit had: on evaluations of published versions asking this question in these words. */
  labels: number;
  /** The fitted map; null with fewer than MIN_LABELS_TO_FIT labels (the question keeps its raw probability). */
  map: { method: CalibrationMap['method']; labels: number; fittedAt: string } | null;
}

export interface CalibrationFitView {
  packId: string;
  versionId: string;
  fittedAt: string;
  minLabels: number;
  questions: QuestionFitView[];
}

/**
 * Fits each question's calibration map (docs/quality.md, "Calibration"): from the labels on every
 * published version of the pack whose question has the live question's id and wording, weighted by
 * 1/π on audit-selected evaluations and 1 otherwise.
 */
@Injectable()
export class CalibrationFitService {
  private readonly logger = new Logger(CalibrationFitService.name);

  constructor(
    private readonly packs: PackRepository,
    private readonly maps: CalibrationMapRepository,
  ) {}

  /** Refits every question of the pack's live version at once. */
  async fit(userId: string, packId: string): Promise<CalibrationFitView> {
    const pack = await this.packs.find(userId, packId);
    if (!pack) throw new NotFoundError('pack not found');
    if (!pack.liveVersionId || !pack.liveDocument) throw new ConflictError('pack has no published version');
    return this.fitVersion(userId, pack.id, pack.liveVersionId, pack.liveDocument);
  }

  /**
   * The worker's refit: every pack with enough labels written since its last fit, or with any and
   * a last fit a day old (`calibrationRefitDue`). A pack deleted or unpublished meanwhile is skipped.
   */
  async refitDue(now = new Date()): Promise<number> {
    let refitted = 0;
    for (const candidate of await this.maps.refitCandidates()) {
      if (!calibrationRefitDue(candidate.newLabels, candidate.lastFittedAt, now)) continue;
      try {
        await this.fit(candidate.userId, candidate.packId);
        refitted += 1;
      } catch (error) {
        if (!(error instanceof NotFoundError || error instanceof ConflictError)) throw error;
        this.logger.debug(
          { packId: candidate.packId },
          'calibration refit skipped: the pack was deleted or has no live version',
        );
      }
    }
    return refitted;
  }

  private async fitVersion(
    userId: string,
    packId: string,
    versionId: string,
    document: PackDocument,
  ): Promise<CalibrationFitView> {
    // Labels written from here on count as new for the next scheduled refit.
    const fittedAt = new Date();
    const wordings = new Map(
      document.questions.map((question) => [question.id, questionFingerprint(question)]),
    );
    const matching: VersionQuestion[] = (await this.maps.publishedVersions(userId, packId)).flatMap(
      (version) =>
        version.document.questions
          .filter((question) => wordings.get(question.id) === questionFingerprint(question))
          .map((question) => ({ versionId: version.id, questionId: question.id })),
    );
    const training = new Map<string, AuditedAnswer[]>();
    for (const label of await this.maps.labels(userId, packId, matching)) {
      const items = training.get(label.questionId) ?? [];
      items.push(calibrationTrainingAnswer(label));
      training.set(label.questionId, items);
    }
    const fits: CalibrationFitRow[] = [...wordings].map(([questionId, fingerprint]) => {
      const items = training.get(questionId) ?? [];
      const map = items.length >= MIN_LABELS_TO_FIT ? fitCalibrationMap(items) : null;
      return {
        questionId,
        fingerprint,
        method: map?.method ?? null,
        labels: items.length,
        points: map?.points ?? null,
      };
    });
    await this.maps.saveFits(userId, packId, fits, fittedAt);
    return {
      packId,
      versionId,
      fittedAt: fittedAt.toISOString(),
      minLabels: MIN_LABELS_TO_FIT,
      questions: fits.map(({ questionId, method, labels }) => ({
        questionId,
        labels,
        map: method ? { method, labels, fittedAt: fittedAt.toISOString() } : null,
      })),
    };
  }
}
