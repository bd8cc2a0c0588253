import { describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { LiveBacklog } from './live-backlog.js';

/** A queue whose wait list holds `waiting` jobs, counting how often it is asked. */
function fakeQueue(waiting: () => number) {
  const queue = { reads: 0, getWaitingCount: () => (queue.reads++, Promise.resolve(waiting())) };
  return queue;
}

describe('LiveBacklog', () => {
  it('is busy while either live queue has jobs waiting', async () => {
    let inbound = 0;
    let simulations = 0;
    const backlog = new LiveBacklog(
      fakeQueue(() => inbound) as unknown as Queue,
      fakeQueue(() => simulations) as unknown as Queue,
    );
    expect(await backlog.busy(0)).toBe(false);
    inbound = 3;
    expect(await backlog.busy(1_000)).toBe(true);
    inbound = 0;
    simulations = 1;
    expect(await backlog.busy(2_000)).toBe(true);
    simulations = 0;
    expect(await backlog.busy(3_000)).toBe(false);
  });

  it('reads Redis at most once per half second, and again after a failed reading', async () => {
    const webhooks = fakeQueue(() => 0);
    const simulations = fakeQueue(() => 0);
    const backlog = new LiveBacklog(webhooks as unknown as Queue, simulations as unknown as Queue);
    await Promise.all([backlog.busy(0), backlog.busy(100), backlog.busy(499)]);
    expect(webhooks.reads).toBe(1);
    await backlog.busy(500);
    expect(webhooks.reads).toBe(2);

    let fail = true;
    const flaky = {
      getWaitingCount: () => (fail ? Promise.reject(new Error('Redis away')) : Promise.resolve(0)),
    };
    const recovering = new LiveBacklog(flaky as unknown as Queue, simulations as unknown as Queue);
    await expect(recovering.busy(0)).rejects.toThrow('Redis away');
    fail = false;
    expect(await recovering.busy(10)).toBe(false);
  });
});
