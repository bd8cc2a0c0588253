import type {
  Answer,
  EvaluationStatus,
  JudgmentResult,
  ShadowRunStatus,
  ShadowStopReason,
  Ticket,
} from '@app/domain';
import { defineStatement } from './statement.js';

/** The sources whose evaluations a shadow run samples: live traffic, never simulations or the playground. */
const LIVE_SOURCES = `('api', 'webhook', 'mcp')`;

/**
 * How long an evaluation settles before the sampler looks at it: rows are stamped with
 * clock_timestamp() before they commit, so a cursor that ran up to the present could pass a row
 * committed a moment later with an earlier stamp. One second is far beyond a single insert.
 */
const SETTLE = `interval '1 second'`;

/**
 * When the oldest client transaction still open on this database (not the caller's, nor autovacuum's) began: a row
 * not yet committed was stamped after it, so every row stamped before it has committed (or never
 * will). Bounds the cursor beside SETTLE, for a commit that waits on a lock longer than that.
 */
const OLDEST_OPEN_TRANSACTION = `COALESCE((
         SELECT min(xact_start) FROM pg_stat_activity
          WHERE datname = current_database() AND backend_type = 'client backend'
            AND pid <> pg_backend_pid() AND xact_start IS NOT NULL
       ), 'infinity'::timestamptz)`;

const RUN_COLUMNS = `
  r.id, r.user_id AS "userId", r.pack_id AS "packId", r.pack_version_id AS "versionId",
  r.sample_rate AS "sampleRate", r.max_judgments AS "maxJudgments", r.status,
  r.stop_reason AS "stopReason", r.sampled, r.judged, r.created_at AS "createdAt",
  r.stopped_at AS "stoppedAt",
  (v.document = d.document) AS "matchesDraft"`;

const RUN_FROM = `
  shadow_runs r
  JOIN pack_versions v ON v.id = r.pack_version_id
  JOIN packs p ON p.id = r.pack_id
  JOIN pack_versions d ON d.id = p.draft_version_id`;

export interface ShadowRunRow {
  id: string;
  userId: string;
  packId: string;
  versionId: string;
  sampleRate: number;
  maxJudgments: number | null;
  status: ShadowRunStatus;
  stopReason: ShadowStopReason | null;
  sampled: number;
  judged: number;
  createdAt: Date;
  stoppedAt: Date | null;
  /** Whether the run's version holds the pack's draft document as it is now. */
  matchesDraft: boolean;
}

/** A frozen copy of the pack's draft (copied inside Postgres): what a run without `versionId` judges with. */
export const freezeDraft = defineStatement<{ newVersionId: string; draftVersionId: string }>({
  name: 'shadow.freezeDraft',
  sql: `
    INSERT INTO pack_versions (id, pack_id, user_id, document, frozen_at)
    SELECT :newVersionId, pack_id, user_id, document, now() FROM pack_versions WHERE id = :draftVersionId`,
});

/** A new active run; a pack's second active run fails on shadow_runs_one_active_key. */
export const insertShadowRun = defineStatement<{
  id: string;
  userId: string;
  packId: string;
  versionId: string;
  sampleRate: number;
  maxJudgments: number | null;
}>({
  name: 'shadow.insertRun',
  sql: `
    INSERT INTO shadow_runs (id, user_id, pack_id, pack_version_id, sample_rate, max_judgments, scanned_until)
    VALUES (:id, :userId, :packId, :versionId, :sampleRate, :maxJudgments, clock_timestamp())`,
});

export const findShadowRun = defineStatement<{ userId: string; id: string }, ShadowRunRow>({
  name: 'shadow.findRun',
  sql: `SELECT ${RUN_COLUMNS} FROM ${RUN_FROM} WHERE r.user_id = :userId AND r.id = :id AND p.deleted_at IS NULL`,
});

/** A pack's runs, newest first. */
export const listShadowRuns = defineStatement<{ userId: string; packId: string }, ShadowRunRow>({
  name: 'shadow.listRuns',
  sql: `
    SELECT ${RUN_COLUMNS} FROM ${RUN_FROM}
     WHERE r.user_id = :userId AND r.pack_id = :packId
     ORDER BY r.created_at DESC, r.id DESC
     LIMIT 200`,
});

/** Locks an active run for its stop (run in the stop's transaction); no row when it had stopped. */
export const lockShadowRunForStop = defineStatement<{ userId: string; id: string }, { id: string }>({
  name: 'shadow.lockForStop',
  sql: `SELECT id FROM shadow_runs WHERE id = :id AND user_id = :userId AND status = 'active' FOR UPDATE`,
});

