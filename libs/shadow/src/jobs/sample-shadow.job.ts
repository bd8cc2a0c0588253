import type { Job } from 'bullmq';
import { defineJob, QUEUES, type JobHandler } from '@app/jobs';
import type { SampleOutcome, ShadowRunner } from '../shadow-runner.js';

export type SampleShadowPayload = Record<string, never>;

/**
 * Every SHADOW_SAMPLE_MS: draws each active run's sample from the live evaluations since its last
 * draw, enqueues their judgments, and enqueues again pending ones whose job Redis lost.
 */
export const SAMPLE_SHADOW_JOB = defineJob<SampleShadowPayload, SampleOutcome>()({
  queue: QUEUES.shadow,
  name: 'sample',
  schedulerId: 'shadow-sample',
  options: { attempts: 1, removeOnComplete: { count: 100 }, removeOnFail: { count: 100 } },
});

export class SampleShadowJob implements JobHandler<typeof SAMPLE_SHADOW_JOB> {
  readonly definition = SAMPLE_SHADOW_JOB;

  constructor(
    private readonly runner: ShadowRunner,
    private readonly staleAfterMs: number,
  ) {}

  handle(_job: Job<SampleShadowPayload>): Promise<SampleOutcome> {
    return this.runner.sample(this.staleAfterMs);
  }
}
