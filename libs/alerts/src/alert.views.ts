import type { AlertRule, AlertStatus } from '@app/domain';
import type { AlertRow } from '@app/persistence';

/** An alert as the routes answer it and as `quality.alert` deliveries carry it. */
export interface AlertView {
  id: string;
  packId: string;
  rule: AlertRule;
  questionId: string | null;
  status: AlertStatus;
  summary: string;
  figures: Record<string, unknown>;
  exampleEvaluationIds: string[];
  since: string;
  createdAt: string;
  updatedAt: string;
  acknowledgedAt: string | null;
  closedAt: string | null;
}

export function toAlertView(row: AlertRow): AlertView {
  return {
    id: row.id,
    packId: row.packId,
    rule: row.rule,
    questionId: row.questionId,
    status: row.status,
    summary: row.summary,
    figures: row.figures,
    exampleEvaluationIds: row.exampleEvaluationIds,
    since: row.since.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}
