import type { Answer, CalibrationMap, CalibrationPoint, PackDocument } from '@app/domain';
import { defineStatement } from './statement.js';

/** A stored map, as the read cache keeps it (fits without a map are not read). */
export interface CalibrationMapRow {
  questionId: string;
  fingerprint: string;
  method: CalibrationMap['method'];
  labels: number;
  points: CalibrationPoint[];
  fittedAt: Date;
}

/** The maps of a pack whose wording is one of `fingerprints` (the caller matches the question ids). */
export const findCalibrationMaps = defineStatement<
  { userId: string; packId: string; fingerprints: string[] },
  CalibrationMapRow
>({
  name: 'calibration.findMaps',
  sql: `
    SELECT question_id AS "questionId", fingerprint, method, labels, points, fitted_at AS "fittedAt"
      FROM calibration_maps
     WHERE user_id = :userId AND pack_id = :packId AND fingerprint = ANY(:fingerprints::text[])
       AND method IS NOT NULL`,
});

/** A pack's published versions with their documents: the wordings a fit matches labels by. */
export const publishedVersionDocuments = defineStatement<
  { userId: string; packId: string },
  { id: string; document: PackDocument }
>({
  name: 'calibration.publishedVersions',
  sql: `
    SELECT id, document FROM pack_versions
     WHERE user_id = :userId AND pack_id = :packId AND published_at IS NOT NULL`,
});

/** One label a fit reads: the question, the judge's answer to it, the agreement and the audit draw. */
export interface CalibrationLabelRow {
  questionId: string;
  judgeAnswer: Answer;
  agreed: boolean;
  auditSelected: boolean | null;
  auditProbability: number | null;
}

/**
 * The labels of the given (version, question) pairs, the pairs whose question has the wording
 * being fitted, where the judge answered that question: read from the user's labels and the copies
 * of their evaluations' facts they carry (migration 1795751500000-label-evaluation-facts), never from
 * the evaluations, planned with the pairs given. The versions must be the pack's.
 */
export const calibrationLabels = defineStatement<
  { userId: string; packId: string; versionIds: string[]; questionIds: string[] },
  CalibrationLabelRow
>({
  name: 'calibration.labels',
  sql: `
    SELECT l.question_id AS "questionId", l.judge_answer AS "judgeAnswer", l.agreement AS agreed,
           l.audit_selected AS "auditSelected", l.audit_probability AS "auditProbability"
      FROM labels l
      JOIN unnest(:versionIds::uuid[], :questionIds::text[]) AS wording (version_id, question_id)
        ON wording.version_id = l.pack_version_id AND wording.question_id = l.question_id
      JOIN pack_versions v ON v.id = l.pack_version_id AND v.pack_id = :packId
     WHERE l.user_id = :userId AND l.judge_answer IS NOT NULL`,
  plannedPerCall: true,
});

/** One question's fit as a fit stores it: no method and no points when it had too few labels. */
export interface CalibrationFitRow {
  questionId: string;
  fingerprint: string;
  method: CalibrationMap['method'] | null;
  labels: number;
  points: CalibrationPoint[] | null;
}

/** Stores a fit of several questions at once, replacing their wordings' earlier fits. */
export const saveCalibrationFits = defineStatement<{
  userId: string;
  packId: string;
  fits: CalibrationFitRow[];
  fittedAt: Date;
}>({
  name: 'calibration.saveFits',
  sql: `
    INSERT INTO calibration_maps (user_id, pack_id, question_id, fingerprint, method, labels, points, fitted_at)
    SELECT :userId::uuid, :packId::uuid, fit."questionId", fit.fingerprint, fit.method, fit.labels, fit.points,
           :fittedAt::timestamptz
      FROM jsonb_to_recordset(:fits::jsonb)
           AS fit ("questionId" text, fingerprint text, method text, labels integer, points jsonb)
    ON CONFLICT (user_id, pack_id, question_id, fingerprint) DO UPDATE
      SET method = excluded.method, labels = excluded.labels, points = excluded.points,
          fitted_at = excluded.fitted_at`,
  json: ['fits'],
});

/** A published pack with labels written since its last fit (or never fitted), for the worker's refit. */
export interface RefitCandidateRow {
  userId: string;
  packId: string;
  newLabels: number;
  lastFittedAt: Date | null;
}

/**
 * Every pack with a live version and labels written (or rewritten) since its last fit: the worker
 * decides which are due (`calibrationRefitDue`). Reads every label newer than its pack's last fit.
 */
export const refitCandidates = defineStatement<Record<never, never>, RefitCandidateRow>({
  name: 'calibration.refitCandidates',
  sql: `
    WITH fits AS (
      SELECT user_id, pack_id, max(fitted_at) AS fitted_at FROM calibration_maps GROUP BY user_id, pack_id
    )
    SELECT e.user_id AS "userId", e.pack_id AS "packId", count(*)::int AS "newLabels",
           f.fitted_at AS "lastFittedAt"
      FROM labels l
      JOIN evaluations e ON e.id = l.evaluation_id
      JOIN packs p ON p.id = e.pack_id AND p.deleted_at IS NULL AND p.live_version_id IS NOT NULL
      LEFT JOIN fits f ON f.user_id = e.user_id AND f.pack_id = e.pack_id
     WHERE l.updated_at > coalesce(f.fitted_at, '-infinity')
     GROUP BY e.user_id, e.pack_id, f.fitted_at
     ORDER BY e.user_id, e.pack_id`,
});
