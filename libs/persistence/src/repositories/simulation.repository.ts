import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  ACTIVE_SIMULATION_STATUSES_SQL as ACTIVE,
  initialSimulationStatus,
  isUuid,
  type Ticket,
} from '@app/domain';
import type { SimulationStatus } from '../entities/simulation.entity.js';
import { PreparedSql } from '../prepared-sql.js';
import { EvaluationInserts } from './evaluation-inserts.js';
import {
  SimulationCompletions,
  withCompletionDelivery,
  type FinishedSimulation,
} from './simulation-completions.js';
import type { NewEvaluation } from './evaluation-rows.js';

export type { FinishedSimulation };

export interface SimulationRow {
  id: string;
  userId: string;
  datasetId: string;
  packId: string;
  packVersionId: string;
  status: SimulationStatus;
  reason: string | null;
  total: number;
  completed: number;
  accept: number;
  review: number;
  reject: number;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  datasetName: string;
  packName: string;
}

/** What one ticket job needs to know, read in one round trip. */
export interface TicketJobState {
  status: SimulationStatus;
  userId: string;
  packId: string;
  packVersionId: string;
  /** Null when the ticket is not (or no longer) in the simulation's dataset. */
  ticket: Ticket | null;
  /** Whether this ticket's evaluation is stored already (a retried or raced job). */
  evaluated: boolean;
}

export interface NewSimulation {
  id: string;
  datasetId: string;
  packId: string;
  packVersionId: string;
  total: number;
}

export interface ComparedTicket {
  ticketId: string;
  fromStatus: string;
  toStatus: string;
  fromAnswers: Record<string, unknown>;
  toAnswers: Record<string, unknown>;
}

/** Progress is counted from the evaluations themselves (at most 250 a simulation, on an index). */
const SELECT = `
  SELECT s.id, s.user_id, s.dataset_id, s.pack_id, s.pack_version_id, s.status, s.reason, s.total,
         s.created_at, s.started_at, s.finished_at, d.name AS dataset_name, p.name AS pack_name,
         c.completed, c.accept, c.review, c.reject
    FROM simulations s
    JOIN datasets d ON d.id = s.dataset_id
    JOIN packs p ON p.id = s.pack_id
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS completed,
             (count(*) FILTER (WHERE e.status = 'accept'))::int AS accept,
             (count(*) FILTER (WHERE e.status = 'review'))::int AS review,
             (count(*) FILTER (WHERE e.status = 'reject'))::int AS reject
        FROM evaluations e WHERE e.user_id = s.user_id AND e.simulation_id = s.id
    ) c`;

function toRow(raw: Record<string, unknown>): SimulationRow {
  return {
    id: raw.id as string,
    userId: raw.user_id as string,
    datasetId: raw.dataset_id as string,
    packId: raw.pack_id as string,
    packVersionId: raw.pack_version_id as string,
    status: raw.status as SimulationStatus,
    reason: raw.reason as string | null,
    total: raw.total as number,
    completed: raw.completed as number,
    accept: raw.accept as number,
    review: raw.review as number,
    reject: raw.reject as number,
    createdAt: raw.created_at as Date,
    startedAt: raw.started_at as Date | null,
    finishedAt: raw.finished_at as Date | null,
    datasetName: raw.dataset_name as string,
    packName: raw.pack_name as string,
  };
}

/**
 * Simulations. Progress lives in Postgres, counted from the evaluations (one per ticket, by a unique
 * index), so it stays exact however many workers share a simulation.
 */
