import { parse } from 'csv-parse/sync';
import { BadRequestError, QUESTION_ID_PATTERN } from '@app/domain';
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

/** The ticket columns a CSV upload takes, in the order a template names them. */
export const CSV_TICKET_COLUMNS = ['externalId', 'subject', 'customerMessage'] as const;

/** A column `expected:<questionId>` holds the ticket's expected answer to that question. */
export const EXPECTED_COLUMN_PREFIX = 'expected:';

/** The question id an expected-answer column names; undefined for any other column. */
function expectedQuestion(column: string): string | undefined {
  return column.startsWith(EXPECTED_COLUMN_PREFIX) ? column.slice(EXPECTED_COLUMN_PREFIX.length) : undefined;
}

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
 * `subject` and `customerMessage` are required, `externalId` is optional, a column
 * `expected:<questionId>` gives the ticket's expected answer to that question (in `expected`, as
 * text), and any other column becomes a string in `metadata`. Empty cells are absent values, except
 * in the two required columns, where validation reports them.
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
  const badQuestion = columns.findIndex((name) => {
    const questionId = expectedQuestion(name);
    return questionId !== undefined && !QUESTION_ID_PATTERN.test(questionId);
  });
  if (badQuestion >= 0)
    throw new BadRequestError(
      `CSV header column ${badQuestion + 1}: ${EXPECTED_COLUMN_PREFIX} must be followed by a question id (1 to 64 letters, digits, _ or -)`,
    );
  return columns;
}

function toTicket(columns: string[], row: string[]): Record<string, unknown> {
  const ticket: Record<string, unknown> = {};
  const metadata: Array<[string, string]> = [];
  const expected: Array<[string, string]> = [];
  columns.forEach((column, index) => {
    const value = row[index] ?? '';
    const questionId = expectedQuestion(column);
    if (column === 'subject' || column === 'customerMessage') ticket[column] = value;
    else if (value === '') return;
    else if (TICKET_COLUMNS.has(column)) ticket[column] = value;
    else if (questionId !== undefined) expected.push([questionId, value]);
    else metadata.push([column, value]);
  });
  // fromEntries defines own properties, so a column named `__proto__` stays plain metadata.
  if (metadata.length) ticket.metadata = Object.fromEntries(metadata);
  if (expected.length) ticket.expected = Object.fromEntries(expected);
  return ticket;
}

/** One CSV field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break, quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A dataset template for a pack: the header row alone, the ticket columns the upload takes and an
 * `expected:<questionId>` column per question. One row of names, so a small writer does it rather
 * than a CSV library.
 */
export function datasetTemplateCsv(questionIds: string[]): string {
  const columns = [...CSV_TICKET_COLUMNS, ...questionIds.map((id) => `${EXPECTED_COLUMN_PREFIX}${id}`)];
  return `${columns.map(csvField).join(',')}\r\n`;
}

/** A file name for the pack's template: its name's letters and digits, never anything a header could break on. */
export function templateFileName(packName: string): string {
  const slug = packName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .slice(0, 60)
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
  return `${slug || 'pack'}-dataset-template.csv`;
}
