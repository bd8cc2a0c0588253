import type { Answer } from './judgment.js';
import { answerCategory } from './calibration.js';

/** One cell of an export: text, a number, or empty (null). */
export type ExportCell = string | number | null;

/**
 * A table to export (as CSV by the API): its column names, known before the first row, then its
 * rows, produced as the reader asks for them (a long export never sits in memory whole), or an
 * array for a table bounded by its nature (a simulation's at most 250 tickets).
 */
export interface ExportTable {
  columns: readonly string[];
  rows: AsyncIterable<ExportCell[]> | Iterable<ExportCell[]>;
}

/**
 * An answer in an export cell: as labels and expected answers write it (`answerCategory`: the
 * choice, `true`/`false`, the score), empty without an answer, so a column can be read back as
 * a dataset's expected answers.
 */
export function answerCell(answer: Answer | null | undefined): string | null {
  return answer ? answerCategory(answer) : null;
}
