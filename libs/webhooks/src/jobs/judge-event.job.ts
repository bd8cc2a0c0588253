import type { Job } from 'bullmq';
import { defineJob, isLastAttempt, QUEUES, retriedJobOptions, type JobHandler } from '@app/jobs';
import type { InboundJudge } from '../inbound-judge.js';

export interface JudgeEventPayload {
  eventId: string;
}

/** Judges an accepted inbound event and records its evaluation (and delivery) exactly once. */
export const JUDGE_EVENT_JOB = defineJob<JudgeEventPayload, 'judged' | 'duplicate'>()({
  queue: QUEUES.webhooks,
  name: 'judge-event',
  jobId: (eventId: string) => `event-${eventId}`,
  options: retriedJobOptions({ attempts: 6, delayMs: 1_000, keepCompleted: 5_000, keepFailed: 5_000 }),
});

export class JudgeEventJob implements JobHandler<typeof JUDGE_EVENT_JOB> {
  readonly definition = JUDGE_EVENT_JOB;

  constructor(private readonly inbound: InboundJudge) {}

  handle(job: Job<JudgeEventPayload>): Promise<'judged' | 'duplicate'> {
    return this.inbound.judgeEvent(job.data.eventId, { lastAttempt: isLastAttempt(job) });
  }
}
