import { parse } from 'csv-parse/sync';
import { BadRequestError } from '@app/domain';
import { firstUnstorableCharacter } from '../errors/well-formed-input.js';

/** Fastify route config of the routes that take a `text/csv` body; any other route answers one with 415. */
export const ACCEPTS_CSV = { acceptsCsv: true } as const;

export function acceptsCsv(routeConfig: unknown): boolean {
  return (routeConfig as Partial<typeof ACCEPTS_CSV> | undefined)?.acceptsCsv === true;
}

export function isCsvContentType(header: string | undefined): boolean {
  return header?.split(';')[0]?.trim().toLowerCase() === 'text/csv';
}

const CSV_HEADER_ERROR = 'CSV header must contain subject and customerMessage';

/** Columns that are ticket fields; every other column goes into `metadata`. */
const TICKET_COLUMNS = new Set(['externalId', 'subject', 'customerMessage']);

/** csv-parse error codes, in words; its own messages may quote cell text, which never goes into an error body. */
const CSV_ERROR_REASONS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'quote not closed',
  CSV_RECORD_INCONSISTENT_FIELDS_LENGTH: 'wrong number of fields',
  CSV_INVALID_CLOSING_QUOTE: 'unexpected character after a closing quote',
  INVALID_OPENING_QUOTE: 'quote inside an unquoted field',
};

/**
 * Turns an uploaded CSV into ticket-shaped objects, one per data row, for the same validation as
 * JSON tickets (so `tickets.0` is the first row after the header). The header names the fields:
 * `subject` and `customerMessage` are required, `externalId` is optional, and any other column
 * becomes a string in `metadata`. Empty cells are absent values, except in the two required columns,
 * where validation reports them.
 */
export function csvToTickets(text: string): Record<string, unknown>[] {
  const unstorable = firstUnstorableCharacter(text);
  if (unstorable >= 0) {
    const line = text.slice(0, unstorable).split(/\r\n|\r|\n/).length;
    throw new BadRequestError(`invalid CSV at line ${line}: a NUL character or an unpaired surrogate`);
  }
  const [header, ...rows] = parseRecords(text);
  const columns = checkHeader((header ?? []).map((name) => name.trim()));
  return rows.map((row) => toTicket(columns, row));
}

function parseRecords(text: string): string[][] {
  let lastRecordEnd = 0;
  let headerWidth = 0;
  try {
    return parse(text, {
      bom: true,
      skip_empty_lines: true,
      on_record: (record: string[], context) => {
        lastRecordEnd = context.lines;
        headerWidth ||= record.length;
        return record;
      },
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string') throw error;
    const line = nextRecordStart(text, lastRecordEnd);
    const record = (error as { record?: unknown }).record;
    const reason =
      code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && Array.isArray(record)
        ? `expected ${headerWidth} fields like the header, found ${record.length}`
        : (CSV_ERROR_REASONS[code] ?? 'malformed record');
    throw new BadRequestError(`invalid CSV at line ${line}: ${reason}`);
  }
}

/** The 1-based line where the record after line `previousEnd` starts (blank lines are skipped). */
function nextRecordStart(text: string, previousEnd: number): number {
  const lines = text.split(/\r\n|\r|\n/);
  let line = previousEnd + 1;
  while (line < lines.length && lines[line - 1] === '') line += 1;
  return line;
}

function checkHeader(columns: string[]): string[] {
  if (!columns.includes('subject') || !columns.includes('customerMessage'))
    throw new BadRequestError(CSV_HEADER_ERROR);
  const empty = columns.indexOf('');
  if (empty >= 0) throw new BadRequestError(`CSV header has an empty column name (column ${empty + 1})`);
  const duplicate = columns.find((name, index) => columns.indexOf(name) !== index);
  if (duplicate !== undefined) throw new BadRequestError(`CSV header names a column twice: ${duplicate}`);
  return columns;
}

function toTicket(columns: string[], row: string[]): Record<string, unknown> {
  const ticket: Record<string, unknown> = {};
  const metadata: Array<[string, string]> = [];
  columns.forEach((column, index) => {
    const value = row[index] ?? '';
    if (column === 'subject' || column === 'customerMessage') ticket[column] = value;
    else if (value === '') return;
    else if (TICKET_COLUMNS.has(column)) ticket[column] = value;
    else metadata.push([column, value]);
  });
  // fromEntries defines own properties, so a column named `__proto__` stays plain metadata.
  if (metadata.length) ticket.metadata = Object.fromEntries(metadata);
  return ticket;
}
