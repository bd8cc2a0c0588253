import { Injectable, Logger } from '@nestjs/common';
import { answerPairs, planShadowDraw } from '@app/domain';
import { isModelUnavailable, JudgeService } from '@app/judging';
import { PackVersionLookup, ShadowRepository, type ActiveShadowRun } from '@app/persistence';
import { ShadowQueue } from './shadow-queue.js';

export type ShadowOutcome = 'recorded' | 'skipped';

export interface SampleOutcome {
  runs: number;
  sampled: number;
  requeued: number;
}

/** Pending judgments enqueued again per sampling step, oldest first. */
const REQUEUED_PER_STEP = 200;

/**
 * At most this many judgments of a run wait at once: a step draws only what brings it up to this,
 * and its cursor stops where it stopped drawing, so the same evaluations are drawn later (the draw
 * depends on the ids alone). Bounds what a run at a high rate on busy traffic puts in Redis.
 */
export const MAX_PENDING_PER_RUN = 1_000;

/**
 * The worker side of shadow runs (docs/shadow-runs.md). Sampling draws each live evaluation once
 * per run, in Postgres first, then enqueues; judging records each drawn evaluation once. Nothing
 * here writes to a live evaluation: a shadow failure stays in its shadow judgment.
 */
@Injectable()
export class ShadowRunner {
  private readonly logger = new Logger(ShadowRunner.name);

  constructor(
    private readonly shadows: ShadowRepository,
    private readonly versions: PackVersionLookup,
    private readonly judgeService: JudgeService,
    private readonly queue: ShadowQueue,
  ) {}

  /**
   * One sampling step over every active run, then the pending judgments drawn `staleAfterMs` ago or
   * more enqueued again (their jobs may have been lost with Redis). A run whose pack was deleted stops.
   */
  async sample(staleAfterMs: number): Promise<SampleOutcome> {
    const runs = await this.shadows.activeRuns();
    let sampled = 0;
    for (const run of runs) {
      if (run.packDeleted) {
        await this.shadows.stop(run.userId, run.id, 'pack_deleted');
        continue;
      }
      if (run.pending >= MAX_PENDING_PER_RUN) continue;
      const drawn = await this.shadows.sample(run, (state, candidates) =>
        planShadowDraw(run.id, state, candidates, MAX_PENDING_PER_RUN),
      );
      // Drawn in Postgres already: if Redis is away now, the pending rows are enqueued again later.
      await this.queue
        .judge(run.id, drawn)
        .catch((error: unknown) =>
          this.logger.warn({ err: error, runId: run.id }, 'enqueue failed; a later step will retry'),
        );
      sampled += drawn.length;
    }
    const stale = await this.lostJudgments(runs, staleAfterMs);
    for (const { runId, evaluationId } of stale) await this.queue.requeue(runId, evaluationId);
    if (sampled || stale.length)
      this.logger.log({ runs: runs.length, sampled, requeued: stale.length }, 'shadow runs sampled');
    return { runs: runs.length, sampled, requeued: stale.length };
  }

  /**
   * Of the oldest pending judgments drawn `staleAfterMs` ago or more, those whose job is gone (lost
   * with Redis) or finished without recording: checked in one Redis round trip.
   */
  private async lostJudgments(runs: ActiveShadowRun[], staleAfterMs: number) {
    if (!runs.some((run) => run.pending > 0)) return [];
    return this.queue.lost(await this.shadows.stalePending(staleAfterMs, REQUEUED_PER_STEP));
  }

  /**
   * Judges one drawn evaluation with the run's version. `lastAttempt` false: an unreachable model
   * throws, for the job to be retried; the last attempt records the failure as a failed judgment.
   */
  async judge(runId: string, evaluationId: string, { lastAttempt = true } = {}): Promise<ShadowOutcome> {
    const state = await this.shadows.jobState(runId, evaluationId);
    if (!state || state.state !== 'pending' || state.runStatus !== 'active') return 'skipped';
    const version = await this.versions.find(state.userId, state.versionId);
    if (!version) return 'skipped';
    const { result, failure, costUsd } = await this.judgeService.judgeShadow({
      userId: state.userId,
      packId: state.packId,
      packVersionId: state.versionId,
      document: version.document,
      ticket: state.ticket,
    });
    if (!lastAttempt && isModelUnavailable(result))
      throw new Error('the model gateway was unavailable; the shadow judgment will be tried again');
    const status = await this.shadows.record({
      runId,
      evaluationId,
      state: failure ? 'failed' : 'judged',
      liveStatus: state.liveStatus,
      status: result.status,
      result,
      answerPairs: answerPairs(
        version.document.questions.map((question) => question.id),
        state.liveAnswers ?? {},
        result.answers,
      ),
      modelId: result.modelId,
      latencyMs: result.latencyMs,
      inputTokens: result.usage?.inputTokens ?? 0,
      outputTokens: result.usage?.outputTokens ?? 0,
      costUsd,
    });
    if (status === 'stopped') this.logger.log({ runId }, 'shadow run reached its maxJudgments and stopped');
    return status ? 'recorded' : 'skipped';
  }
}
