import { Injectable } from '@nestjs/common';
import { questionFingerprint, type FittedCalibrationMap, type PackDocument } from '@app/domain';
import { CacheInvalidation, type InvalidatedCache } from '@app/cache';
import { findCalibrationMaps } from '../statements/calibration.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { HOT_PATH_CACHE } from './hot-path-cache.js';

/** A version's maps by question id: only the questions that have one. */
export type VersionCalibration = ReadonlyMap<string, FittedCalibrationMap>;

/**
 * The calibration maps of a pack version, read by the judge (for questions with
 * `review.useCalibrated`) and by every evaluation read, by `userId:versionId` and tagged by
 * `userId:packId`: a fit replaces the maps of every version of its pack, and CalibrationMapRepository
 * invalidates the pack in the same method as the fit's write. Versions without maps are kept too.
 */
@Injectable()
export class CalibrationMapCache {
  private readonly cache: InvalidatedCache<VersionCalibration>;

  constructor(
    private readonly invalidation: CacheInvalidation,
    private readonly sql: PreparedSql,
  ) {
    this.cache = invalidation.register('calibration-maps', HOT_PATH_CACHE);
  }

  /** The maps that apply to `document`'s questions: same pack, same question id, same wording. */
  find(
    userId: string,
    packId: string,
    versionId: string,
    document: PackDocument,
  ): Promise<VersionCalibration> {
    return this.cache.get(`${userId}:${versionId}`, () => this.load(userId, packId, document), {
      tagOf: () => `${userId}:${packId}`,
    });
  }

  /** After a fit of the pack committed: drops the maps of all its versions in every process. */
  invalidate(userId: string, packId: string): Promise<void> {
    return this.invalidation.invalidate(this.cache, `${userId}:${packId}`);
  }

  private async load(userId: string, packId: string, document: PackDocument): Promise<VersionCalibration> {
    const fingerprints = new Map(
      document.questions.map((question) => [question.id, questionFingerprint(question)]),
    );
    const maps = new Map<string, FittedCalibrationMap>();
    if (!fingerprints.size) return maps;
    const rows = await this.sql.rows(findCalibrationMaps, {
      userId,
      packId,
      fingerprints: [...new Set(fingerprints.values())],
    });
    for (const { questionId, fingerprint, method, labels, points, fittedAt } of rows) {
      if (fingerprints.get(questionId) === fingerprint)
        maps.set(questionId, { method, labels, points, fittedAt });
    }
    return maps;
  }
}
