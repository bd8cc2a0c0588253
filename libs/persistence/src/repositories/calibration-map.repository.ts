import { Injectable } from '@nestjs/common';
import { isUuid, type PackDocument } from '@app/domain';
import { CalibrationMapCache } from '../cache/calibration-map.cache.js';
import {
  calibrationLabels,
  publishedVersionDocuments,
  refitCandidates,
  saveCalibrationFits,
  type CalibrationFitRow,
  type CalibrationLabelRow,
  type RefitCandidateRow,
} from '../statements/calibration.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

export type { CalibrationFitRow, CalibrationLabelRow, RefitCandidateRow };

/** A question of one version: the labels of its evaluations train a map when its wording matches. */
export interface VersionQuestion {
  versionId: string;
  questionId: string;
}

/**
 * Calibration fits, scoped by owner: what a fit reads (the pack's published documents and the labels
 * of the matching questions) and its write, which drops the pack's cached maps in every process.
 */
@Injectable()
export class CalibrationMapRepository {
  constructor(
    private readonly sql: PreparedSql,
    private readonly cache: CalibrationMapCache,
  ) {}

  /** The pack's published versions with their documents (frozen, so each label's wording is known). */
  publishedVersions(userId: string, packId: string): Promise<Array<{ id: string; document: PackDocument }>> {
    if (!isUuid(packId)) return Promise.resolve([]);
    return this.sql.rows(publishedVersionDocuments, { userId, packId });
  }

  /** The labels of these questions of these versions, where the judge answered the question. */
  async labels(userId: string, packId: string, questions: VersionQuestion[]): Promise<CalibrationLabelRow[]> {
    if (!isUuid(packId) || !questions.length) return [];
    return this.sql.rows(calibrationLabels, {
      userId,
      packId,
      versionIds: questions.map((question) => question.versionId),
      questionIds: questions.map((question) => question.questionId),
    });
  }

  /** Stores a fit of the pack's questions, then drops its cached maps everywhere. */
  async saveFits(userId: string, packId: string, fits: CalibrationFitRow[], fittedAt: Date): Promise<void> {
    if (fits.length) await this.sql.query(saveCalibrationFits, { userId, packId, fits, fittedAt });
    await this.cache.invalidate(userId, packId);
  }

  /** Published packs with labels written since their last fit (the worker decides which are due). */
  refitCandidates(): Promise<RefitCandidateRow[]> {
    return this.sql.rows(refitCandidates, {});
  }
}