/** The locked run's drawn evaluations not yet judged, dropped; their count. */
export const dropPendingJudgments = defineStatement<{ id: string }, { dropped: number }>({
  name: 'shadow.dropPending',
  sql: `
    WITH dropped AS (
      DELETE FROM shadow_judgments WHERE shadow_run_id = :id AND state = 'pending' RETURNING 1
    )
    SELECT count(*)::int AS dropped FROM dropped`,
});

/** The locked run, stopped: `sampled` no longer counts what was dropped. */
export const markShadowRunStopped = defineStatement<{
  id: string;
  reason: ShadowStopReason;
  dropped: number;
}>({
  name: 'shadow.markStopped',
  sql: `
    UPDATE shadow_runs
       SET status = 'stopped', stop_reason = :reason, stopped_at = clock_timestamp(), sampled = sampled - :dropped
     WHERE id = :id`,
});

export interface ActiveShadowRun {
  id: string;
  userId: string;
  packId: string;
  packDeleted: boolean;
  /** Drawn and not judged yet. */
  pending: number;
}

/** Every active run, for the sampler; a run whose pack was deleted is stopped by it. */
export const activeShadowRuns = defineStatement<Record<never, never>, ActiveShadowRun>({
  name: 'shadow.activeRuns',
  sql: `
    SELECT r.id, r.user_id AS "userId", r.pack_id AS "packId", p.deleted_at IS NOT NULL AS "packDeleted",
           r.sampled - r.judged AS pending
      FROM shadow_runs r JOIN packs p ON p.id = r.pack_id
     WHERE r.status = 'active'
     ORDER BY r.created_at`,
});

export interface SamplingState {
  sampleRate: number;
  maxJudgments: number | null;
  sampled: number;
  /** Drawn and not judged yet. */
  pending: number;
}

/** The run's rate and counters, locked for one sampling step (run in its transaction). */
export const lockShadowRunForSampling = defineStatement<{ id: string }, SamplingState>({
  name: 'shadow.lockForSampling',
  sql: `
    SELECT sample_rate AS "sampleRate", max_judgments AS "maxJudgments", sampled, sampled - judged AS pending
      FROM shadow_runs WHERE id = :id AND status = 'active' FOR UPDATE`,
});

/**
 * The pack's live evaluations after the run's cursor, settled, oldest first (evaluations_user_pack_idx).
 * The cursor is compared in SQL, at the microseconds Postgres stores: a timestamp taken through
 * JavaScript would keep milliseconds and look at the cursor's own row again.
 */
export const shadowCandidates = defineStatement<
  { runId: string; userId: string; packId: string; limit: number },
  { id: string }
>({
  name: 'shadow.candidates',
  sql: `
    SELECT e.id
      FROM shadow_runs r
      JOIN evaluations e
        ON e.user_id = :userId AND e.pack_id = :packId
       AND (e.created_at, e.id) > (r.scanned_until, COALESCE(r.scanned_until_id, '00000000-0000-0000-0000-000000000000'))
     WHERE r.id = :runId
       AND e.created_at <= LEAST(now() - ${SETTLE}, ${OLDEST_OPEN_TRANSACTION})
       AND e.source IN ${LIVE_SOURCES}
     ORDER BY e.created_at, e.id
     LIMIT :limit`,
});

/** The drawn evaluations as pending judgments, and the cursor moved past what was looked at. */
export const recordSample = defineStatement<{
  id: string;
  userId: string;
  evaluationIds: string[];
  untilId: string;
}>({
  name: 'shadow.recordSample',
  sql: `
    WITH drawn AS (
      INSERT INTO shadow_judgments (shadow_run_id, evaluation_id, user_id)
      SELECT :id, unnest(:evaluationIds::uuid[]), :userId
      ON CONFLICT DO NOTHING RETURNING 1
    )
    UPDATE shadow_runs
       SET sampled = sampled + (SELECT count(*) FROM drawn), scanned_until_id = :untilId,
           scanned_until = (SELECT created_at FROM evaluations WHERE id = :untilId)
     WHERE id = :id`,
});

export interface PendingShadowJudgment {
  runId: string;
  evaluationId: string;
}

/** Pending judgments of active runs drawn before `olderThanMs` ago: their jobs may be lost (Redis restarted). */
export const stalePendingJudgments = defineStatement<
  { olderThanMs: number; limit: number },
  PendingShadowJudgment
