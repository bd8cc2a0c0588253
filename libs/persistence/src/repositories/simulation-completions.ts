import { Injectable } from '@nestjs/common';
import { ACTIVE_SIMULATION_STATUSES_SQL as ACTIVE } from '@app/domain';
import { Coalescer } from '../coalescer.js';
import { PreparedSql } from '../prepared-sql.js';

/** What a statement that finished simulations reports for each: the completion delivery to send, if any. */
export interface FinishedSimulation {
  id: string;
  /** Null when the user has no completion endpoint. */
  deliveryId: string | null;
}

/**
 * A statement's tail that records the completion delivery of the simulations its `done` CTE just
 * finished (columns id, user_id), for users with an endpoint, in the same statement as the status
 * change: a crash cannot finish a simulation without its delivery, and the sweeper sends one whose
 * job was never enqueued. The body is built when it is sent, from the finished simulation.
 */
export function withCompletionDelivery(
  type: 'simulation.completed' | 'simulation.failed',
  when = 'true',
): string {
  return `, delivery AS (
      INSERT INTO webhook_deliveries (id, user_id, simulation_id, type, payload, next_attempt_at)
      SELECT gen_random_uuid(), done.user_id, done.id, '${type}',
             jsonb_build_object('type', '${type}', 'simulationId', done.id), now()
        FROM done WHERE ${when} AND EXISTS (SELECT 1 FROM webhook_endpoints w WHERE w.user_id = done.user_id)
      ON CONFLICT (simulation_id) DO NOTHING RETURNING id, simulation_id
    )
    SELECT done.id, delivery.id AS delivery_id FROM done LEFT JOIN delivery ON delivery.simulation_id = done.id`;
}

/**
 * The completion checks of simulations, coalesced: the checks asked for during one turn of the event
 * loop (the tickets whose coalesced inserts just committed) run as one statement.
 */
@Injectable()
export class SimulationCompletions {
  private readonly checks = new Coalescer<string, FinishedSimulation | null>((ids) => this.checkBatch(ids));

  constructor(private readonly sql: PreparedSql) {}

  /**
   * Marks the simulation completed once every ticket has its evaluation (safe to repeat). If the
   * check fails, every ticket job of that turn fails and is retried: its insert is then a no-op and
   * the check runs again. Resolves to the finished simulation (with its completion delivery) for
   * exactly one caller of the turn that completed it.
   */
  check(simulationId: string): Promise<FinishedSimulation | null> {
    return this.checks.call(simulationId);
  }

  /** One completion check for a turn's simulations (each once); a simulation's tickets may repeat it. */
  private async checkBatch(simulationIds: string[]): Promise<Array<FinishedSimulation | null>> {
    const ids = [...new Set(simulationIds)];
    const rows = (await this.sql.query(
      `WITH done AS (
         UPDATE simulations s SET status = 'completed', finished_at = now()
          WHERE s.id = ANY($1::uuid[]) AND s.status IN (${ACTIVE})
            AND (SELECT count(*) FROM evaluations e WHERE e.user_id = s.user_id AND e.simulation_id = s.id) >= s.total
          RETURNING s.id, s.user_id
       )${withCompletionDelivery('simulation.completed')}`,
      [ids],
    )) as Array<{ id: string; delivery_id: string | null }>;
    const completed = new Map(rows.map((row) => [row.id, row.delivery_id]));
    return simulationIds.map((id) => {
      if (!completed.has(id)) return null;
      const deliveryId = completed.get(id)!;
      completed.delete(id);
      return { id, deliveryId };
    });
  }
}
