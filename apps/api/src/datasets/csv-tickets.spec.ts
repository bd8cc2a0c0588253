import { describe, expect, it } from '@jest/globals';
import { parse } from 'csv-parse/sync';
import { BadRequestError } from '@app/domain';
import { csvField, csvToTickets, datasetTemplateCsv, templateFileName } from './csv-tickets.js';

describe('csvField (RFC 4180)', () => {
  it('leaves plain text alone and quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('expected:department')).toBe('expected:department');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rlf')).toBe('"cr\rlf"');
  });

  it('writes fields csv-parse reads back as they were', () => {
    const fields = ['plain', 'a,b', 'say "hi"', 'two\r\nlines', ''];
    expect(parse(`${fields.map(csvField).join(',')}\r\n`)).toEqual([fields]);
  });
});

describe('datasetTemplateCsv', () => {
  it('is one header row: the ticket columns, then an expected column per question', () => {
    expect(datasetTemplateCsv(['department', 'refund_request'])).toBe(
      'externalId,subject,customerMessage,expected:department,expected:refund_request\r\n',
    );
    expect(datasetTemplateCsv([])).toBe('externalId,subject,customerMessage\r\n');
  });

  it('is a header the upload takes back, with no ticket yet', () => {
    expect(csvToTickets(datasetTemplateCsv(['department']))).toEqual([]);
  });
});

describe('csvToTickets: expected answers', () => {
  it('puts expected:<questionId> cells into expected, as text; empty cells are left out', () => {
    const csv = [
      'externalId,subject,customerMessage,expected:department,expected:refund,plan',
      'Z-1,Charged twice,Refund please,billing,true,pro',
      'Z-2,Login,Cannot sign in,,,',
    ].join('\n');
    expect(csvToTickets(csv)).toEqual([
      {
        externalId: 'Z-1',
        subject: 'Charged twice',
        customerMessage: 'Refund please',
        expected: { department: 'billing', refund: 'true' },
        metadata: { plan: 'pro' },
      },
      { externalId: 'Z-2', subject: 'Login', customerMessage: 'Cannot sign in' },
    ]);
  });

  it('refuses an expected column without a valid question id, naming the column', () => {
    for (const [column, index] of [
      ['expected:', 4],
      ['expected:not an id', 4],
      [`expected:${'x'.repeat(65)}`, 4],
    ] as const) {
      expect(() => csvToTickets(`subject,customerMessage,plan,${column}\na,b,c,d\n`)).toThrow(
        new BadRequestError(
          `CSV header column ${index}: expected: must be followed by a question id (1 to 64 letters, digits, _ or -)`,
        ),
      );
    }
  });
});

describe('templateFileName', () => {
  it("is the pack name's letters and digits, never a quote or a line break", () => {
    expect(templateFileName('Support triage')).toBe('support-triage-dataset-template.csv');
    expect(templateFileName('Café "VIP"\r\nX: y')).toBe('cafe-vip-x-y-dataset-template.csv');
    expect(templateFileName('???')).toBe('pack-dataset-template.csv');
  });
});
