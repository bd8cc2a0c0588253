import { Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import { JudgeService } from '@app/judging';
import { DatasetRepository, PackRepository, SimulationRepository } from '@app/persistence';
import { SimulationQueue } from './simulation-queue.js';

export type TicketOutcome = 'recorded' | 'duplicate' | 'skipped';

/**
 * The worker side of simulations. Both steps are safe to run twice: a start job re-enqueues the
 * same job ids, and a ticket whose evaluation exists (or appears meanwhile) is not stored again.
 */
@Injectable()
export class SimulationRunner {
  private readonly logger = new Logger(SimulationRunner.name);

  constructor(
    private readonly simulations: SimulationRepository,
    private readonly datasets: DatasetRepository,
    private readonly packs: PackRepository,
    private readonly judge: JudgeService,
    private readonly queue: SimulationQueue,
  ) {}

  async start(simulationId: string): Promise<number> {
    const simulation = await this.simulations.findForWorker(simulationId);
    if (!simulation) throw new UnrecoverableError(`simulation ${simulationId} does not exist`);
    if (!(await this.simulations.markRunning(simulationId))) return 0;
    const ticketIds = await this.datasets.ticketIds(simulation.datasetId, simulation.total);
    if (ticketIds.length < simulation.total) {
      await this.simulations.fail(
        simulationId,
        `the dataset holds ${ticketIds.length} of its ${simulation.total} tickets`,
      );
      return 0;
    }
    await this.queue.tickets(simulationId, ticketIds);
    this.logger.log({ simulationId, tickets: ticketIds.length }, 'simulation started');
    return ticketIds.length;
  }

  async judgeTicket(simulationId: string, ticketId: string): Promise<TicketOutcome> {
    const simulation = await this.simulations.findForWorker(simulationId);
    if (!simulation || !['queued', 'running'].includes(simulation.status)) return 'skipped';
    if (await this.simulations.hasEvaluation(simulationId, ticketId)) {
      // A retry after a crash between the insert and the completion check: run the check again.
      await this.simulations.completeIfDone(simulationId);
      return 'duplicate';
    }
    const [ticket, version] = await Promise.all([
      this.datasets.findTicket(ticketId),
      this.packs.findVersionById(simulation.userId, simulation.packVersionId),
    ]);
    if (!ticket || ticket.datasetId !== simulation.datasetId || !version) {
      await this.simulations.fail(simulationId, 'a ticket or the pack version disappeared');
      throw new UnrecoverableError(`ticket ${ticketId} or version ${simulation.packVersionId} is missing`);
    }
    const evaluation = await this.judge.evaluate({
      userId: simulation.userId,
      packId: simulation.packId,
      packVersionId: version.id,
      document: version.document,
      ticket: ticket.ticket,
      source: 'simulation',
    });
    const stored = await this.simulations.recordEvaluation({
      ...evaluation,
      simulationId,
      datasetTicketId: ticketId,
    });
    return stored ? 'recorded' : 'duplicate';
  }

  /** A job that will not be retried again: the simulation cannot finish, so it fails with the reason. */
  async giveUp(simulationId: string, reason: string): Promise<void> {
    await this.simulations.fail(simulationId, reason);
  }

  /** Simulations recorded but never picked up (Redis was away at the time): enqueue their start again. */
  async sweep(olderThanMs: number): Promise<number> {
    const ids = await this.simulations.stuckQueued(olderThanMs);
    for (const id of ids) await this.queue.start(id);
    return ids.length;
  }
}