>({
  name: 'shadow.stalePending',
  sql: `
    SELECT j.shadow_run_id AS "runId", j.evaluation_id AS "evaluationId"
      FROM shadow_judgments j JOIN shadow_runs r ON r.id = j.shadow_run_id
     WHERE j.state = 'pending' AND r.status = 'active'
       AND j.sampled_at < clock_timestamp() - make_interval(secs => :olderThanMs::double precision / 1000)
     ORDER BY j.sampled_at
     LIMIT :limit`,
});

export interface ShadowJobState {
  state: 'pending' | 'judged' | 'failed';
  runStatus: ShadowRunStatus;
  userId: string;
  packId: string;
  versionId: string;
  ticket: Ticket;
  liveStatus: EvaluationStatus;
  liveAnswers: Record<string, Answer> | null;
}

/** What one shadow job needs: the pending row, its run, and the live evaluation's redacted ticket and answers. */
export const shadowJobState = defineStatement<{ runId: string; evaluationId: string }, ShadowJobState>({
  name: 'shadow.jobState',
  sql: `
    SELECT j.state, r.status AS "runStatus", r.user_id AS "userId", r.pack_id AS "packId",
           r.pack_version_id AS "versionId", e.redacted_ticket AS ticket, e.status AS "liveStatus",
           e.result -> 'answers' AS "liveAnswers"
      FROM shadow_judgments j
      JOIN shadow_runs r ON r.id = j.shadow_run_id
      JOIN evaluations e ON e.id = j.evaluation_id
     WHERE j.shadow_run_id = :runId AND j.evaluation_id = :evaluationId`,
});

/**
 * Stores a pending judgment's outcome and counts it on its active run, which stops at its cap: one
 * statement, so a job run twice stores and counts once, and a run stopped meanwhile (its pending
 * rows dropped) stores nothing. Returns the run's status after the count; no row when nothing was stored.
 */
export const recordShadowJudgment = defineStatement<
  {
    runId: string;
    evaluationId: string;
    state: 'judged' | 'failed';
    liveStatus: string;
    status: string;
    result: JudgmentResult;
    answerPairs: Record<string, [string, string]>;
    modelId: string;
    latencyMs: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number | null;
  },
  { status: ShadowRunStatus }
>({
  name: 'shadow.recordJudgment',
  json: ['result', 'answerPairs'],
  sql: `
    WITH done AS (
      UPDATE shadow_judgments
         SET state = :state, live_status = :liveStatus, status = :status, result = :result,
             answer_pairs = :answerPairs, model_id = :modelId, latency_ms = :latencyMs,
             input_tokens = :inputTokens, output_tokens = :outputTokens, cost_usd = :costUsd,
             judged_at = clock_timestamp()
       WHERE shadow_run_id = :runId AND evaluation_id = :evaluationId AND state = 'pending'
         AND EXISTS (SELECT 1 FROM shadow_runs WHERE id = :runId AND status = 'active')
      RETURNING shadow_run_id
    )
    UPDATE shadow_runs r
       SET judged = r.judged + 1,
           status = CASE WHEN r.judged + 1 >= r.max_judgments THEN 'stopped' ELSE r.status END,
           stop_reason = CASE WHEN r.judged + 1 >= r.max_judgments THEN 'max_judgments' ELSE r.stop_reason END,
           stopped_at = CASE WHEN r.judged + 1 >= r.max_judgments THEN clock_timestamp() ELSE r.stopped_at END
      FROM done
     WHERE r.id = done.shadow_run_id
    RETURNING r.status`,
});

export interface ShadowTotalsRow {
  judged: number;
  failed: number;
  pending: number;
  liveReview: number;
  shadowReview: number;
  liveInputTokens: number;
  liveOutputTokens: number;
  shadowInputTokens: number;
  shadowOutputTokens: number;
  liveCostUsd: number;
  liveUnknownCost: number;
  shadowCostUsd: number;
  shadowUnknownCost: number;
  liveLatencyMean: number | null;
  liveLatencyP95: number | null;
  shadowLatencyMean: number | null;
  shadowLatencyP95: number | null;
}

