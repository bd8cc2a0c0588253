import type { AlertRule, AlertStatus } from '@app/domain';
import type { QualityAlertEntity } from '../entities/quality-alert.entity.js';
import { aligned, defineStatement } from './statement.js';

/**
 * Quality alerts (docs/alerts.md): the worker's counts per pack, the alerts' lifecycle, and the
 * routes' reads. Only live evaluations count (sources api, webhook, mcp). The windows are passed
 * in: recent = [recentSince, now), baseline = [baselineSince, recentSince), gateway = [gatewaySince, now).
 */
export type AlertRow = Omit<QualityAlertEntity, 'userId'>;

const ALERT = `
  id, pack_id AS "packId", rule, question_id AS "questionId", status, summary, figures,
  example_evaluation_ids::text[] AS "exampleEvaluationIds", since, created_at AS "createdAt",
  updated_at AS "updatedAt", acknowledged_at AS "acknowledgedAt", closed_at AS "closedAt"`.trim();

const LIVE = `source IN ('api', 'webhook', 'mcp')`;

export interface AlertWindows {
  recentSince: Date;
  baselineSince: Date;
}

/** A pack the worker checks: published, not deleted, with live traffic in the windows or an alert not closed. */
export interface CheckedPackRow {
  id: string;
  userId: string;
  rules: Record<string, object> | null;
}

export const packsToCheck = defineStatement<{ baselineSince: Date }, CheckedPackRow>({
  name: 'alerts.packsToCheck',
  sql: `
    SELECT p.id, p.user_id AS "userId", r.rules
      FROM packs p
      LEFT JOIN pack_alert_rules r ON r.pack_id = p.id
     WHERE p.deleted_at IS NULL AND p.live_version_id IS NOT NULL
       AND (EXISTS (SELECT 1 FROM evaluations e
                     WHERE e.user_id = p.user_id AND e.pack_id = p.id AND e.created_at >= :baselineSince
                       AND e.${LIVE})
            OR EXISTS (SELECT 1 FROM quality_alerts a WHERE a.pack_id = p.id AND a.status <> 'closed'))`,
});

/** Per question: the owner's labels on live evaluations of each window, and how many agree. */
export const agreementCounts = defineStatement<
  { userId: string; packId: string } & AlertWindows,
  {
    questionId: string;
    recentLabels: number;
    recentAgreed: number;
    baselineLabels: number;
    baselineAgreed: number;
  }
>({
  name: 'alerts.agreementCounts',
  sql: `
    SELECT l.question_id AS "questionId",
           count(*) FILTER (WHERE e.created_at >= :recentSince)::int AS "recentLabels",
           count(*) FILTER (WHERE e.created_at >= :recentSince AND l.agreement)::int AS "recentAgreed",
           count(*) FILTER (WHERE e.created_at < :recentSince)::int AS "baselineLabels",
           count(*) FILTER (WHERE e.created_at < :recentSince AND l.agreement)::int AS "baselineAgreed"
      FROM evaluations e
      JOIN labels l ON l.evaluation_id = e.id AND l.user_id = :userId
     WHERE e.user_id = :userId AND e.pack_id = :packId AND e.created_at >= :baselineSince AND e.${LIVE}
     GROUP BY l.question_id`,
});

/** An answer's category as `answerCategory` (libs/domain) reads it: the choice, the boolean's side, the score. */
const CATEGORY = `
  CASE a.value ->> 'type'
    WHEN 'choice' THEN a.value ->> 'choice'
    WHEN 'boolean' THEN CASE WHEN (a.value ->> 'probability')::float8 >= 0.5 THEN 'true' ELSE 'false' END
    ELSE a.value ->> 'score'
  END`.trim();

/** Per question and answer category: the live evaluations of each window that gave it. */
export const answerCounts = defineStatement<
  { userId: string; packId: string } & AlertWindows,
  { questionId: string; category: string; recent: number; baseline: number }
