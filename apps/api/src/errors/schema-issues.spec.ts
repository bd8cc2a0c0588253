import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ValidationError } from '@app/domain';
import { UploadTicketsDto } from '../datasets/datasets.dto.js';
import { JudgeRequestDto } from '../judging/judgment.dto.js';
import { PlaygroundJudgeRequestDto } from '../judging/playground.dto.js';
import { JudgeTicketArgs } from '../mcp/mcp-tool-args.dto.js';
import { BodySchema, type SchemaDtoClass } from './schema-body.js';

const T = { subject: 's', customerMessage: 'm' };
const METADATA_RULES =
  'metadata must have at most 50 entries, keys of at most 100 characters, and values that are strings (at most 2000 characters), numbers, booleans or null';
const STRING_RULES = (name: string, max: number) => [
  `${name} must be shorter than or equal to ${max} characters`,
  `${name} must be longer than or equal to 1 characters`,
  `${name} must be a string`,
];
const PACK_ID_RULES = ['packId must be longer than or equal to 1 characters', 'packId must be a string'];
const TICKET_MISSING = ['ticket should not be null or undefined', 'ticket must be an object'];

/** [path, message] pairs, as the class-validator DTOs these schemas replace worded them. */
type Expected = [string, string][];
const at = (path: string, messages: string[]): Expected => messages.map((message) => [path, message]);

function refuse(dto: SchemaDtoClass, body: unknown): Expected {
  const thrown = thrownBy(() => dto.bodySchema.parse(body));
  expect(thrown).toBeInstanceOf(ValidationError);
  const issues = (thrown as ValidationError).issues;
  expect(dto.bodySchema.issues(body)).toEqual(issues);
  return issues.map((issue) => [issue.path, issue.message]);
}

