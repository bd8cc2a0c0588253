import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { ENQUEUE_TIMEOUT_MS, QUEUES, within } from '@app/jobs';
import { JUDGE_TICKET_JOB, type JudgeTicketPayload } from './jobs/judge-ticket.job.js';
import { START_SIMULATION_JOB, type StartSimulationPayload } from './jobs/start-simulation.job.js';

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

  async tickets(simulationId: string, ticketIds: string[]): Promise<void> {
    await this.queue.addBulk(
      ticketIds.map((ticketId) => ({
        name: JUDGE_TICKET_JOB.name,
        data: { simulationId, ticketId },
        opts: { ...JUDGE_TICKET_JOB.options, jobId: JUDGE_TICKET_JOB.jobId(simulationId, ticketId) },
      })),
    );
  }
}
