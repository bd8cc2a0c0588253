import { describe, expect, it } from '@jest/globals';
import type { Queue } from 'bullmq';
import { JUDGE_TICKET_JOB } from './jobs/judge-ticket.job.js';
import { SimulationQueue, TICKET_JOBS_PER_ADD } from './simulation-queue.js';

type Added = Array<{ name: string; data: unknown; opts?: { jobId?: string } }>;

/** A queue that records each addBulk call and answers it only when told, as Redis would later. */
function recordingQueue() {
  const calls: Added[] = [];
  const pending: Array<() => void> = [];
  const queue = {
    addBulk: (jobs: Added) => {
      calls.push(jobs);
      return new Promise<void>((resolve) => pending.push(resolve));
    },
  } as unknown as Queue;
  return { queue, calls, answerNext: () => pending.shift()!() };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('SimulationQueue.tickets', () => {
  it('adds the ticket jobs in blocks of TICKET_JOBS_PER_ADD, in order, each after the last one was added', async () => {
    const { queue, calls, answerNext } = recordingQueue();
    const ids = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const added = new SimulationQueue(queue).tickets('sim-1', ids);
    await flush();
    // The first block is with Redis before the rest is built: the workers can start on it.
    expect(calls).toHaveLength(1);
    expect(calls[0].map((job) => (job.data as { ticketId: string }).ticketId)).toEqual(
      ids.slice(0, TICKET_JOBS_PER_ADD),
    );
    for (let block = 1; block < Math.ceil(ids.length / TICKET_JOBS_PER_ADD); block++) {
      answerNext();
      await flush();
      expect(calls).toHaveLength(block + 1);
    }
    answerNext();
    await added;
    expect(TICKET_JOBS_PER_ADD).toBe(32);
    expect(calls.map((jobs) => jobs.length)).toEqual([32, 32, 32, 32, 32, 32, 32, 26]);
    expect(calls.flat()).toEqual(
      ids.map((ticketId) => ({
        name: JUDGE_TICKET_JOB.name,
        data: { simulationId: 'sim-1', ticketId },
        opts: { ...JUDGE_TICKET_JOB.options, jobId: `simulation-sim-1-${ticketId}` },
      })),
    );
  });

  it('adds nothing for no tickets, and one block for fewer than a block', async () => {
    const { queue, calls, answerNext } = recordingQueue();
    await new SimulationQueue(queue).tickets('sim-2', []);
    expect(calls).toEqual([]);
    const few = new SimulationQueue(queue).tickets('sim-2', ['a', 'b']);
    await flush();
    answerNext();
    await few;
    expect(calls.map((jobs) => jobs.length)).toEqual([2]);
  });
});
