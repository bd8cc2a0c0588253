import { Injectable, Logger } from '@nestjs/common';
import pg from 'pg';
import { insertEvaluations } from '../statements/evaluations.statements.js';
import { PreparedSql } from '../statements/prepared-sql.js';
import { Coalescer, type BatchAnswer } from './coalescer.js';
import {
  evaluationColumns,
  insertEvaluationRow,
  toEvaluationRow,
  type NewEvaluation,
} from './evaluation-rows.js';

/** Rows per statement at most; a busier turn is sent in several. */
const MAX_ROWS = 200;

/**
 * Evaluation inserts, coalesced: the inserts asked for during one turn of the event loop (the
 * judgments and simulation tickets whose model answers arrived together) go to Postgres as one
 * statement, so they cost one round trip, one commit and one run of the statistics trigger instead
 * of one each. Nothing waits for a timer: the batch is sent as soon as the current turn ends.
 * Conflicts on the unique links insert nothing, row by row, as with single inserts. A batch that
 * Postgres refused (so nothing of it was stored) is retried row by row, so one bad row fails only
 * its own caller; any other failure (a lost connection: the batch may have committed) fails them all,
 * as a single insert would, and their jobs or requests are retried as usual.
 */
@Injectable()
export class EvaluationInserts {
  private readonly logger = new Logger(EvaluationInserts.name);
  private readonly batches = new Coalescer<NewEvaluation, Date | null>(
    (evaluations) => this.insertBatch(evaluations),
    MAX_ROWS,
  );

  constructor(private readonly sql: PreparedSql) {}

  /** Resolves to the creation time, or null when the row exists already (a retried or raced job). */
  insert(evaluation: NewEvaluation): Promise<Date | null> {
    return this.batches.call(evaluation);
  }

  private async insertBatch(evaluations: NewEvaluation[]): Promise<Array<BatchAnswer<Date | null>>> {
    if (evaluations.length === 1) return [insertEvaluationRow(this.sql, evaluations[0])];
    let created: Map<string, Date>;
    try {
      created = await this.insertRows(evaluations);
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) throw error;
      this.logger.warn(
        { err: error, rows: evaluations.length },
        'evaluation batch refused; inserting its rows one by one',
      );
      return evaluations.map((evaluation) => insertEvaluationRow(this.sql, evaluation));
    }
    return evaluations.map((evaluation) => {
      const createdAt = created.get(evaluation.id) ?? null;
      created.delete(evaluation.id);
      return createdAt;
    });
  }

  private async insertRows(evaluations: NewEvaluation[]): Promise<Map<string, Date>> {
    const rows = await this.sql.rows(
      insertEvaluations,
      evaluationColumns(evaluations.map((e) => toEvaluationRow(e))),
    );
    return new Map(rows.map((row) => [row.id, row.createdAt]));
  }
}
