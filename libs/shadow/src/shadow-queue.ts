import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ENQUEUE_TIMEOUT_MS, QUEUES, within } from '@app/jobs';
import { RedisClient } from '@app/persistence';
import { JUDGE_SHADOW_JOB, type JudgeShadowPayload } from './jobs/judge-shadow.job.js';
import type { SampleShadowPayload } from './jobs/sample-shadow.job.js';

/** Enqueues shadow judgments; job ids make every call safe to repeat. */
@Injectable()
export class ShadowQueue {
  constructor(
    @InjectQueue(QUEUES.shadow) private readonly queue: Queue<JudgeShadowPayload | SampleShadowPayload>,
    private readonly redis: RedisClient,
  ) {}

  async judge(runId: string, evaluationIds: readonly string[]): Promise<void> {
    if (!evaluationIds.length) return;
    await within(
      this.queue.addBulk(
        evaluationIds.map((evaluationId) => ({
          name: JUDGE_SHADOW_JOB.name,
          data: { runId, evaluationId },
          opts: { ...JUDGE_SHADOW_JOB.options, jobId: JUDGE_SHADOW_JOB.jobId(runId, evaluationId) },
        })),
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }

  /**
   * Of these judgments, those whose job is missing or finished (completed or failed for good): one
   * pipelined round trip, reading each job's hash for `finishedOn`.
   */
  async lost<T extends { runId: string; evaluationId: string }>(judgments: readonly T[]): Promise<T[]> {
    if (!judgments.length) return [];
    const pipeline = this.redis.pipeline();
    for (const { runId, evaluationId } of judgments)
      pipeline.hmget(this.queue.toKey(JUDGE_SHADOW_JOB.jobId(runId, evaluationId)), 'name', 'finishedOn');
    const replies: Array<[Error | null, unknown]> = (await within(pipeline.exec(), ENQUEUE_TIMEOUT_MS)) ?? [];
    return judgments.filter((_, i) => {
      const [error, fields] = replies[i] ?? [null, null];
      if (error) return false;
      const [name, finishedOn] = (fields as Array<string | null> | null) ?? [null, null];
      return name === null || finishedOn !== null;
    });
  }

  /**
   * For pending judgments whose job may be gone: one waiting, delayed or running is left alone; one
   * that failed for good or completed without recording is replaced; a missing one is added again.
   */
  async requeue(runId: string, evaluationId: string): Promise<void> {
    const job = await within(
      this.queue.getJob(JUDGE_SHADOW_JOB.jobId(runId, evaluationId)),
      ENQUEUE_TIMEOUT_MS,
    );
    if (job) {
      const state = await job.getState();
      if (state !== 'failed' && state !== 'completed') return;
      await job.remove();
    }
    await this.judge(runId, [evaluationId]);
  }
}
