import { Injectable } from '@nestjs/common';
import { calibratedProbabilities, type Answer, type CalibrationMap } from '@app/domain';
import {
  CalibrationMapCache,
  PackVersionLookup,
  type EvaluationEntity,
  type VersionCalibration,
} from '@app/persistence';

/** The map a calibrated probability came from. */
export interface CalibrationUsedView {
  fittedAt: string;
  labels: number;
  method: CalibrationMap['method'];
}

/**
 * The maps behind an evaluation's calibrated probabilities: `fittedAt`, `labels` and `method` of
 * the map with the fewest labels (the least certain one; a pack's maps are fitted together, so
 * `fittedAt` is usually shared), and every map by question id.
 */
export interface CalibratedWithView extends CalibrationUsedView {
  questions: Record<string, CalibrationUsedView>;
}

/**
 * Beside `result` on an evaluation read: each answered question's calibrated probability and the maps
 * they came from; both null when no question of the evaluation has a map.
 */
export interface CalibratedFields {
  calibrated: Record<string, number> | null;
  calibratedWith: CalibratedWithView | null;
}

export const UNCALIBRATED: CalibratedFields = { calibrated: null, calibratedWith: null };

/** The calibrated fields of one evaluation's answers under its version's maps. */
export function calibratedFields(
  answers: Readonly<Record<string, Answer>>,
  maps: VersionCalibration,
): CalibratedFields {
  const calibrated = calibratedProbabilities(answers, maps);
  const questionIds = Object.keys(calibrated);
  if (!questionIds.length) return UNCALIBRATED;
  const questions: Record<string, CalibrationUsedView> = Object.fromEntries(
    questionIds.map((questionId) => {
      const { fittedAt, labels, method } = maps.get(questionId)!;
      return [questionId, { fittedAt: fittedAt.toISOString(), labels, method }];
    }),
  );
  const fewest = Object.values(questions).reduce((least, map) => (map.labels < least.labels ? map : least));
  return { calibrated, calibratedWith: { ...fewest, questions } };
}

/**
 * Calibrated fields for evaluation reads: one look-up of the maps per pack version read (the
 * version's document from PackVersionLookup, its maps from CalibrationMapCache), none per row.
 */
@Injectable()
export class CalibrationReader {
  constructor(
    private readonly versions: PackVersionLookup,
    private readonly maps: CalibrationMapCache,
  ) {}

  /** Each evaluation's calibrated fields, by evaluation id. */
  async fieldsFor(
    userId: string,
    evaluations: readonly EvaluationEntity[],
  ): Promise<Map<string, CalibratedFields>> {
    const versionIds = [...new Set(evaluations.map((evaluation) => evaluation.packVersionId))];
    const byVersion = new Map(
      await Promise.all(
        versionIds.map(async (versionId) => {
          const version = await this.versions.find(userId, versionId);
          const maps = version
            ? await this.maps.find(userId, version.packId, version.id, version.document)
            : new Map<string, never>();
          return [versionId, maps] as const;
        }),
      ),
    );
    return new Map(
      evaluations.map((evaluation) => [
        evaluation.id,
        calibratedFields(evaluation.result.answers ?? {}, byVersion.get(evaluation.packVersionId)!),
      ]),
    );
  }
}
