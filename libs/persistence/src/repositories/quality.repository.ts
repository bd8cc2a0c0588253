import { Injectable } from '@nestjs/common';
import { PreparedSql } from '../statements/prepared-sql.js';
import {
  answerCounts,
  auditedPacks,
  type AuditedPackRow,
  auditLabels,
  versionCounts,
  type AnswerCountRow,
  type LabeledDrawRow,
  type VersionCountsRow,
  type VersionWindow,
} from '../statements/quality.statements.js';

/**
 * Reads for the quality estimates (GET /api/packs/{packId}/quality and the dashboard's Quality
 * card): the per-day counters of a version's live traffic and its labeled audit sample, scoped by
 * owner (another user's version has no counts).
 */
@Injectable()
export class QualityRepository {
  constructor(private readonly sql: PreparedSql) {}

  async counts(window: VersionWindow): Promise<VersionCountsRow> {
    return (await this.sql.first(versionCounts, window)) ?? { evaluations: 0, autoDecided: 0, audited: 0 };
  }

  answers(window: VersionWindow): Promise<AnswerCountRow[]> {
    return this.sql.rows(answerCounts, window);
  }

  /** The user's live packs with the audit on, most recently changed first. */
  auditedPacks(userId: string, limit: number): Promise<AuditedPackRow[]> {
    return this.sql.rows(auditedPacks, { userId, limit });
  }

  /** The labeled audit sample of a version, in a window of UTC days or (without one) all of it. */
  async labeledDraws(
    userId: string,
    versionId: string,
    days?: { fromDay: string; toDay: string },
  ): Promise<LabeledDrawRow[]> {
    const rows = await this.sql.rows(auditLabels, {
      userId,
      versionId,
      fromDay: days?.fromDay ?? null,
      toDay: days?.toDay ?? null,
    });
    // A draw's labels come together (ordered by evaluation).
    const draws: LabeledDrawRow[] = [];
    let evaluationId: string | undefined;
    for (const row of rows) {
      if (row.evaluationId !== evaluationId) {
        evaluationId = row.evaluationId;
        draws.push({ status: row.status, auditProbability: row.auditProbability, answers: {}, labels: {} });
      }
      const draw = draws[draws.length - 1];
      if (row.model !== null) draw.answers[row.questionId] = row.model;
      draw.labels[row.questionId] = row.label;
    }
    return draws;
  }
}
