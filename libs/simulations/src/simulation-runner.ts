import { Inject, Injectable, Logger } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import pLimit, { type LimitFunction } from 'p-limit';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { isActiveSimulation } from '@app/domain';
import { isModelUnavailable, JudgeService } from '@app/judging';
import {
  DatasetRepository,
  PackVersionLookup,
  SimulationRepository,
  type FinishedSimulation,
} from '@app/persistence';
import { WebhookQueue } from '@app/webhooks';
import { SimulationQueue } from './simulation-queue.js';

export type TicketOutcome = 'recorded' | 'duplicate' | 'skipped';

/** Ticket jobs a worker process takes at once for each model call it makes at once. */
export const TICKET_JOBS_PER_MODEL_CALL = 2;

/**
 * The simulations queue's jobs at once per worker process, for the WORKER_CONCURRENCY model calls
 * SimulationRunner makes at once (docs/simulations.md, "Model calls and ticket jobs").
 */
export function simulationJobConcurrency(config: Pick<AppConfig, 'workerConcurrency'>): number {
  return config.workerConcurrency * TICKET_JOBS_PER_MODEL_CALL;
}

/**
 * The worker side of simulations. Both steps are safe to run twice: a start job re-enqueues the
 * same job ids, and a ticket whose evaluation exists (or appears meanwhile) is not stored again.
 */
@Injectable()
export class SimulationRunner {
  private readonly logger = new Logger(SimulationRunner.name);
  /** At most WORKER_CONCURRENCY model calls at once in this process, whatever the jobs running. */
  private readonly modelCalls: LimitFunction;

  constructor(
    private readonly simulations: SimulationRepository,
    private readonly datasets: DatasetRepository,
    private readonly versions: PackVersionLookup,
    private readonly judge: JudgeService,
    private readonly queue: SimulationQueue,
    private readonly webhooks: WebhookQueue,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.modelCalls = pLimit(config.workerConcurrency);
  }

  async start(simulationId: string): Promise<number> {
    const simulation = await this.simulations.findForWorker(simulationId);
    if (!simulation) throw new UnrecoverableError(`simulation ${simulationId} does not exist`);
    if (!(await this.simulations.markRunning(simulationId))) return 0;
    const ticketIds = await this.datasets.ticketIds(simulation.datasetId, simulation.total);
    if (ticketIds.length < simulation.total) {
      await this.fail(
        simulationId,
        `the dataset holds ${ticketIds.length} of its ${simulation.total} tickets`,
      );
      return 0;
    }
    await this.queue.tickets(simulationId, ticketIds);
    this.logger.log({ simulationId, tickets: ticketIds.length }, 'simulation started');
    return ticketIds.length;
  }

  /**
   * One ticket: one read (simulation state, ticket, already judged?), the model call (once one of
   * the process's WORKER_CONCURRENCY is free), the insert (a no-op when another attempt stored it
   * first) and the completion check. `lastAttempt` false: an unreachable model throws, for the job
   * to be retried.
   */
  async judgeTicket(
    simulationId: string,
    ticketId: string,
    { lastAttempt = true } = {},
  ): Promise<TicketOutcome> {
    const state = await this.simulations.ticketJobState(simulationId, ticketId);
    if (!state || !isActiveSimulation(state.status)) return 'skipped';
    if (state.evaluated) {
      // A retry after a crash between the insert and the completion check: run the check again.
      await this.finished(await this.simulations.completeIfDone(simulationId));
      return 'duplicate';
    }
    // Published versions come from the repository's in-memory copy; a draft is read each time.
    const version = await this.versions.find(state.userId, state.packVersionId);
    if (!state.ticket || !version) {
      await this.fail(simulationId, 'a ticket or the pack version disappeared');
      throw new UnrecoverableError(`ticket ${ticketId} or version ${state.packVersionId} is missing`);
    }
    const evaluation = await this.judge.evaluate({
      userId: state.userId,
      packId: state.packId,
      packVersionId: state.packVersionId,
      document: version.document,
      ticket: state.ticket,
      source: 'simulation',
      modelCalls: this.modelCalls,
    });
    // A model that could not be reached is tried again with the job's backoff; only the last
    // attempt records the failure (as review, with its kind), so the run still completes.
    if (!lastAttempt && isModelUnavailable(evaluation.result))
      throw new Error('the model gateway was unavailable; the ticket will be tried again');
    const { stored, finished } = await this.simulations.recordEvaluation({
      ...evaluation,
      simulationId,
      datasetTicketId: ticketId,
    });
    await this.finished(finished);
    return stored ? 'recorded' : 'duplicate';
  }

  /** The one caller that finished a simulation logs it and sends its completion. */
  private async finished(simulation: FinishedSimulation | null): Promise<void> {
    if (!simulation) return;
    this.logger.log({ simulationId: simulation.id }, 'simulation finished');
    if (simulation.deliveryId) await this.webhooks.deliverSoon(simulation.deliveryId);
  }

  /** A job that will not be retried again: the simulation cannot finish, so it fails with the reason. */
  async giveUp(simulationId: string, reason: string): Promise<void> {
    await this.fail(simulationId, reason);
  }

  private async fail(simulationId: string, reason: string): Promise<void> {
    const failed = await this.simulations.fail(simulationId, reason);
    if (!failed) return;
    this.logger.warn({ simulationId, reason }, 'simulation failed');
    if (failed.deliveryId) await this.webhooks.deliverSoon(failed.deliveryId);
  }

  /**
   * Simulations recorded but never picked up (Redis was away at the time): enqueue their start
   * again. Running ones without progress for as long (Redis lost their ticket jobs): enqueue the
   * tickets still to judge; a job id that still exists is left as it is, so nothing runs twice.
   */
  async sweep(olderThanMs: number): Promise<number> {
    const queued = await this.simulations.stuckQueued(olderThanMs);
    for (const id of queued) await this.queue.start(id);
    const stalled = await this.simulations.stalledRunning(olderThanMs);
    for (const { id, ticketIds } of stalled) {
      if (!ticketIds.length) {
        await this.finished(await this.simulations.completeIfDone(id));
        continue;
      }
      await this.queue.tickets(id, ticketIds);
      this.logger.log({ simulationId: id, tickets: ticketIds.length }, 'simulation resumed');
    }
    return queued.length + stalled.length;
  }
}
