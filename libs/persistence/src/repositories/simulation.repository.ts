import { Injectable } from '@nestjs/common';
import { isUuid, type SimulationStatus } from '@app/domain';
import { PreparedSql } from '../statements/prepared-sql.js';
import {
  cancelSimulation,
  createSimulation,
  failSimulation,
  findSimulation,
  findSimulationForWorker,
  listSimulations,
  markSimulationRunning,
  pairSimulationEvaluations,
  stalledRunningSimulations,
  stuckQueuedSimulations,
  simulationExpectedAnswers,
  simulationResults,
  ticketJobStates,
  type ComparedTicket,
  type ExpectedAnswerRow,
  type FinishedSimulation,
  type SimulationResultRow,
  type SimulationRow,
  type TicketJobState,
} from '../statements/simulations.statements.js';
import { Coalescer } from './coalescer.js';
import { EvaluationInserts } from './evaluation-inserts.js';
import type { NewEvaluation } from './evaluation-rows.js';
import { SimulationCompletions } from './simulation-completions.js';

export type {
  ComparedTicket,
  ExpectedAnswerRow,
  FinishedSimulation,
  SimulationResultRow,
  SimulationRow,
  TicketJobState,
};

export interface NewSimulation {
  id: string;
  datasetId: string;
  packId: string;
  packVersionId: string;
  total: number;
  /** The name its owner gave it (trimmed), or null. */
  name: string | null;
  /** The domain's `initialSimulationState`. */
  status: SimulationStatus;
  finishedAt: Date | null;
}

/**
 * Simulations. Progress lives in Postgres, counted from the evaluations (one per ticket, by a unique
 * index), so it stays exact however many workers share a simulation.
 */
@Injectable()
export class SimulationRepository {
  /**
   * Ticket jobs' reads, coalesced: a wave of model answers ends its jobs together, so the worker
   * starts the next ones in the same turns; their reads go as one statement (200 jobs at most).
   */
  private readonly ticketStates = new Coalescer<
    { simulationId: string; ticketId: string },
    TicketJobState | null
  >((jobs) => this.readTicketStates(jobs), 200);

  constructor(
    private readonly sql: PreparedSql,
    private readonly inserts: EvaluationInserts,
    private readonly completions: SimulationCompletions,
  ) {}

  /**
   * Records the simulation in the state given; one created `completed` gets its completion
   * delivery in the same statement (its id is returned; null otherwise or without an endpoint).
   */
  async create(userId: string, simulation: NewSimulation): Promise<{ deliveryId: string | null }> {
    const created = await this.sql.first(createSimulation, { ...simulation, userId });
    return { deliveryId: created?.deliveryId ?? null };
  }

  list(userId: string, limit = 100): Promise<SimulationRow[]> {
    return this.sql.rows(listSimulations, { userId, limit });
  }

  async find(userId: string, id: string): Promise<SimulationRow | null> {
    if (!isUuid(id)) return null;
    return this.sql.first(findSimulation, { userId, id });
  }

  /** For workers: the simulation whatever its owner (jobs carry ids the API already checked). */
  findForWorker(id: string): Promise<SimulationRow | null> {
    return this.sql.first(findSimulationForWorker, { id });
  }

  /** queued or running -> running; returns false once it has finished (completed, failed or cancelled). */
  async markRunning(id: string): Promise<boolean> {
    return (await this.sql.affected(markSimulationRunning, { id })) > 0;
  }

  async cancel(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    return (await this.sql.affected(cancelSimulation, { userId, id })) > 0;
  }

  /** queued/running -> failed, with the reason; null when it had finished already. */
  fail(id: string, reason: string): Promise<FinishedSimulation | null> {
    return this.sql.first(failSimulation, { id, reason });
  }

  /** Simulations still `queued` this long after creation: their start job never reached a worker. */
  async stuckQueued(olderThanMs: number): Promise<string[]> {
    const rows = await this.sql.rows(stuckQueuedSimulations, { olderThanMs });
    return rows.map((row) => row.id);
  }

  /**
   * Simulations `running` with no evaluation stored for this long (nor a start this recent): their
   * ticket jobs may be gone with Redis. Ids with the tickets still to judge (none when only the
   * completion check was lost).
   */
  stalledRunning(olderThanMs: number): Promise<Array<{ id: string; ticketIds: string[] }>> {
    return this.sql.rows(stalledRunningSimulations, { olderThanMs });
  }

  /** The simulation's state, the ticket and whether it is judged already; null for an unknown simulation. */
  async ticketJobState(simulationId: string, ticketId: string): Promise<TicketJobState | null> {
    if (!isUuid(simulationId) || !isUuid(ticketId)) return null;
    return this.ticketStates.call({ simulationId, ticketId });
  }

  /** One statement for the ticket jobs' reads of a turn, each job answered at its own position. */
  private async readTicketStates(
    jobs: Array<{ simulationId: string; ticketId: string }>,
  ): Promise<Array<TicketJobState | null>> {
    const rows = await this.sql.rows(ticketJobStates, {
      simulationIds: jobs.map((job) => job.simulationId),
      ticketIds: jobs.map((job) => job.ticketId),
    });
    const states: Array<TicketJobState | null> = jobs.map(() => null);
    for (const { position, ...state } of rows) states[position - 1] = state;
    return states;
  }

  /**
   * Stores a ticket's evaluation exactly once (the unique index decides; a no-op when another attempt
   * stored it first), then runs the completion check. No counter row is updated per ticket, so
   * concurrent jobs never queue on one lock; the check runs after the insert committed, so the last
   * insert to commit always sees them all (and a retried job runs it again). `finished` is set for
   * the one call whose check completed the simulation.
   */
  async recordEvaluation(
    evaluation: NewEvaluation & { simulationId: string; datasetTicketId: string },
  ): Promise<{ stored: boolean; finished: FinishedSimulation | null }> {
    const stored = (await this.inserts.insert(evaluation)) !== null;
    const finished = await this.completeIfDone(evaluation.simulationId);
    return { stored, finished };
  }

  /** Coalesced with the other checks of this turn: see SimulationCompletions.check. */
  completeIfDone(simulationId: string): Promise<FinishedSimulation | null> {
    return this.completions.check(simulationId);
  }

  /** Both simulations' evaluations, paired by dataset ticket. */
  pairEvaluations(userId: string, fromId: string, toId: string): Promise<ComparedTicket[]> {
    return this.sql.rows(pairSimulationEvaluations, { userId, fromId, toId });
  }

  /** The simulation's judged tickets that carry expected answers, by position. */
  expectedAnswers(userId: string, simulationId: string): Promise<ExpectedAnswerRow[]> {
    return this.sql.rows(simulationExpectedAnswers, { userId, simulationId });
  }

  /** The simulation's judged tickets with their evaluation, by position. */
  results(userId: string, simulationId: string): Promise<SimulationResultRow[]> {
    return this.sql.rows(simulationResults, { userId, simulationId });
  }
}
