import { Worker, type Job, type Queue } from 'bullmq';
import { defineJob, isLastAttempt, QUEUES, retriedJobOptions, type JobHandler } from '@app/jobs';
import type { LiveBacklog } from '../live-backlog.js';
import type { ShadowOutcome, ShadowRunner } from '../shadow-runner.js';

export interface JudgeShadowPayload {
  runId: string;
  evaluationId: string;
}

/** How long shadow judgments stand down when live work is waiting, before looking again. */
export const LIVE_BACKLOG_PAUSE_MS = 1_000;

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

  /** `shadowQueue`: the queue this job runs on, rate-limited while live work waits. */
  constructor(
    private readonly runner: ShadowRunner,
    private readonly liveBacklog: Pick<LiveBacklog, 'busy'>,
    private readonly shadowQueue: Pick<Queue, 'rateLimit'>,
  ) {}

  /**
   * A judgment waits while live work does: with inbound events or simulation tickets waiting, the
   * shadow queue is rate-limited for LIVE_BACKLOG_PAUSE_MS (every worker of it stands down) and the
   * job goes back to wait, without counting an attempt. The limit holds back the whole queue, the
   * sampling step included, so a run does not draw either while live work waits. The Worker needs a
   * limiter for a manual rate limit to be honoured (the processor's `shadowWorkerOptions`).
   */
  async handle(job: Job<JudgeShadowPayload>): Promise<ShadowOutcome> {
    if (await this.liveBacklog.busy()) {
      await this.shadowQueue.rateLimit(LIVE_BACKLOG_PAUSE_MS);
      throw Worker.RateLimitError();
    }
    const { runId, evaluationId } = job.data;
    return this.runner.judge(runId, evaluationId, { lastAttempt: isLastAttempt(job) });
  }
}