const JUDGE_CASES: [string, unknown, Expected][] = [
  ['an empty body', {}, [...at('packId', PACK_ID_RULES), ...at('ticket', TICKET_MISSING)]],
  [
    'unknown fields first, then each field in order',
    { extra: 1, packId: 5, ticket: { subject: '' } },
    [
      ['extra', 'property extra should not exist'],
      ...at('packId', PACK_ID_RULES),
      ['ticket.subject', 'subject must be longer than or equal to 1 characters'],
      ...at('ticket.customerMessage', STRING_RULES('customerMessage', 100_000)),
    ],
  ],
  [
    'every rule a wrongly typed field fails, and null alone',
    {
      packId: 'p',
      ticket: {
        subject: 42,
        customerMessage: null,
        extra: 1,
        other: 2,
        messages: [{ role: 'bot', text: 5, x: 1 }],
      },
    },
    [
      ['ticket.extra', 'property extra should not exist'],
      ['ticket.other', 'property other should not exist'],
      ...at('ticket.subject', STRING_RULES('subject', 1000)),
      ['ticket.customerMessage', 'customerMessage must not be null'],
      ['ticket.messages.0.x', 'property x should not exist'],
      ['ticket.messages.0.role', 'role must be one of the following values: customer, agent, system'],
      ['ticket.messages.0.text', 'text must be shorter than or equal to 100000 characters'],
      ['ticket.messages.0.text', 'text must be a string'],
    ],
  ],
  [
    'a string where the ticket belongs',
    { packId: 'p', ticket: 'x' },
    [['ticket', 'ticket must be an object']],
  ],
  [
    'an array where the ticket belongs',
    { packId: 'p', ticket: [T] },
    [['ticket', 'ticket must be an object']],
  ],
  [
    'an unknown field sent as null',
    { packId: 'p', ticket: { ...T, extra: null } },
    [['ticket.extra', 'extra must not be null']],
  ],
  [
    'a too long subject',
    { packId: 'p', ticket: { ...T, subject: 'x'.repeat(1001) } },
    [['ticket.subject', 'subject must be shorter than or equal to 1000 characters']],
  ],
  [
    'a text that is not an ISO 8601 date',
    { packId: 'p', ticket: { ...T, createdAt: 'yesterday' } },
    [['ticket.createdAt', 'createdAt must be a valid ISO 8601 date string']],
  ],
  [
    'a date in the wrong case',
    { packId: 'p', ticket: { ...T, messages: [{ role: 'agent', text: 'x', at: '2026-11-20t10:00:00z' }] } },
    [['ticket.messages.0.at', 'at must be a valid ISO 8601 date string']],
  ],
  [
    'a number for a date',
    { packId: 'p', ticket: { ...T, createdAt: 42 } },
    [['ticket.createdAt', 'createdAt must be a valid ISO 8601 date string']],
  ],
  [
    'a message that is not an object',
    { packId: 'p', ticket: { ...T, messages: [{ role: 'agent', text: 'x' }, 'text', null] } },
    [['ticket.messages', 'each value in messages must be an object']],
  ],
  [
    'an empty message',
    { packId: 'p', ticket: { ...T, messages: [{}] } },
    [
      ['ticket.messages.0.role', 'role must be one of the following values: customer, agent, system'],
      ...at('ticket.messages.0.text', [
        'text must be shorter than or equal to 100000 characters',
        'text must be a string',
      ]),
    ],
  ],
  [
    'a string where the messages belong',
    { packId: 'p', ticket: { ...T, messages: 'x' } },
    at('ticket.messages', [
      'messages must be an array',
      'each value in messages must be an object',
      'messages must contain no more than 200 elements',
    ]),
  ],
  [
    '201 messages',
    {
      packId: 'p',
      ticket: { ...T, messages: Array.from({ length: 201 }, () => ({ role: 'agent', text: '' })) },
    },
    [['ticket.messages', 'messages must contain no more than 200 elements']],
  ],
  [
    'nested metadata',
    { packId: 'p', ticket: { ...T, metadata: { a: { b: 1 } } } },
    [['ticket.metadata', METADATA_RULES]],
  ],
  [
    '51 metadata entries',
    {
      packId: 'p',
      ticket: { ...T, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
    },
    [['ticket.metadata', METADATA_RULES]],
  ],
  [
    'a too long metadata key',
    { packId: 'p', ticket: { ...T, metadata: { ['k'.repeat(101)]: 1 } } },
    [['ticket.metadata', METADATA_RULES]],
  ],
  [
    'a too long metadata value',
    { packId: 'p', ticket: { ...T, metadata: { a: 'v'.repeat(2001) } } },
    [['ticket.metadata', METADATA_RULES]],
  ],
  [
    'an array for metadata',
    { packId: 'p', ticket: { ...T, metadata: [1, 2] } },
    at('ticket.metadata', [METADATA_RULES, 'metadata must be an object']),
  ],
];

describe('the issues of a refused body', () => {
  it.each(JUDGE_CASES)('judge body: %s', (_name, body, expected) => {
    expect(refuse(JudgeRequestDto, body)).toEqual(expected);
  });

  it('refuses null for every optional ticket field with one issue', () => {
    for (const field of ['externalId', 'metadata', 'messages', 'createdAt']) {
      const body = { packId: 'p', ticket: { ...T, [field]: null } };
      expect(refuse(JudgeRequestDto, body)).toEqual([[`ticket.${field}`, `${field} must not be null`]]);
    }
  });

  it('answers a body that is not an object with one issue', () => {
    for (const body of [null, [], 'x', 42, [{ packId: 'p', ticket: T }]])
      expect(refuse(JudgeRequestDto, body)).toEqual([['body', 'body must be a JSON object']]);
  });

  it('words the other bodies that carry a ticket alike', () => {
    expect(refuse(UploadTicketsDto, { tickets: Array.from({ length: 251 }, () => T) })).toEqual([
      ['tickets', 'tickets must contain no more than 250 elements'],
    ]);
    expect(refuse(UploadTicketsDto, { tickets: [] })).toEqual([
      ['tickets', 'tickets must contain at least 1 elements'],
    ]);
    expect(refuse(UploadTicketsDto, {})).toEqual(
      at('tickets', [
        'tickets must be an array',
        'each value in tickets must be an object',
        'tickets must contain no more than 250 elements',
        'tickets must contain at least 1 elements',
      ]),
    );
    expect(refuse(UploadTicketsDto, { tickets: [T, { subject: 'No message' }] })).toEqual(
      at('tickets.1.customerMessage', STRING_RULES('customerMessage', 100_000)),
    );
    // Expected answers: one sentence for the map, at the ticket's `expected`.
    const EXPECTED_RULES =
      'expected must have at most 100 entries, keys matching ^[A-Za-z0-9_-]{1,64}$, and values that are strings (at most 1000 characters), numbers or booleans';
    for (const expected of [{ 'not an id': 'x' }, { department: { choice: 'billing' } }, { q: '' }])
      expect(refuse(UploadTicketsDto, { tickets: [T, { ...T, expected }] })).toEqual([
        ['tickets.1.expected', EXPECTED_RULES],
      ]);
    expect(refuse(UploadTicketsDto, { tickets: [{ ...T, expected: 'billing' }] })).toEqual(
      at('tickets.0.expected', [EXPECTED_RULES, 'expected must be an object']),
    );
    expect(
      UploadTicketsDto.bodySchema.issues({ tickets: [{ ...T, expected: { q: true, r: 2, s: 'x' } }] }),
    ).toEqual([]);
    expect(refuse(JudgeTicketArgs, { packId: 'p', ticket: T, idempotencyKey: '' })).toEqual([
      ['idempotencyKey', 'idempotencyKey must be longer than or equal to 1 characters'],
    ]);
    expect(refuse(JudgeTicketArgs, { packId: 'p', ticket: T, idempotencyKey: 'k'.repeat(129) })).toEqual([
      ['idempotencyKey', 'idempotencyKey must be shorter than or equal to 128 characters'],
    ]);
    expect(refuse(PlaygroundJudgeRequestDto, { packId: 'p', ticket: T, packVersionId: 42 })).toEqual([
      ['packVersionId', 'packVersionId must be a string'],
    ]);
  });

  it('accepts what the DTOs accepted: ISO dates without a time, empty message texts, null metadata values', () => {
    const body = {
      packId: 'not-a-uuid',
      ticket: {
        ...T,
        createdAt: '2026-11-20',
        messages: [{ role: 'system', text: '' }],
        metadata: { a: null },
      },
    };
    expect(JudgeRequestDto.bodySchema.parse(body)).toBe(body);
    expect(JudgeRequestDto.bodySchema.issues(body)).toEqual([]);
  });

  it("falls back to the validator's wording for a keyword the walk does not know", () => {
    const schema = new BodySchema(
      z
        .strictObject({
          code: z
            .string()
            .regex(/^[A-Z]+$/)
            .optional(),
        })
        .meta({ minProperties: 1 }),
    );
    expect(schema.issues({ code: 'abc' })).toEqual([
      { path: 'code', message: 'code must match pattern "^[A-Z]+$"' },
    ]);
    // No field is wrong, so only the validator can say what is.
    expect(schema.issues({})).toEqual([]);
    expect(() => schema.parse({})).toThrow(ValidationError);
    expect(thrownBy(() => schema.parse({}))).toMatchObject({
      issues: [{ path: 'body', message: 'body must NOT have fewer than 1 properties' }],
    });
  });
});

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
