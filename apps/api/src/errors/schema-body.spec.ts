import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import type { ArgumentMetadata } from '@nestjs/common';
import fc from 'fast-check';
import { z } from 'zod';
import { ticketSchema } from '@app/domain';
import { judgeBodySchema } from '../judging/judge-body.schema.js';
import { JudgeRequestDto } from '../judging/judgment.dto.js';
import { TicketDto, TicketMessageDto } from '../judging/ticket.dto.js';
import { SaveWebhookEndpointDto } from '../webhooks/webhooks.dto.js';
import { SchemaDto } from './schema-body.js';
import { createValidationPipe } from './validation.pipe.js';
import { schemaArbitrary, type JsonSchema } from '../../../../test/support/openapi-arbitraries.js';
import { seededRandom } from '../../../../test/support/random.js';

const BODY: ArgumentMetadata = { type: 'body', metatype: JudgeRequestDto };
const schema = JudgeRequestDto.bodySchema;

/** Bodies the schema allows, generated from its OpenAPI form (what Swagger UI shows). */
const validBodies = schemaArbitrary(
  { paths: {} },
  z.toJSONSchema(judgeBodySchema, { target: 'openapi-3.0' }) as JsonSchema,
);

/** Values a mutation may put anywhere: wrong types, empty and odd strings, dates good and bad. */
const ODD_VALUES: unknown[] = [
  null,
  '',
  ' ',
  '\uFE0F',
  'x',
  'x'.repeat(1_001),
  0,
  -1.5,
  true,
  [],
  {},
  ['x'],
  { nested: { deeper: 1 } },
  '2026-02-30T00:00:00Z',
  '2026-11-20',
  '2026-11-20t10:00:00z',
  'not a date',
  'Customer',
  'agent',
];

type Container = Record<string, unknown> | unknown[];

function containers(value: unknown, found: Container[] = []): Container[] {
  if (value && typeof value === 'object') {
    found.push(value as Container);
    for (const child of Object.values(value)) containers(child, found);
  }
  return found;
}

/** One random change: a field removed, replaced by an odd value, or an unknown field added. */
function mutate(body: unknown, next: () => number): unknown {
  const copy = structuredClone(body);
  const pick = <T>(items: T[]): T => items[Math.floor(next() * items.length)];
  const target = pick(containers(copy));
  const keys = Object.keys(target);
  const roll = next();
  if (roll < 0.2 && keys.length) {
    if (Array.isArray(target)) target.splice(Number(pick(keys)), 1);
    else delete target[pick(keys)];
  } else if (roll < 0.85 && keys.length) {
    (target as Record<string, unknown>)[pick(keys)] = structuredClone(pick(ODD_VALUES));
  } else if (Array.isArray(target)) {
    target.push(structuredClone(pick(ODD_VALUES)));
  } else {
    target[pick(['unknown', 'role', 'text', 'at', 'metadata', 'messages', 'createdAt'])] = structuredClone(
      pick(ODD_VALUES),
    );
  }
  return copy;
}

describe('the judge and inbound body, defined once', () => {
  it('accepts every body its documented schema allows, as parsed (the same object)', () => {
    fc.assert(
      fc.property(validBodies, (body) => {
        expect(schema.parse(body)).toBe(body);
        expect(schema.issues(body)).toEqual([]);
      }),
      { numRuns: 300, seed: 20261125 },
    );
  });

  it('refuses exactly the bodies it finds issues in (3000 mutated bodies)', () => {
    const next = seededRandom(20261122);
    const seeds = fc.sample(validBodies, { numRuns: 50, seed: 7 });
    let accepted = 0;
    let refused = 0;
    for (let i = 0; i < 3000; i++) {
      let body = seeds[Math.floor(next() * seeds.length)];
      for (let changes = 1 + Math.floor(next() * 3); changes > 0; changes--) body = mutate(body, next);
      const issues = schema.issues(body);
      let valid = true;
      try {
        schema.parse(body);
      } catch {
        valid = false;
      }
      if (valid !== (issues.length === 0))
        throw new Error(`check and issues disagree on ${JSON.stringify(body)}`);
      if (valid) accepted += 1;
      else refused += 1;
    }
    // The fuzz reaches both sides: bodies that stay valid, and refused ones with their issues.
    expect(accepted).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(1000);
  });

  it('hands a valid body on as parsed, and leaves class-validator DTOs to class-validator', async () => {
    const pipe = createValidationPipe();
    const body = { packId: 'p', ticket: { subject: 's', customerMessage: 'm', metadata: { plan: 'pro' } } };
    expect(await pipe.transform(body, BODY)).toBe(body);
    await expect(
      pipe.transform({ packId: 'p', ticket: { subject: '', customerMessage: 'm' } }, BODY),
    ).rejects.toMatchObject({ issues: [{ path: 'ticket.subject' }] });

    const endpoint: ArgumentMetadata = { type: 'body', metatype: SaveWebhookEndpointDto };
    await expect(pipe.transform({ url: 42 }, endpoint)).rejects.toMatchObject({
      issues: [
        { path: 'url', message: 'url must be shorter than or equal to 2048 characters' },
        { path: 'url', message: 'url must be a string' },
      ],
    });
    await expect(pipe.transform([], endpoint)).rejects.toMatchObject({
      issues: [{ path: 'body', message: 'body must be a JSON object' }],
    });
    expect(await pipe.transform({ url: 'https://example.com' }, endpoint)).toBeInstanceOf(
      SaveWebhookEndpointDto,
    );
  });
});

describe('the OpenAPI properties of a schema-defined body', () => {
  // Where ApiProperty keeps a property's options (@nestjs/swagger's DECORATORS.API_MODEL_PROPERTIES).
  const property = (dto: { prototype: object }, key: string) =>
    Reflect.getMetadata('swagger/apiModelProperties', dto.prototype, key) as Record<string, unknown>;

  it("carries each field's constraints, descriptions and examples, and whether it is required", () => {
    expect(property(TicketDto, 'subject')).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      example: 'Charged twice for my subscription',
      required: true,
    });
    expect(property(TicketDto, 'externalId')).toMatchObject({ maxLength: 256, required: false });
    expect(property(TicketDto, 'metadata')).toMatchObject({
      type: 'object',
      maxProperties: 50,
      required: false,
    });
    expect(property(TicketMessageDto, 'role')).toMatchObject({ enum: ['customer', 'agent', 'system'] });
  });

  it('documents nested objects by their own class, lazily', () => {
    const messages = property(TicketDto, 'messages');
    expect(messages).toMatchObject({ isArray: true, maxItems: 200, required: false });
    expect((messages.type as () => unknown)()).toBe(TicketMessageDto);
    expect((property(JudgeRequestDto, 'ticket').type as () => unknown)()).toBe(TicketDto);
  });

  it("refuses a class that does not document the field's schema", () => {
    class Mislabeled extends SchemaDto(
      z.strictObject({ ticket: ticketSchema.extend({ extra: z.string() }) }),
      {
        ticket: () => TicketDto,
      },
    ) {}
    expect(() => (property(Mislabeled, 'ticket').type as () => unknown)()).toThrow(
      /TicketDto does not document/,
    );
  });
});
