import fc from 'fast-check';
import { anyIndex, oneOf } from '../openapi-arbitraries.js';
import { flags, preview, type Family } from './cases.js';
import type { FuzzContext } from './context.js';
import { baseRequest, caseFrom } from './requests.js';
import type { World } from './world.js';

/** Query keys that Nest, class-transformer and class-validator each hid from the unknown-field rule. */
export const BUILT_IN_QUERY_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype'];

const QUERY_JUNK = [
  '',
  '%00',
  'a%00b',
  '%ff',
  '%ED%A0%80',
  encodeURIComponent('\u202eالعربية😀'),
  'a'.repeat(5_000),
  'a'.repeat(70_000),
  '%',
  'true',
  '-1',
  '1e999',
  'NaN',
  '[]',
  '__proto__',
  // Search and date filters (GET /api/evaluations' q, from, to): pattern and tsquery syntax, bad dates.
  encodeURIComponent("a:* & !b | 'c' <-> (d"),
  encodeURIComponent('.*[(\\%_'),
  encodeURIComponent('\u{10FFFF}'),
  '2026-02-30T00:00:00Z',
  encodeURIComponent('2026-01-01T00:00:00+25:00'),
  '9999-12-31T23:59:59.999999Z',
  '0000-01-01T00:00:00Z',
];

/** Cursors: random text, forged ones and the world's real cursor tampered with. */
function cursorJunk(world: World): fc.Arbitrary<string> {
  const b64 = (s: string) => Buffer.from(s).toString('base64url');
  const flip = (s: string, at: number) => {
    const i = at % s.length;
    return s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
  };
  return fc.oneof(
    fc.string({ maxLength: 60 }).map(encodeURIComponent),
    fc.base64String({ maxLength: 80 }).map(encodeURIComponent),
    fc.jsonValue({ maxDepth: 2 }).map((v) => `${b64(JSON.stringify(v))}.${b64('x'.repeat(16))}`),
    anyIndex.map((at) => encodeURIComponent(flip(world.cursor, at))),
    oneOf(
      encodeURIComponent(world.cursor),
      encodeURIComponent(`${world.cursor}.x`),
      encodeURIComponent(world.cursor.split('.')[0]),
      `${b64('["2026-01-01 00:00:00+00","not-a-uuid"]')}.AAAAAAAAAAAAAAAAAAAAAA`,
      `${b64('[-1]')}.AAAAAAAAAAAAAAAAAAAAAA`,
      '%00',
      '.',
    ),
  );
}

/** One query parameter given junk, repeated, or bracketed. */
export function queryFamily(ctx: FuzzContext): Family {
  return {
    name: 'query',
    applies: (op) => op.queryParams.length > 0,
    cases: (op) =>
      fc
        .tuple(
          baseRequest(ctx, op),
          flags,
          oneOf(...op.queryParams.map((p) => p.name)),
          fc.oneof(oneOf(...QUERY_JUNK), cursorJunk(ctx.world)),
          oneOf('replace', 'repeat', 'bracket'),
        )
        .map(([base, extra, name, junk, how]) => {
          const others = base.query.filter((q) => !q.startsWith(`${name}=`));
          // `?a=1&a=2` arrives as an array; `a[]=`/`a[b]=` probe nested-query parsers.
          const added =
            how === 'repeat'
              ? [`${name}=${junk}`, `${name}=${junk}2`]
              : how === 'bracket'
                ? [`${name}[]=${junk}`, `${name}[b]=1`]
                : [`${name}=${junk}`];
          const note = `${how} ${name}=${preview(junk, 40)}`;
          return caseFrom(ctx, op, 'query', note, { ...base, query: [...others, ...added] }, extra);
        }),
  };
}