@Injectable()
export class SimulationRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly sql: PreparedSql,
    private readonly inserts: EvaluationInserts,
    private readonly completions: SimulationCompletions,
  ) {}

  /**
   * Creates it `queued`, or `completed` at once when there is nothing to judge (then with its
   * completion delivery, whose id is returned).
   */
  async create(userId: string, simulation: NewSimulation): Promise<FinishedSimulation | null> {
    const empty = simulation.total === 0;
    const rows: Array<{ id: string; delivery_id: string | null }> = await this.dataSource.query(
      `WITH done AS (
         INSERT INTO simulations (id, user_id, dataset_id, pack_id, pack_version_id, status, total, started_at, finished_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) RETURNING id, user_id, status
       )${withCompletionDelivery('simulation.completed', "done.status = 'completed'")}`,
      [
        simulation.id,
        userId,
        simulation.datasetId,
        simulation.packId,
        simulation.packVersionId,
        initialSimulationStatus(simulation.total),
        simulation.total,
        empty ? new Date() : null,
      ],
    );
    return empty ? { id: rows[0].id, deliveryId: rows[0].delivery_id } : null;
  }

  async list(userId: string, limit = 100): Promise<SimulationRow[]> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `${SELECT} WHERE s.user_id = $1 ORDER BY s.created_at DESC, s.id DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map(toRow);
  }

  async find(userId: string, id: string): Promise<SimulationRow | null> {
    if (!isUuid(id)) return null;
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(
      `${SELECT} WHERE s.user_id = $1 AND s.id = $2`,
      [userId, id],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** For workers: the simulation whatever its owner (jobs carry ids the API already checked). */
  async findForWorker(id: string): Promise<SimulationRow | null> {
    const rows: Array<Record<string, unknown>> = await this.dataSource.query(`${SELECT} WHERE s.id = $1`, [
      id,
    ]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** queued -> running; returns false when the simulation is no longer queued (or running already). */
  async markRunning(id: string): Promise<boolean> {
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE simulations SET status = 'running', started_at = COALESCE(started_at, now()) WHERE id = $1 AND status IN (${ACTIVE})`,
      [id],
    );
    return affected > 0;
  }

  async cancel(userId: string, id: string): Promise<boolean> {
    if (!isUuid(id)) return false;
    const [, affected]: [unknown, number] = await this.dataSource.query(
      `UPDATE simulations SET status = 'cancelled', finished_at = now() WHERE user_id = $1 AND id = $2 AND status IN (${ACTIVE})`,
      [userId, id],
    );
    return affected > 0;
  }

  /** queued/running -> failed, with the reason; null when it had finished already. */
  async fail(id: string, reason: string): Promise<FinishedSimulation | null> {
    const rows: Array<{ id: string; delivery_id: string | null }> = await this.dataSource.query(
      `WITH done AS (
         UPDATE simulations SET status = 'failed', reason = $2, finished_at = now()
          WHERE id = $1 AND status IN (${ACTIVE}) RETURNING id, user_id
       )${withCompletionDelivery('simulation.failed')}`,
      [id, reason],
    );
    return rows[0] ? { id: rows[0].id, deliveryId: rows[0].delivery_id } : null;
  }

  /** Simulations still `queued` this long after creation: their start job never reached a worker. */
  async stuckQueued(olderThanMs: number): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT id FROM simulations WHERE status = 'queued' AND created_at < now() - make_interval(secs => $1::float8 / 1000)
        ORDER BY created_at LIMIT 100`,
      [olderThanMs],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Simulations `running` with no evaluation stored for this long (nor a start this recent): their
   * ticket jobs may be gone with Redis. Ids with the tickets still to judge (none when only the
   * completion check was lost).
   */
  async stalledRunning(olderThanMs: number): Promise<Array<{ id: string; ticketIds: string[] }>> {
    const rows: Array<{ id: string; ticket_ids: string[] }> = await this.dataSource.query(
      `SELECT s.id, COALESCE(array_agg(t.id ORDER BY t.position) FILTER (WHERE t.id IS NOT NULL), '{}') AS ticket_ids
         FROM simulations s
         LEFT JOIN dataset_tickets t ON t.dataset_id = s.dataset_id AND t.position < s.total
          AND NOT EXISTS (SELECT 1 FROM evaluations e WHERE e.simulation_id = s.id AND e.dataset_ticket_id = t.id)
        WHERE s.status = 'running'
          AND s.started_at < now() - make_interval(secs => $1::float8 / 1000)
          AND NOT EXISTS (
            SELECT 1 FROM evaluations e WHERE e.user_id = s.user_id AND e.simulation_id = s.id
               AND e.created_at > now() - make_interval(secs => $1::float8 / 1000))
        GROUP BY s.id ORDER BY s.started_at LIMIT 20`,
      [olderThanMs],
    );
    return rows.map((row) => ({ id: row.id, ticketIds: row.ticket_ids }));
  }

  /** The simulation's state, the ticket and whether it is judged already; null for an unknown simulation. */
  async ticketJobState(simulationId: string, ticketId: string): Promise<TicketJobState | null> {
    if (!isUuid(simulationId) || !isUuid(ticketId)) return null;
    const rows = (await this.sql.query(
      `SELECT s.status, s.user_id, s.pack_id, s.pack_version_id, t.ticket,
              EXISTS (SELECT 1 FROM evaluations e WHERE e.simulation_id = s.id AND e.dataset_ticket_id = $2) AS evaluated
         FROM simulations s LEFT JOIN dataset_tickets t ON t.id = $2 AND t.dataset_id = s.dataset_id
        WHERE s.id = $1`,
      [simulationId, ticketId],
    )) as Array<Record<string, unknown>>;
    const raw = rows[0];
    if (!raw) return null;
    return {
      status: raw.status as SimulationStatus,
      userId: raw.user_id as string,
      packId: raw.pack_id as string,
      packVersionId: raw.pack_version_id as string,
      ticket: (raw.ticket as Ticket | null) ?? null,
      evaluated: raw.evaluated as boolean,
    };
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
  async pairEvaluations(userId: string, fromId: string, toId: string): Promise<ComparedTicket[]> {
    const rows: Array<{
      ticket_id: string;
      from_status: string;
      to_status: string;
      from_answers: Record<string, unknown>;
      to_answers: Record<string, unknown>;
    }> = await this.dataSource.query(
      `SELECT a.dataset_ticket_id AS ticket_id, a.status AS from_status, b.status AS to_status,
                a.result -> 'answers' AS from_answers, b.result -> 'answers' AS to_answers
           FROM evaluations a JOIN evaluations b ON b.dataset_ticket_id = a.dataset_ticket_id
          WHERE a.user_id = $1 AND b.user_id = $1 AND a.simulation_id = $2 AND b.simulation_id = $3`,
      [userId, fromId, toId],
    );
    return rows.map((row) => ({
      ticketId: row.ticket_id,
      fromStatus: row.from_status,
      toStatus: row.to_status,
      fromAnswers: row.from_answers,
      toAnswers: row.to_answers,
    }));
  }
}
