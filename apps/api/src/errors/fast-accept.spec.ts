import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { instanceToPlain } from 'class-transformer';
import { JudgeRequestDto } from '../judging/judgment.dto.js';
import { fastAcceptOf } from './fast-accept.js';
import { createValidationPipe, VALIDATION_OPTIONS } from './validation.pipe.js';
import { seededRandom } from '../../../../test/support/random.js';

const BODY: ArgumentMetadata = { type: 'body', metatype: JudgeRequestDto };
const fastCheck = fastAcceptOf(JudgeRequestDto)!;

/** The ValidationPipe exactly as configured, without the fast path: the authority on validity. */
const authority = new ValidationPipe(VALIDATION_OPTIONS);

async function authorityAccepts(body: unknown): Promise<{ ok: boolean; value?: unknown }> {
  try {
    return { ok: true, value: await authority.transform(structuredClone(body), BODY) };
  } catch {
    return { ok: false };
  }
}

const VALID_BODIES: unknown[] = [
  { packId: 'p', ticket: { subject: 's', customerMessage: 'm' } },
  {
    packId: '5b1c3d0e-7f5a-4c2b-9d1e-3f4a5b6c7d8e',
    ticket: {
      externalId: 'ZD-1001',
      subject: 'Charged twice',
      customerMessage: 'Hello, I was charged twice. Reach me at jane.doe@example.com.',
      messages: [
        { role: 'agent', text: 'Thanks, looking into it.', at: '2026-11-20T10:00:00Z' },
        { role: 'customer', text: '' },
        { role: 'system', text: 'escalated', at: '2026-11-20T10:05:00.123+01:00' },
      ],
      metadata: { plan: 'pro', seats: 3, vip: false, region: null },
      createdAt: '2026-11-20T09:59:59Z',
    },
  },
];

/** Values a mutation may put anywhere: wrong types, empty and odd strings, dates good and bad. */
const ODD_VALUES: unknown[] = [
  null,
  '',
  ' ',
  '\uFE0F',
  'x',
  'x'.repeat(40_000),
  0,
  -1.5,
  true,
  false,
  [],
  {},
  ['x'],
  { nested: { deeper: 1 } },
  '2026-02-30T00:00:00Z',
  '2026-11-20',
  '2026-11-20 10:00:00Z',
  '2026-11-20t10:00:00z',
  '2026-13-01T00:00:00Z',
  '2026-11-20T25:00:00Z',
  'not a date',
  'Customer',
  'agent',
  'bot',
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

describe('fast accept of the judge and inbound body', () => {
  it('accepts the ordinary bodies, so the hot routes skip class-validator', async () => {
    for (const body of VALID_BODIES) {
      expect(fastCheck(body)).toBe(true);
      expect((await authorityAccepts(body)).ok).toBe(true);
    }
  });

  it('accepts only bodies that class-validator accepts, with the same value (3000 mutated bodies)', async () => {
    const next = seededRandom(20261122);
    let fastAccepted = 0;
    let bothRefused = 0;
    for (let i = 0; i < 3000; i++) {
      let body = pick(VALID_BODIES, next);
      for (let changes = 1 + Math.floor(next() * 3); changes > 0; changes--) body = mutate(body, next);
      const verdict = await authorityAccepts(body);
      if (fastCheck(body)) {
        fastAccepted += 1;
        if (!verdict.ok) throw new Error(`accepted by the fast check only: ${JSON.stringify(body)}`);
        expect(instanceToPlain(verdict.value)).toEqual(body);
      } else if (!verdict.ok) {
        bothRefused += 1;
      }
    }
    // The fuzz reaches both sides: bodies the fast check accepts, and invalid ones it leaves to the pipe.
    expect(fastAccepted).toBeGreaterThan(100);
    expect(bothRefused).toBeGreaterThan(100);
  });

  it('refuses non-object bodies and leaves them to the pipe', () => {
    for (const body of [null, [], 'x', 42, [VALID_BODIES[0]]]) expect(fastCheck(body)).toBe(false);
  });

  it('hands an accepted body on as parsed, and validates the rest as before', async () => {
    const pipe = createValidationPipe();
    const body = structuredClone(VALID_BODIES[1]);
    expect(await pipe.transform(body, BODY)).toBe(body);

    // Left to the pipe, which refuses it: null is not a value of an optional field.
    const withNull = { packId: 'p', ticket: { subject: 's', customerMessage: 'm', externalId: null } };
    expect(fastCheck(withNull)).toBe(false);
    await expect(pipe.transform(withNull, BODY)).rejects.toMatchObject({
      issues: [{ path: 'ticket.externalId', message: 'externalId must not be null' }],
    });
    const tooLong = { packId: 'p', ticket: { subject: 's'.repeat(1001), customerMessage: 'm' } };
    expect(fastCheck(tooLong)).toBe(false);
    await expect(pipe.transform(tooLong, BODY)).rejects.toMatchObject({
      issues: [{ path: 'ticket.subject' }],
    });

    await expect(
      pipe.transform({ packId: 'p', ticket: { subject: '', customerMessage: 'm' } }, BODY),
    ).rejects.toMatchObject({ issues: [{ path: 'ticket.subject' }] });
  });
});

function pick<T>(items: T[], next: () => number): T {
  return items[Math.floor(next() * items.length)];
}
