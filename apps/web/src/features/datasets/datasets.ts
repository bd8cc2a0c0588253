import type { Issue } from '../../api/client';

export type UploadFormat = 'csv' | 'json';

/** CSV or JSON, by extension first, then by media type; null for anything else. */
export function uploadFormat(fileName: string, mediaType = ''): UploadFormat | null {
  const name = fileName.toLowerCase();
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.json')) return 'json';
  const type = mediaType.split(';')[0]?.trim().toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (type === 'application/json') return 'json';
  return null;
}

export type JsonUploadBody = { ok: true; body: { tickets: unknown[] } } | { ok: false; message: string };

/**
 * The request body for a JSON file: `{tickets: [...]}` is sent as it is, a bare array is wrapped.
 * Anything else is refused here, before a request.
 */
export function jsonUploadBody(text: string): JsonUploadBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The file is not valid JSON.' };
  }
  if (Array.isArray(parsed)) return { ok: true, body: { tickets: parsed } };
  if (
    typeof parsed === 'object' &&
    parsed !== null &&
    Array.isArray((parsed as { tickets?: unknown }).tickets)
  ) {
    return { ok: true, body: parsed as { tickets: unknown[] } };
  }
  return { ok: false, message: 'The JSON file must hold {"tickets": [...]} or an array of tickets.' };
}

/**
 * The 1-based line where each data record of a CSV starts (the header excluded), as the API numbers
 * them: quoted fields may span lines, and blank lines are skipped. `result[n]` is the line of
 * `tickets.n`.
 */
export function csvRecordLines(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let inQuotes = false;
  let atRecordStart = true;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i += 1) {
    const char = text[i];
    const lineBreak = char === '\n' || char === '\r';
    if (atRecordStart && !lineBreak) {
      starts.push(line);
      atRecordStart = false;
    }
    if (char === '"') inQuotes = !inQuotes;
    if (!lineBreak) continue;
    if (char === '\r' && text[i + 1] === '\n') i += 1;
    line += 1;
    if (!inQuotes) atRecordStart = true;
  }
  return starts.slice(1);
}

/** One entry of a refusal: where (a line, a ticket or the whole file) and what is wrong there. */
export interface RefusalRow {
  key: string;
  where: string;
  messages: string[];
}

const TICKET_PATH = /^tickets\.(\d+)(?:\.(.+))?$/;
const CSV_LINE_ERROR = /^invalid CSV at line (\d+): (.+)$/;

function ticketWhere(index: number, format: UploadFormat, recordLines: number[]): string {
  if (format === 'json') return `Ticket ${index + 1}`;
  const line = recordLines[index];
  return line === undefined ? `Row ${index + 1}` : `Line ${line}`;
}

/** The message, preceded by the part of the field path it does not already name. */
function withField(field: string | undefined, message: string): string {
  if (!field) return message;
  const parts = field.split('.');
  const named = message.includes(parts.at(-1)!);
  const prefix = named ? parts.slice(0, -1).join('.') : field;
  return prefix ? `${prefix}: ${message}` : message;
}

/**
 * A refused upload as a list by place, in file order: issues naming `tickets.N…` become the CSV line
 * (or the JSON ticket number) they are about; a malformed CSV names its line in the message itself;
 * anything else is about the file as a whole.
 */
export function refusalRows(
  message: string,
  issues: Issue[],
  format: UploadFormat,
  recordLines: number[] = [],
): RefusalRow[] {
  if (!issues.length) {
    const csvLine = CSV_LINE_ERROR.exec(message);
    return csvLine
      ? [{ key: `line-${csvLine[1]}`, where: `Line ${csvLine[1]}`, messages: [csvLine[2]] }]
      : [];
  }
  const byPlace = new Map<string, { order: number; row: RefusalRow }>();
  for (const issue of issues) {
    const match = TICKET_PATH.exec(issue.path);
    const index = match ? Number(match[1]) : -1;
    const key = match ? `ticket-${index}` : 'file';
    const entry = byPlace.get(key) ?? {
      order: index,
      row: { key, where: match ? ticketWhere(index, format, recordLines) : 'File', messages: [] },
    };
    entry.row.messages.push(withField(match ? match[2] : issue.path, issue.message));
    byPlace.set(key, entry);
  }
  return [...byPlace.values()].sort((a, b) => a.order - b.order).map((entry) => entry.row);
}

/** Metadata as one line of text, `plan: pro, seats: 12`. */
export function metadataText(metadata: Record<string, unknown> | undefined): string {
  if (!metadata) return '';
  return Object.entries(metadata)
    .map(([key, value]) => `${key}: ${String(value)}`)
    .join(', ');
}

/** A ticket as a page names it: its place in the dataset, and its external id when it has one. */
export function ticketLabel(item: { position: number; ticket: { externalId?: string } }): string {
  const place = `ticket ${item.position + 1}`;
  return item.ticket.externalId ? `${place} (${item.ticket.externalId})` : place;
}

/** Where the CSV template for a pack is downloaded (the session cookie goes with a same-origin link). */
export function datasetTemplateUrl(packId: string): string {
  return `/api/packs/${encodeURIComponent(packId)}/dataset-template`;
}

/** An upload's result in a sentence: added, skipped as duplicates, and the dataset's count now. */
export function uploadSummary(result: { inserted: number; skipped: number; total: number }): string {
  const added = `${result.inserted} ${result.inserted === 1 ? 'ticket' : 'tickets'} added`;
  const skipped = result.skipped
    ? `, ${result.skipped} skipped (their external id is in the dataset already)`
    : '';
  return `${added}${skipped}; the dataset now holds ${result.total}.`;
}
