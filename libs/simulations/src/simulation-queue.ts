import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ENQUEUE_TIMEOUT_MS, QUEUES, within } from '@app/jobs';
import { JUDGE_TICKET_JOB, type JudgeTicketPayload } from './jobs/judge-ticket.job.js';
import { START_SIMULATION_JOB, type StartSimulationPayload } from './jobs/start-simulation.job.js';

/**
 * Ticket jobs are added this many at a time, each block one MULTI. Workers start the first block's
 * tickets while the rest are added; one addBulk of a whole dataset (250 tickets) kept every job out
 * of their reach until all were in (docs/performance.md, "Simulations: the ticket jobs added in
 * blocks"). A start job that fails between blocks is retried and adds every block again (the job
 * ids skip those already added), as it did after a failed addBulk of the whole dataset.
 */
export const TICKET_JOBS_PER_ADD = 32;

/** Enqueues simulation work; job ids make every call safe to repeat. */
@Injectable()
export class SimulationQueue {
  constructor(
    @InjectQueue(QUEUES.simulations)
    private readonly queue: Queue<StartSimulationPayload | JudgeTicketPayload>,
  ) {}

  /** Gives up after ENQUEUE_TIMEOUT_MS while Redis is away; the simulation is in Postgres already. */
  async start(simulationId: string): Promise<void> {
    await within(
      this.queue.add(
        START_SIMULATION_JOB.name,
        { simulationId },
        { ...START_SIMULATION_JOB.options, jobId: START_SIMULATION_JOB.jobId(simulationId) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }

  /** In the tickets' order, TICKET_JOBS_PER_ADD at a time. */
  async tickets(simulationId: string, ticketIds: string[]): Promise<void> {
    for (let start = 0; start < ticketIds.length; start += TICKET_JOBS_PER_ADD) {
      await this.queue.addBulk(
        ticketIds.slice(start, start + TICKET_JOBS_PER_ADD).map((ticketId) => ({
          name: JUDGE_TICKET_JOB.name,
          data: { simulationId, ticketId },
          opts: { ...JUDGE_TICKET_JOB.options, jobId: JUDGE_TICKET_JOB.jobId(simulationId, ticketId) },
        })),
      );
    }
  }
}