/** A run's counts, review shares, tokens, cost and latencies on both sides, over its judged rows. */
export const shadowTotals = defineStatement<{ userId: string; runId: string }, ShadowTotalsRow>({
  name: 'shadow.totals',
  sql: `
    SELECT count(*) FILTER (WHERE j.state <> 'pending')::int AS judged,
           count(*) FILTER (WHERE j.state = 'failed')::int AS failed,
           count(*) FILTER (WHERE j.state = 'pending')::int AS pending,
           count(*) FILTER (WHERE j.state <> 'pending' AND j.live_status = 'review')::int AS "liveReview",
           count(*) FILTER (WHERE j.state <> 'pending' AND j.status = 'review')::int AS "shadowReview",
           COALESCE(sum(e.input_tokens) FILTER (WHERE j.state <> 'pending'), 0)::bigint::float8 AS "liveInputTokens",
           COALESCE(sum(e.output_tokens) FILTER (WHERE j.state <> 'pending'), 0)::bigint::float8 AS "liveOutputTokens",
           COALESCE(sum(j.input_tokens), 0)::bigint::float8 AS "shadowInputTokens",
           COALESCE(sum(j.output_tokens), 0)::bigint::float8 AS "shadowOutputTokens",
           COALESCE(sum(e.cost_usd) FILTER (WHERE j.state <> 'pending'), 0)::float8 AS "liveCostUsd",
           count(*) FILTER (WHERE j.state <> 'pending' AND e.cost_usd IS NULL)::int AS "liveUnknownCost",
           COALESCE(sum(j.cost_usd), 0)::float8 AS "shadowCostUsd",
           count(*) FILTER (WHERE j.state <> 'pending' AND j.cost_usd IS NULL)::int AS "shadowUnknownCost",
           avg(e.latency_ms) FILTER (WHERE j.state <> 'pending')::float8 AS "liveLatencyMean",
           percentile_cont(0.95) WITHIN GROUP (ORDER BY e.latency_ms) FILTER (WHERE j.state <> 'pending') AS "liveLatencyP95",
           avg(j.latency_ms)::float8 AS "shadowLatencyMean",
           percentile_cont(0.95) WITHIN GROUP (ORDER BY j.latency_ms) FILTER (WHERE j.state <> 'pending') AS "shadowLatencyP95"
      FROM shadow_judgments j JOIN evaluations e ON e.id = j.evaluation_id
     WHERE j.shadow_run_id = :runId AND j.user_id = :userId`,
});

/** live status -> shadow status counts over the judged rows. */
export const shadowStatusChanges = defineStatement<
  { userId: string; runId: string },
  { from: string; to: string; count: number }
>({
  name: 'shadow.statusChanges',
  sql: `
    SELECT live_status AS "from", status AS "to", count(*)::int AS count
      FROM shadow_judgments
     WHERE shadow_run_id = :runId AND user_id = :userId AND state <> 'pending'
     GROUP BY live_status, status
     ORDER BY live_status, status`,
});

/** Per question, live answer -> shadow answer counts, with the first evaluations behind each cell. */
export const shadowAnswerFlips = defineStatement<
  { userId: string; runId: string; examples: number },
  { questionId: string; from: string; to: string; count: number; evaluationIds: string[] }
>({
  name: 'shadow.answerFlips',
  sql: `
    SELECT q.key AS "questionId", q.value ->> 0 AS "from", q.value ->> 1 AS "to", count(*)::int AS count,
           (array_agg(j.evaluation_id ORDER BY j.judged_at, j.evaluation_id))[1:(:examples)] AS "evaluationIds"
      FROM shadow_judgments j, jsonb_each(j.answer_pairs) q
     WHERE j.shadow_run_id = :runId AND j.user_id = :userId AND j.state <> 'pending'
     GROUP BY q.key, q.value ->> 0, q.value ->> 1
     ORDER BY q.key, q.value ->> 0, q.value ->> 1`,
});

export interface ShadowLabelRow {
  questionId: string;
  label: Answer;
  live: Answer | null;
  shadow: Answer | null;
  auditSelected: boolean | null;
  auditProbability: number | null;
}

/**
 * Reviewer labels of the run's judged evaluations, with the live and the shadow answer to each; the
 * live answer and the audit draw from the copies of the evaluation's facts each label carries
 * (migration 1795751500000-label-evaluation-facts).
 */
export const shadowLabels = defineStatement<{ userId: string; runId: string }, ShadowLabelRow>({
  name: 'shadow.labels',
  sql: `
    SELECT l.question_id AS "questionId", l.answer AS label,
           l.judge_answer AS live, j.result -> 'answers' -> l.question_id AS shadow,
           l.audit_selected AS "auditSelected", l.audit_probability AS "auditProbability"
      FROM shadow_judgments j
      JOIN labels l ON l.evaluation_id = j.evaluation_id
     WHERE j.shadow_run_id = :runId AND j.user_id = :userId AND j.state = 'judged'`,
});
