import fc from 'fast-check';
import { oneOf } from '../openapi-arbitraries.js';
import { flags, preview, type Family } from './cases.js';
import type { FuzzContext } from './context.js';
import { baseRequest, caseFrom } from './requests.js';

/** CSV uploads: NUL, lone-surrogate bytes, missing headers, a huge cell, unbalanced quotes. */
function csvBodies(marker: string): fc.Arbitrary<[string, Buffer]> {
  const cell = fc.string({ maxLength: 20 }).map((s) => `${s.replace(/[",\r\n]/g, '')} ${marker}`);
  const headers = fc.oneof(
    {
      arbitrary: oneOf('subject,customerMessage', 'externalId,subject,customerMessage,plan'),
      weight: 3,
    },
    oneOf(
      'foo,bar',
      '',
      'subject,subject,customerMessage',
      '\ufeffsubject,customerMessage',
      'subject\u0000,customerMessage',
      '__proto__,subject,customerMessage',
    ),
  );
  // Each breaker spoils the first data row only, so the rest of the upload stays plausible.
  const breakers: [string, (row: string) => Buffer][] = [
    ['plain', (row) => Buffer.from(row)],
    ['NUL in a cell', (row) => Buffer.from(row.replace(' ', '\u0000'))],
    ['lone surrogate bytes', (row) => Buffer.concat([Buffer.from(row), Buffer.from([0xed, 0xa0, 0x80])])],
    ['invalid UTF-8', (row) => Buffer.concat([Buffer.from(row), Buffer.from([0xff, 0xfe])])],
    ['unbalanced quote', (row) => Buffer.from(`"${row}`)],
    ['quote mid-cell', (row) => Buffer.from(row.replace(' ', ' "x" '))],
    ['huge cell', (row) => Buffer.from(`${row}${'y'.repeat(900_000)}`)],
    ['extra field', (row) => Buffer.from(`${row},extra,more`)],
    ['missing field', (row) => Buffer.from(row.split(',')[0])],
  ];
  return fc
    .tuple(
      headers,
      fc.array(fc.tuple(cell, cell, cell, cell), { minLength: 1, maxLength: 4 }),
      oneOf(...breakers),
      oneOf('\n', '\r\n'),
      oneOf(false, false, true),
    )
    .map(([header, cells, [note, breakRow], eol, overCapacity]) => {
      const width = Math.max(header.split(',').length, 1);
      // 251 rows: one more than a dataset holds.
      const rows = Array.from({ length: overCapacity ? 251 : cells.length }, (_, i) =>
        cells[i % cells.length].slice(0, width).join(','),
      );
      const lines = rows.map((row, i) => (i === 0 ? breakRow(row) : Buffer.from(row)));
      const body = Buffer.concat(
        [header, ...lines].map((line) => Buffer.concat([Buffer.from(line), Buffer.from(eol)])),
      );
      return [`${note}, header ${JSON.stringify(preview(header, 30))}, ${rows.length} rows`, body];
    });
}

/** CSV uploads, under each of the content types a client may label them with. */
export function csvFamily(ctx: FuzzContext): Family {
  return {
    name: 'csv',
    weight: 6,
    applies: (op) => op.bodyTypes.includes('text/csv'),
    cases: (op) =>
      fc
        .tuple(
          baseRequest(ctx, op),
          flags,
          csvBodies(ctx.marks.marker),
          oneOf('text/csv', 'text/csv; charset=utf-8', 'text/csv; charset=latin1'),
        )
        .map(([base, extra, [note, body], type]) =>
          caseFrom(ctx, op, 'csv', `${type}: ${note}`, base, extra, {
            body,
            headers: { 'content-type': type },
          }),
        ),
  };
}