>({
  name: 'alerts.answerCounts',
  sql: `
    SELECT a.key AS "questionId", ${aligned(CATEGORY, 11)} AS category,
           count(*) FILTER (WHERE e.created_at >= :recentSince)::int AS recent,
           count(*) FILTER (WHERE e.created_at < :recentSince)::int AS baseline
      FROM evaluations e
     CROSS JOIN LATERAL jsonb_each(e.result -> 'answers') AS a
     WHERE e.user_id = :userId AND e.pack_id = :packId AND e.created_at >= :baselineSince AND e.${LIVE}
     GROUP BY 1, 2`,
});

/** The pack's live evaluations in review per window, and those with a gateway failure since `gatewaySince`. */
export const statusCounts = defineStatement<
  { userId: string; packId: string; gatewaySince: Date; gatewayReasons: string[] } & AlertWindows,
  {
    recentTotal: number;
    recentReview: number;
    baselineTotal: number;
    baselineReview: number;
    gatewayTotal: number;
    gatewayFailed: number;
  }
>({
  name: 'alerts.statusCounts',
  sql: `
    SELECT count(*) FILTER (WHERE created_at >= :recentSince)::int AS "recentTotal",
           count(*) FILTER (WHERE created_at >= :recentSince AND status = 'review')::int AS "recentReview",
           count(*) FILTER (WHERE created_at < :recentSince)::int AS "baselineTotal",
           count(*) FILTER (WHERE created_at < :recentSince AND status = 'review')::int AS "baselineReview",
           count(*) FILTER (WHERE created_at >= :gatewaySince)::int AS "gatewayTotal",
           count(*) FILTER (WHERE created_at >= :gatewaySince
                              AND result -> 'reviewReasons' ?| :gatewayReasons::text[])::int AS "gatewayFailed"
      FROM evaluations
     WHERE user_id = :userId AND pack_id = :packId AND created_at >= LEAST(:baselineSince, :gatewaySince)
       AND ${LIVE}`,
});

type ExampleParams = { userId: string; packId: string; since: Date; limit: number };

/** The newest recent evaluations whose label of the question disagrees with the judge. */
export const disagreementExamples = defineStatement<ExampleParams & { questionId: string }, { id: string }>({
  name: 'alerts.disagreementExamples',
  sql: `
    SELECT e.id FROM evaluations e
      JOIN labels l ON l.evaluation_id = e.id AND l.user_id = :userId
     WHERE e.user_id = :userId AND e.pack_id = :packId AND e.created_at >= :since AND e.${LIVE}
       AND l.question_id = :questionId AND NOT l.agreement
     ORDER BY e.created_at DESC LIMIT :limit`,
});

/** The newest recent evaluations that gave the question an answer in `category`. */
export const answerExamples = defineStatement<
  ExampleParams & { questionId: string; category: string },
  { id: string }
>({
  name: 'alerts.answerExamples',
  sql: `
    SELECT e.id FROM evaluations e
     CROSS JOIN LATERAL (SELECT e.result -> 'answers' -> :questionId AS value) AS a
     WHERE e.user_id = :userId AND e.pack_id = :packId AND e.created_at >= :since AND e.${LIVE}
       AND a.value IS NOT NULL AND ${aligned(CATEGORY, 11)} = :category
     ORDER BY e.created_at DESC LIMIT :limit`,
});

/** The newest recent evaluations in review, or (with reasons) with one of these review reasons. */
export const statusExamples = defineStatement<ExampleParams & { reasons: string[] | null }, { id: string }>({
  name: 'alerts.statusExamples',
  sql: `
    SELECT id FROM evaluations
     WHERE user_id = :userId AND pack_id = :packId AND created_at >= :since AND ${LIVE} AND status = 'review'
       AND (:reasons::text[] IS NULL OR result -> 'reviewReasons' ?| :reasons::text[])
     ORDER BY created_at DESC LIMIT :limit`,
  plannedPerCall: true,
});

export interface NewAlert {
  id: string;
  userId: string;
  packId: string;
  rule: AlertRule;
  questionId: string | null;
  summary: string;
  figures: Record<string, unknown>;
  exampleEvaluationIds: string[];
  since: Date;
  createdAt: Date;
  deliveryId: string;
  payload: Record<string, unknown>;
}

/**
 * Opens an alert unless one of its (pack, rule, question) is open or acknowledged, and, when the
 * user has a completion endpoint, its delivery: one statement. No row when an alert was there.
 */
