import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type Repository } from 'typeorm';
import {
  GATEWAY_FAILURE_REASONS,
  isUuid,
  type AlertExamples,
  type AlertRuleSettings,
  type AlertStatus,
  type PackQualityCounts,
} from '@app/domain';
import { PackAlertRulesEntity } from '../entities/quality-alert.entity.js';
import {
  acknowledgeAlert,
  agreementCounts,
  answerCounts,
  answerExamples,
  closeCleared,
  disagreementExamples,
  listAlerts,
  openAlert,
  packsToCheck,
  refreshAlert,
  statusCounts,
  statusExamples,
  type AlertRow,
  type AlertWindows,
  type CheckedPackRow,
  type NewAlert,
} from '../statements/alerts.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';

export type { AlertRow, AlertWindows, CheckedPackRow, NewAlert };

/** The windows of one check, with the gateway rule's. */
export interface CheckWindows extends AlertWindows {
  gatewaySince: Date;
}

/**
 * Quality alerts and their rule settings. Reads for the routes are scoped by owner; the worker's
 * check reads every pack's counts by the pack's owner too, so each query stays on the owner's indexes.
 */
@Injectable()
export class AlertRepository {
  private readonly rules: Repository<PackAlertRulesEntity>;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    private readonly sql: PreparedSql,
  ) {
    this.rules = dataSource.getRepository(PackAlertRulesEntity);
  }

  /** The pack's stored settings; null when they were never changed (the caller checked the pack). */
  async findRules(userId: string, packId: string): Promise<AlertRuleSettings | null> {
    return (await this.rules.findOneBy({ userId, packId }))?.rules ?? null;
  }

  async saveRules(userId: string, packId: string, rules: AlertRuleSettings): Promise<void> {
    await this.rules.upsert({ packId, userId, rules, updatedAt: new Date() }, ['packId']);
  }

  packsToCheck(baselineSince: Date): Promise<CheckedPackRow[]> {
    return this.sql.rows(packsToCheck, { baselineSince });
  }

  /** A pack's counts in the windows, as the checks of libs/domain take them. */
  async counts(pack: { id: string; userId: string }, windows: CheckWindows): Promise<PackQualityCounts> {
    const scope = { userId: pack.userId, packId: pack.id };
    const window = { recentSince: windows.recentSince, baselineSince: windows.baselineSince };
    const [agreement, answers, statuses] = await Promise.all([
      this.sql.rows(agreementCounts, { ...scope, ...window }),
      this.sql.rows(answerCounts, { ...scope, ...window }),
      this.sql.first(statusCounts, {
        ...scope,
        ...window,
        gatewaySince: windows.gatewaySince,
        gatewayReasons: [...GATEWAY_FAILURE_REASONS],
      }),
    ]);
    const byQuestion = new Map<
      string,
      { recent: Record<string, number>; baseline: Record<string, number> }
    >();
    for (const row of answers) {
      const question = byQuestion.get(row.questionId) ?? { recent: {}, baseline: {} };
      if (row.recent) question.recent[row.category] = row.recent;
      if (row.baseline) question.baseline[row.category] = row.baseline;
      byQuestion.set(row.questionId, question);
    }
    return {
      agreement,
      answers: [...byQuestion].map(([questionId, counts]) => ({ questionId, ...counts })),
      statuses: statuses!,
    };
  }

  /** The ids of up to `limit` example evaluations of a finding, newest first, since `since`. */
  async examples(
    pack: { id: string; userId: string },
    examples: AlertExamples,
    since: Date,
    limit: number,
  ): Promise<string[]> {
    const scope = { userId: pack.userId, packId: pack.id, since, limit };
    let rows: Array<{ id: string }>;
    switch (examples.kind) {
      case 'disagreements':
        rows = await this.sql.rows(disagreementExamples, { ...scope, questionId: examples.questionId });
        break;
      case 'answers':
        rows = await this.sql.rows(answerExamples, {
          ...scope,
          questionId: examples.questionId,
          category: examples.category,
        });
        break;
      case 'reviews':
        rows = await this.sql.rows(statusExamples, { ...scope, reasons: null });
        break;
      case 'gateway_failures':
        rows = await this.sql.rows(statusExamples, { ...scope, reasons: [...GATEWAY_FAILURE_REASONS] });
        break;
    }
    return rows.map((row) => row.id);
  }

  /** Opens the alert and its delivery; null when an alert of its key is open or acknowledged already. */
  open(alert: NewAlert): Promise<{ id: string; deliveryId: string | null } | null> {
    return this.sql.first(openAlert, alert);
  }

  /** Updates the figures of the user's alert not closed of this key; whether there was one. */
  async refresh(
    userId: string,
    alert: Omit<NewAlert, 'id' | 'userId' | 'since' | 'createdAt' | 'deliveryId' | 'payload'>,
  ): Promise<boolean> {
    const { packId, rule, questionId, summary, figures, exampleEvaluationIds } = alert;
    const row = await this.sql.first(refreshAlert, {
      userId,
      packId,
      rule,
      questionId,
      summary,
      figures,
      exampleEvaluationIds,
    });
    return row !== null;
  }

  /** Closes the user's pack's alerts not among `holding`; returns how many. */
  closeCleared(
    userId: string,
    packId: string,
    holding: Array<{ rule: string; questionId: string | null }>,
  ): Promise<number> {
    return this.sql.affected(closeCleared, {
      userId,
      packId,
      holdingRules: holding.map((key) => key.rule),
      holdingQuestions: holding.map((key) => key.questionId ?? ''),
    });
  }

  list(
    userId: string,
    filter: { packId?: string; status?: AlertStatus },
    limit: number,
  ): Promise<AlertRow[]> {
    return this.sql.rows(listAlerts, {
      userId,
      packId: filter.packId ?? null,
      status: filter.status ?? null,
      limit,
    });
  }

  /** Acknowledges the user's alert if open; null for an unknown id or another user's alert. */
  async acknowledge(userId: string, id: string): Promise<AlertRow | null> {
    if (!isUuid(id)) return null;
    return this.sql.first(acknowledgeAlert, { userId, id });
  }
}
