import { describe, expect, it } from '@jest/globals';
import {
  csvRecordLines,
  datasetTemplateUrl,
  jsonUploadBody,
  metadataText,
  refusalRows,
  ticketLabel,
  uploadFormat,
  uploadSummary,
} from './datasets';

describe('uploadFormat', () => {
  it('knows CSV and JSON by extension, then by media type', () => {
    expect(uploadFormat('tickets.CSV')).toBe('csv');
    expect(uploadFormat('tickets.json', 'text/plain')).toBe('json');
    expect(uploadFormat('export', 'text/csv; charset=utf-8')).toBe('csv');
    expect(uploadFormat('export', 'application/json')).toBe('json');
    expect(uploadFormat('notes.txt', 'text/plain')).toBeNull();
  });
});

describe('jsonUploadBody', () => {
  it('sends {tickets} as it is and wraps a bare array', () => {
    expect(jsonUploadBody('{"tickets":[{"subject":"a"}]}')).toEqual({
      ok: true,
      body: { tickets: [{ subject: 'a' }] },
    });
    expect(jsonUploadBody('[{"subject":"a"}]')).toEqual({ ok: true, body: { tickets: [{ subject: 'a' }] } });
  });

  it('refuses invalid JSON and other shapes before any request', () => {
    expect(jsonUploadBody('{"tickets":')).toEqual({ ok: false, message: 'The file is not valid JSON.' });
    expect(jsonUploadBody('{"subject":"a"}').ok).toBe(false);
    expect(jsonUploadBody('null').ok).toBe(false);
  });
});

describe('csvRecordLines', () => {
  it('gives the line each data row starts on, after the header', () => {
    expect(csvRecordLines('subject,customerMessage\na,b\nc,d\n')).toEqual([2, 3]);
  });

  it('skips blank lines and follows quoted line breaks, with CRLF and a BOM', () => {
    const text = '\uFEFFsubject,customerMessage\r\n\r\na,"one\r\ntwo ""quoted"""\r\n\r\nc,d';
    expect(csvRecordLines(text)).toEqual([3, 6]);
  });

  it('is empty without data rows', () => {
    expect(csvRecordLines('')).toEqual([]);
    expect(csvRecordLines('subject,customerMessage\n')).toEqual([]);
  });
});

describe('refusalRows', () => {
  const issues = [
    {
      path: 'tickets.1.customerMessage',
      message: 'customerMessage must be longer than or equal to 1 characters',
    },
    { path: 'tickets.0.subject', message: 'subject must be a string' },
    { path: 'tickets.1.messages.0.role', message: 'role must be one of the following values: customer' },
  ];

  it('names the CSV line of each row, in file order, one entry per row', () => {
    const lines = csvRecordLines('subject,customerMessage\n\n,x\n"a\nb",\n');
    expect(refusalRows('invalid request', issues, 'csv', lines)).toEqual([
      { key: 'ticket-0', where: 'Line 3', messages: ['subject must be a string'] },
      {
        key: 'ticket-1',
        where: 'Line 4',
        messages: [
          'customerMessage must be longer than or equal to 1 characters',
          'messages.0: role must be one of the following values: customer',
        ],
      },
    ]);
  });

  it('numbers JSON tickets from 1 and keeps file-wide issues first', () => {
    const rows = refusalRows(
      'invalid request',
      [...issues, { path: 'tickets', message: 'tickets must contain no more than 250 elements' }],
      'json',
    );
    expect(rows.map((row) => row.where)).toEqual(['File', 'Ticket 1', 'Ticket 2']);
    expect(rows[0].messages).toEqual(['tickets must contain no more than 250 elements']);
  });

  it('reads the line out of a malformed-CSV message', () => {
    expect(refusalRows('invalid CSV at line 7: quote not closed', [], 'csv')).toEqual([
      { key: 'line-7', where: 'Line 7', messages: ['quote not closed'] },
    ]);
    expect(refusalRows('dataset would exceed 250 tickets (200 stored, 60 uploaded)', [], 'csv')).toEqual([]);
  });

  it('falls back to the row number when the line is unknown', () => {
    expect(refusalRows('invalid request', [issues[1]], 'csv')[0].where).toBe('Row 1');
  });
});

describe('small formats', () => {
  it('lists metadata', () => {
    expect(metadataText({ plan: 'pro', seats: 12, trial: null })).toBe('plan: pro, seats: 12, trial: null');
    expect(metadataText(undefined)).toBe('');
  });
});

describe('ticketLabel', () => {
  it('names the place from 1, with the external id when there is one', () => {
    expect(ticketLabel({ position: 0, ticket: {} })).toBe('ticket 1');
    expect(ticketLabel({ position: 4, ticket: { externalId: 'ZD-9' } })).toBe('ticket 5 (ZD-9)');
  });
});

describe('uploadSummary', () => {
  it('says what was added and, when any, what was skipped as already there', () => {
    expect(uploadSummary({ inserted: 1, skipped: 0, total: 1 })).toBe(
      '1 ticket added; the dataset now holds 1.',
    );
    expect(uploadSummary({ inserted: 0, skipped: 3, total: 3 })).toBe(
      '0 tickets added, 3 skipped (their external id is in the dataset already); the dataset now holds 3.',
    );
  });
});

describe('datasetTemplateUrl', () => {
  it("is the pack's template route, the id encoded", () => {
    expect(datasetTemplateUrl('a/b')).toBe('/api/packs/a%2Fb/dataset-template');
  });
});
