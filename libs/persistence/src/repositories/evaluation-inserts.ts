import { Injectable, Logger } from '@nestjs/common';
import pg from 'pg';
import { PreparedSql } from '../prepared-sql.js';
import {
  EVALUATION_COLUMN_TYPES,
  EVALUATION_COLUMNS,
  evaluationRowValues,
  insertEvaluationRow,
  type NewEvaluation,
} from './evaluation-rows.js';

const COLUMN_TYPES = EVALUATION_COLUMN_TYPES.map(([, type]) => type);
const ALIASES = COLUMN_TYPES.map((_, i) => `c${i + 1}`);
/** The last column, created_at, defaults to now, as in EVALUATION_PLACEHOLDERS. */
const SELECTED = [...ALIASES.slice(0, -1), `COALESCE(${ALIASES[ALIASES.length - 1]}, clock_timestamp())`];

/**
 * Many evaluation rows in one statement: one array per column, the creation time defaulting to now,
 * inserted in batch order (so of two rows with the same id, the first is the one stored).
 */
const INSERT_ROWS = `
  INSERT INTO evaluations (${EVALUATION_COLUMNS})
  SELECT ${SELECTED.join(', ')}
    FROM unnest(${COLUMN_TYPES.map((type, i) => `$${i + 1}::${type}[]`).join(', ')})
      WITH ORDINALITY AS r(${ALIASES.join(', ')}, position)
   ORDER BY position
  ON CONFLICT DO NOTHING
  RETURNING id, created_at`;

/** Rows per statement at most; a busier turn is sent in several. */
const MAX_ROWS = 200;

interface Pending {
  evaluation: NewEvaluation;
  resolve: (createdAt: Date | null) => void;
  reject: (error: unknown) => void;
}

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
  private pending: Pending[] = [];

  constructor(private readonly sql: PreparedSql) {}

  /** Resolves to the creation time, or null when the row exists already (a retried or raced job). */
  insert(evaluation: NewEvaluation): Promise<Date | null> {
    return new Promise((resolve, reject) => {
      this.pending.push({ evaluation, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0, MAX_ROWS);
    if (this.pending.length) setImmediate(() => void this.flush());
    if (batch.length === 1) {
      const [only] = batch;
      await insertEvaluationRow(this.sql, only.evaluation).then(only.resolve, only.reject);
      return;
    }
    let created: Map<string, Date>;
    try {
      created = await this.insertRows(batch.map((pending) => pending.evaluation));
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) {
        for (const pending of batch) pending.reject(error);
        return;
      }
      this.logger.warn(
        { err: error, rows: batch.length },
        'evaluation batch refused; inserting its rows one by one',
      );
      await Promise.all(
        batch.map((pending) =>
          insertEvaluationRow(this.sql, pending.evaluation).then(pending.resolve, pending.reject),
        ),
      );
      return;
    }
    for (const pending of batch) {
      const createdAt = created.get(pending.evaluation.id) ?? null;
      created.delete(pending.evaluation.id);
      pending.resolve(createdAt);
    }
  }

  private async insertRows(evaluations: NewEvaluation[]): Promise<Map<string, Date>> {
    const columns: unknown[][] = COLUMN_TYPES.map(() => []);
    for (const evaluation of evaluations) {
      evaluationRowValues(evaluation).forEach((value, i) => columns[i].push(value));
    }
    const rows = (await this.sql.query(INSERT_ROWS, columns)) as Array<{ id: string; created_at: Date }>;
    return new Map(rows.map((row) => [row.id, row.created_at]));
  }
}
