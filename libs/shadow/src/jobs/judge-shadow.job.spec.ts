import { describe, expect, it, jest } from '@jest/globals';
import { RateLimitError, type Job } from 'bullmq';
import type { ShadowRunner } from '../shadow-runner.js';
import { JudgeShadowJob, LIVE_BACKLOG_PAUSE_MS, type JudgeShadowPayload } from './judge-shadow.job.js';

const judgeRecorded: ShadowRunner['judge'] = async () => 'recorded';

function handler(busy: boolean) {
  const judge = jest.fn(judgeRecorded);
  const rateLimit = jest.fn(async (_ms: number) => undefined);
  const job = new JudgeShadowJob(
    { judge } as unknown as ShadowRunner,
    { busy: async () => busy },
    { rateLimit },
  );
  return { job, judge, rateLimit };
}

const queued = {
  data: { runId: 'run', evaluationId: 'evaluation' },
  attemptsMade: 0,
  opts: { attempts: 4 },
} as unknown as Job<JudgeShadowPayload>;

describe('JudgeShadowJob', () => {
  it('stands the shadow queue down while live work waits, without judging or counting an attempt', async () => {
    const { job, judge, rateLimit } = handler(true);
    await expect(job.handle(queued)).rejects.toBeInstanceOf(RateLimitError);
    expect(rateLimit).toHaveBeenCalledWith(LIVE_BACKLOG_PAUSE_MS);
    expect(judge).not.toHaveBeenCalled();
  });

  it('judges when no live work waits, telling the runner whether this is the last attempt', async () => {
    const { job, judge, rateLimit } = handler(false);
    await expect(job.handle(queued)).resolves.toBe('recorded');
    expect(judge).toHaveBeenCalledWith('run', 'evaluation', { lastAttempt: false });
    expect(rateLimit).not.toHaveBeenCalled();
  });
});
