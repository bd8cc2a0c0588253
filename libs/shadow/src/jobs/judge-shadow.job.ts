import type { Job } from 'bullmq';
import { defineJob, isLastAttempt, QUEUES, retriedJobOptions, type JobHandler } from '@app/jobs';
import type { ShadowOutcome, ShadowRunner } from '../shadow-runner.js';

export interface JudgeShadowPayload {
  runId: string;
  evaluationId: string;
}

/**
 * Judges one sampled live evaluation again with the run's version and records it once. Low
 * priority on its own queue: shadow work waits behind the sampler and never holds a slot of the
 * inbound or simulation queues (docs/shadow-runs.md).
 */
export const JUDGE_SHADOW_JOB = defineJob<JudgeShadowPayload, ShadowOutcome>()({
  queue: QUEUES.shadow,
  name: 'judge',
  jobId: (runId: string, evaluationId: string) => `shadow-${runId}-${evaluationId}`,
  /** An unreachable model is retried with backoff; the last attempt records the failure. */
  options: {
    ...retriedJobOptions({
      attempts: 4,
      delayMs: 2_000,
      jitter: 0.3,
      keepCompleted: 1_000,
      keepFailed: 1_000,
    }),
    priority: 10,
  },
});

export class JudgeShadowJob implements JobHandler<typeof JUDGE_SHADOW_JOB> {
  readonly definition = JUDGE_SHADOW_JOB;

  constructor(private readonly runner: ShadowRunner) {}

  handle(job: Job<JudgeShadowPayload>): Promise<ShadowOutcome> {
    const { runId, evaluationId } = job.data;
    return this.runner.judge(runId, evaluationId, { lastAttempt: isLastAttempt(job) });
  }
}
