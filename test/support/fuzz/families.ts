import fc from 'fast-check';
import { bodyFamilies } from './body.js';
import { flags, type Family } from './cases.js';
import type { FuzzContext } from './context.js';
import { csvFamily } from './csv.js';
import { headerFamily } from './headers.js';
import { pathFamily } from './path.js';
import { queryFamily } from './query.js';
import { baseRequest, caseFrom } from './requests.js';
import { verbFamily } from './verbs.js';

/** Schema-valid requests, as an honest client would send them. */
function validFamily(ctx: FuzzContext): Family {
  return {
    name: 'valid',
    applies: () => true,
    cases: (op) =>
      fc
        .tuple(baseRequest(ctx, op), flags)
        .map(([base, extra]) => caseFrom(ctx, op, 'valid', 'schema-valid', base, extra)),
  };
}

/** Every family, in the order the suite runs them. */
export function fuzzFamilies(ctx: FuzzContext): Family[] {
  return [
    validFamily(ctx),
    ...bodyFamilies(ctx),
    pathFamily(ctx),
    queryFamily(ctx),
    headerFamily(ctx),
    verbFamily(ctx),
    csvFamily(ctx),
  ];
}
