import fc from 'fast-check';
import { oneOf } from '../openapi-arbitraries.js';
import { flags, type Family } from './cases.js';
import type { FuzzContext } from './context.js';
import { baseRequest, caseFrom } from './requests.js';

/** The operation's path and request under every other method. */
export function verbFamily(ctx: FuzzContext): Family {
  return {
    name: 'verbs',
    applies: () => true,
    cases: (op) =>
      fc
        .tuple(
          // Another verb on the same path may be its DELETE: only spare records are named.
          baseRequest(ctx, op, true),
          flags,
          oneOf(...['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'].filter((m) => m !== op.method)),
        )
        .map(([base, extra, method]) =>
          caseFrom(ctx, op, 'verbs', `${method} instead of ${op.method}`, base, extra, { method }),
        ),
  };
}
