import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ENQUEUE_TIMEOUT_MS, QUEUES, within } from '@app/jobs';
import { JUDGE_SHADOW_JOB, type JudgeShadowPayload } from './jobs/judge-shadow.job.js';
import type { SampleShadowPayload } from './jobs/sample-shadow.job.js';

/** Enqueues shadow judgments; job ids make every call safe to repeat. */
@Injectable()
export class ShadowQueue {
  constructor(
    @InjectQueue(QUEUES.shadow) private readonly queue: Queue<JudgeShadowPayload | SampleShadowPayload>,
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

  /** Judgments in the queue: waiting (prioritized), delayed by a retry's backoff, or running. */
  async openJobs(): Promise<number> {
    const counts = await within(
      this.queue.getJobCounts('prioritized', 'waiting', 'delayed', 'active'),
      ENQUEUE_TIMEOUT_MS,
    );
    return Object.values(counts).reduce((sum, count) => sum + count, 0);
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
