import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isUuid, type ShadowDraw, type ShadowSamplingState, type ShadowStopReason } from '@app/domain';
import { PreparedSql } from '../statements/prepared-sql.js';
import {
  activeShadowRuns,
  dropPendingJudgments,
  findShadowRun,
  freezeDraft,
  insertShadowRun,
  listShadowRuns,
  lockShadowRunForSampling,
  lockShadowRunForStop,
  markShadowRunStopped,
  recordSample,
  recordShadowJudgment,
  shadowAnswerFlips,
  shadowCandidates,
  shadowJobState,
  shadowLabels,
  shadowStatusChanges,
  shadowTotals,
  stalePendingJudgments,
  type ActiveShadowRun,
  type PendingShadowJudgment,
  type ShadowJobState,
  type ShadowLabelRow,
  type ShadowRunRow,
  type ShadowTotalsRow,
} from '../statements/shadow.statements.js';

export type { ActiveShadowRun, PendingShadowJudgment, ShadowJobState, ShadowLabelRow, ShadowRunRow };

const UNIQUE_VIOLATION = '23505';
/** Live evaluations one sampling step looks at per run; the next step goes on from there. */
const CANDIDATES_PER_STEP = 2_000;
/** Evaluations listed behind each cell of a flip matrix. */
export const FLIP_EXAMPLES = 20;

export interface NewShadowRun {
  userId: string;
  packId: string;
  /** The version to judge with; null freezes `draftVersionId` into a new unpublished version. */
  versionId: string | null;
  draftVersionId: string;
  sampleRate: number;
  maxJudgments: number | null;
}

export type RecordedShadowJudgment = Parameters<typeof recordShadowJudgment.values>[0];

export interface ShadowReportRows {
  totals: ShadowTotalsRow;
  statusChanges: Array<{ from: string; to: string; count: number }>;
  flips: Array<{ questionId: string; from: string; to: string; count: number; evaluationIds: string[] }>;
  labels: ShadowLabelRow[];
}

/**
 * Shadow runs and their judgments. The sampler's draw is the domain's `isShadowSampled`, recomputed
 * from the ids; its cursor and the drawn rows move in one transaction, so a step that fails draws
 * nothing and the next one draws the same evaluations again.
 */
@Injectable()
export class ShadowRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: PreparedSql,
  ) {}

  /**
   * The new run; `active` when the pack has an active run already (shadow_runs_one_active_key);
   * null when the pack was deleted meanwhile.
   */
  async create(input: NewShadowRun): Promise<ShadowRunRow | 'active' | null> {
    const id = randomUUID();
    try {
      await this.dataSource.transaction(async (tx) => {
        let versionId = input.versionId;
        if (versionId === null) {
          versionId = randomUUID();
          await this.sql.query(
            freezeDraft,
            { newVersionId: versionId, draftVersionId: input.draftVersionId },
            tx,
          );
        }
        await this.sql.query(
          insertShadowRun,
          {
            id,
            userId: input.userId,
            packId: input.packId,
            versionId,
            sampleRate: input.sampleRate,
            maxJudgments: input.maxJudgments,
          },
          tx,
        );
      });
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) return 'active';
      throw error;
    }
    return this.find(input.userId, id);
  }

  async find(userId: string, id: string): Promise<ShadowRunRow | null> {
    if (!isUuid(id)) return null;
    return this.sql.first(findShadowRun, { userId, id });
  }

  list(userId: string, packId: string): Promise<ShadowRunRow[]> {
    return this.sql.rows(listShadowRuns, { userId, packId });
  }

  /**
   * True when this call stopped the user's run; false when it had stopped already (or is not the
   * user's). The run's row is locked
   * first, so a sampling step under way (which holds it) commits its draws before they are dropped.
   */
  async stop(userId: string, id: string, reason: ShadowStopReason): Promise<boolean> {
    if (!isUuid(id)) return false;
    return this.dataSource.transaction(async (tx) => {
      if (!(await this.sql.first(lockShadowRunForStop, { userId, id }, tx))) return false;
      const { dropped } = (await this.sql.first(dropPendingJudgments, { id }, tx))!;
      await this.sql.query(markShadowRunStopped, { id, reason, dropped }, tx);
      return true;
    });
  }

  activeRuns(): Promise<ActiveShadowRun[]> {
    return this.sql.rows(activeShadowRuns, {});
  }

  /**
   * One sampling step of one run, with the run's row locked (so steps that overlap share its room):
   * `decide` gets its state and the settled live evaluations after its cursor and returns what to
   * draw and where the cursor stops (the runner's `planShadowDraw`); the drawn ones are stored as
   * pending and the cursor moved, together. Returns the drawn ids.
   */
  async sample(
    run: ActiveShadowRun,
    decide: (state: ShadowSamplingState, candidates: Array<{ id: string }>) => ShadowDraw | null,
  ): Promise<string[]> {
    return this.dataSource.transaction(async (tx) => {
      const state = await this.sql.first(lockShadowRunForSampling, { id: run.id }, tx);
      if (!state) return [];
      const candidates = await this.sql.rows(
        shadowCandidates,
        { runId: run.id, userId: run.userId, packId: run.packId, limit: CANDIDATES_PER_STEP },
        tx,
      );
      const plan = candidates.length ? decide(state, candidates) : null;
      if (!plan) return [];
      await this.sql.query(
        recordSample,
        { id: run.id, userId: run.userId, evaluationIds: plan.drawn, untilId: plan.untilId },
        tx,
      );
      return plan.drawn;
    });
  }

  stalePending(olderThanMs: number, limit: number): Promise<PendingShadowJudgment[]> {
    return this.sql.rows(stalePendingJudgments, { olderThanMs, limit });
  }

  jobState(runId: string, evaluationId: string): Promise<ShadowJobState | null> {
    return this.sql.first(shadowJobState, { runId, evaluationId });
  }

  /** The run's status after recording; null when nothing was stored (recorded before, or the run stopped). */
  async record(judgment: RecordedShadowJudgment): Promise<ShadowRunRow['status'] | null> {
    return (await this.sql.first(recordShadowJudgment, judgment))?.status ?? null;
  }

  /** The user's run's figures; another user's run has none. */
  async report(userId: string, runId: string): Promise<ShadowReportRows> {
    const [totals, statusChanges, flips, labels] = await Promise.all([
      this.sql.first(shadowTotals, { userId, runId }),
      this.sql.rows(shadowStatusChanges, { userId, runId }),
      this.sql.rows(shadowAnswerFlips, { userId, runId, examples: FLIP_EXAMPLES }),
      this.sql.rows(shadowLabels, { userId, runId }),
    ]);
    return { totals: totals!, statusChanges, flips, labels };
  }
}
