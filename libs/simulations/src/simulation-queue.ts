import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import {
  ENQUEUE_TIMEOUT_MS,
  QUEUES,
  within,
  SIMULATION_JOB_OPTIONS,
  SIMULATION_JOBS,
  simulationStartJobId,
  simulationTicketJobId,
  type JudgeTicketPayload,
  type StartSimulationPayload,
} from '@app/jobs';

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
        SIMULATION_JOBS.start,
        { simulationId },
        { ...SIMULATION_JOB_OPTIONS, jobId: simulationStartJobId(simulationId) },
      ),
      ENQUEUE_TIMEOUT_MS,
    );
  }

  async tickets(simulationId: string, ticketIds: string[]): Promise<void> {
    await this.queue.addBulk(
      ticketIds.map((ticketId) => ({
        name: SIMULATION_JOBS.ticket,
        data: { simulationId, ticketId },
        opts: { ...SIMULATION_JOB_OPTIONS, jobId: simulationTicketJobId(simulationId, ticketId) },
      })),
    );
  }
}
