import { pipeline, Readable } from 'node:stream';
import { stringify, type Options } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import type { ExportCell, ExportTable } from '@app/domain';

/**
 * How every export is written (docs/exports.md): RFC 4180 (CRLF line ends; a field holding a comma,
 * a quote or a line break is quoted, its quotes doubled), a UTF-8 byte order mark so spreadsheets
 * read it as UTF-8, and csv-stringify's formula guard: a text cell starting with `=`, `+`, `-`,
 * `@`, a tab or a carriage return (or their full-width forms) gets a leading `'`, so a spreadsheet
 * shows it as text instead of running it (CSV injection). Numbers are not guarded.
 */
export const CSV_OPTIONS: Options = {
  bom: true,
  header: true,
  record_delimiter: 'windows',
  // Given a record delimiter, csv-stringify would otherwise quote only fields holding CRLF itself.
  quote_record_delimiter: true,
  escape_formulas: true,
};

/** The OpenAPI answer of an export route: a CSV attachment. */
export function csvResponse(description: string, example: string) {
  return { description, content: { 'text/csv': { schema: { type: 'string' as const }, example } } };
}

/**
 * Streams the table to the client as a CSV attachment. The first row is read before the answer
 * starts, so a failure there (a missing record, the database away) still answers the JSON error
 * with its status. Then rows are read only as fast as the client takes them (the stream's
 * backpressure), and a client that goes away destroys the pipeline, which ends the table's reads.
 * A failure after the first byte can only cut the answer short (Fastify logs it and closes the
 * connection), so a truncated file never looks complete.
 */
export async function sendCsv(reply: FastifyReply, fileName: string, table: ExportTable): Promise<void> {
  const source = table.rows;
  const rows = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
  const first = await rows.next();
  const csv = stringify({ ...CSV_OPTIONS, columns: [...table.columns] });
  // Errors are Fastify's to log (it watches the stream it sends); this callback only ends the pipeline.
  pipeline(Readable.from(resumed(first, rows)), csv, () => undefined);
  void reply
    .headers({
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${fileName}"`,
      'cache-control': 'no-store',
    })
    .send(csv);
}

/** The rows again from the first one, already read; the source's own clean-up runs when this one stops. */
async function* resumed(
  first: IteratorResult<ExportCell[]>,
  rest: AsyncIterator<ExportCell[]> | Iterator<ExportCell[]>,
): AsyncGenerator<ExportCell[]> {
  try {
    for (let next = first; !next.done; next = await rest.next()) yield next.value;
  } finally {
    await rest.return?.();
  }
}