export const openAlert = defineStatement<NewAlert, { id: string; deliveryId: string | null }>({
  name: 'alerts.open',
  sql: `
    WITH alert AS (
      INSERT INTO quality_alerts (id, user_id, pack_id, rule, question_id, summary, figures,
                                  example_evaluation_ids, since, created_at, updated_at)
      VALUES (:id, :userId, :packId, :rule, :questionId, :summary, :figures::jsonb,
              :exampleEvaluationIds::uuid[], :since, :createdAt, :createdAt)
      ON CONFLICT (pack_id, rule, (COALESCE(question_id, ''))) WHERE status <> 'closed' DO NOTHING
      RETURNING id, user_id
    ), delivery AS (
      INSERT INTO webhook_deliveries (id, user_id, type, alert_id, payload, next_attempt_at)
      SELECT :deliveryId::uuid, alert.user_id, 'quality.alert', alert.id, :payload::jsonb, now() FROM alert
       WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.user_id = alert.user_id)
      RETURNING id
    )
    SELECT alert.id, (SELECT id FROM delivery) AS "deliveryId" FROM alert`,
  json: ['figures', 'payload'],
});

/** The figures of a condition that still holds, on its alert not closed (nothing is sent again). */
export const refreshAlert = defineStatement<
  {
    userId: string;
    packId: string;
    rule: AlertRule;
    questionId: string | null;
    summary: string;
    figures: Record<string, unknown>;
    exampleEvaluationIds: string[];
  },
  { id: string }
>({
  name: 'alerts.refresh',
  sql: `
    UPDATE quality_alerts SET summary = :summary, figures = :figures::jsonb,
           example_evaluation_ids = :exampleEvaluationIds::uuid[], updated_at = clock_timestamp()
     WHERE user_id = :userId AND pack_id = :packId AND rule = :rule
       AND COALESCE(question_id, '') = COALESCE(:questionId::text, '')
       AND status <> 'closed'
    RETURNING id`,
  json: ['figures'],
});

/** Closes the pack's alerts whose condition no longer holds: every one not closed but the `holding` keys. */
export const closeCleared = defineStatement<
  { userId: string; packId: string; holdingRules: string[]; holdingQuestions: string[] },
  { id: string }
>({
  name: 'alerts.closeCleared',
  sql: `
    UPDATE quality_alerts SET status = 'closed', closed_at = clock_timestamp(), updated_at = clock_timestamp()
     WHERE user_id = :userId AND pack_id = :packId AND status <> 'closed'
       AND (rule, COALESCE(question_id, '')) NOT IN (
             SELECT * FROM unnest(:holdingRules::text[], :holdingQuestions::text[]))
    RETURNING id`,
});

/** The user's alerts, open first, then newest; a null pack or status does not filter. */
export const listAlerts = defineStatement<
  { userId: string; packId: string | null; status: AlertStatus | null; limit: number },
  AlertRow
>({
  name: 'alerts.list',
  sql: `
    SELECT ${aligned(ALERT, 11)}
      FROM quality_alerts
     WHERE user_id = :userId AND (:packId::uuid IS NULL OR pack_id = :packId)
       AND (:status::text IS NULL OR status = :status)
     ORDER BY status = 'open' DESC, created_at DESC, id DESC LIMIT :limit`,
  plannedPerCall: true,
});

/** Acknowledges the user's open alert; an acknowledged or closed one is returned as it is. */
export const acknowledgeAlert = defineStatement<{ userId: string; id: string }, AlertRow>({
  name: 'alerts.acknowledge',
  sql: `
    WITH acked AS (
      UPDATE quality_alerts SET status = 'acknowledged', acknowledged_at = clock_timestamp(),
             updated_at = clock_timestamp()
       WHERE id = :id AND user_id = :userId AND status = 'open'
      RETURNING *
    )
    SELECT ${aligned(ALERT, 11)} FROM acked
     UNION ALL
    SELECT ${aligned(ALERT, 11)} FROM quality_alerts
     WHERE id = :id AND user_id = :userId AND NOT EXISTS (SELECT 1 FROM acked)`,
});
