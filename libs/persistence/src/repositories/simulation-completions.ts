import { Injectable } from '@nestjs/common';
import { PreparedSql } from '../statements/prepared-sql.js';
import { completeSimulations, type FinishedSimulation } from '../statements/simulations.statements.js';
import { Coalescer } from './coalescer.js';

export type { FinishedSimulation };

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
    const rows = await this.sql.rows(completeSimulations, { ids });
    const completed = new Map(rows.map((row) => [row.id, row.deliveryId]));
    return simulationIds.map((id) => {
      if (!completed.has(id)) return null;
      const deliveryId = completed.get(id)!;
      completed.delete(id);
      return { id, deliveryId };
    });
  }
}
