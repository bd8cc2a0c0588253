import fc from 'fast-check';
import { oneOf, type Operation } from '../openapi-arbitraries.js';
import { flags, preview, type Family } from './cases.js';
import type { FuzzContext } from './context.js';
import { baseRequest, caseFrom } from './requests.js';
import { isDestructive, kindOfPathParam, ownId, type Kind } from './world.js';

/** Path segments: the caller's ids, other kinds' ids, strangers' UUIDs, junk and encoded junk. */
function pathSegments(ctx: FuzzContext, op: Operation, name: string): fc.Arbitrary<string> {
  const kind = kindOfPathParam(op.path, name);
  const own = kind ? ownId(ctx.world, kind, isDestructive(op)) : fc.uuid({ version: 4 });
  // Ids of the caller's records of other kinds (a pack id where a dataset id belongs).
  const otherKinds = oneOf(
    ...(['pack', 'evaluation', 'dataset', 'simulation', 'version'] as Kind[]).filter((k) => k !== kind),
  ).chain((k) => ownId(ctx.world, k, isDestructive(op)));
  const junk = oneOf(
    'not-a-uuid',
    '0',
    '-1',
    'null',
    '__proto__',
    'constructor',
    '%00',
    '%ff',
    '%2e%2e',
    '..',
    '%2f',
    '%25',
    '%',
    'a'.repeat(200),
    '%ED%A0%80',
    '%E2%80%AEabc',
    encodeURIComponent('العربية'),
    '%20',
    '00000000-0000-0000-0000-000000000000',
    'x'.repeat(101),
  );
  const bent = own.chain((id) =>
    oneOf(id.toUpperCase(), `${id}a`, id.replace(/-/g, ''), `%7B${id}%7D`, id.slice(1)),
  );
  return fc.oneof(own, otherKinds, fc.uuid({ version: 4 }), junk, bent);
}

/** Every path parameter replaced at once. */
export function pathFamily(ctx: FuzzContext): Family {
  return {
    name: 'path',
    applies: (op) => op.pathParams.length > 0,
    cases: (op) =>
      fc
        .tuple(
          baseRequest(ctx, op),
          flags,
          fc.tuple(...op.pathParams.map((name) => pathSegments(ctx, op, name))),
        )
        .map(([base, extra, segments]) => {
          let i = 0;
          const path = op.path.replace(/\{[^}]+\}/g, () => segments[i++]);
          const note = `params ${segments.map((s) => preview(s, 40)).join(', ')}`;
          return caseFrom(ctx, op, 'path', note, { ...base, path }, extra);
        }),
  };
}
