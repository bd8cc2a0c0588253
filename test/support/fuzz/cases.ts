import fc from 'fast-check';
import type { Operation } from '../openapi-arbitraries.js';

/** One generated request, sent raw (exact bytes, exact path) with each credential. */
export interface Case {
  family: string;
  /** What was broken, in a few words. */
  note: string;
  method: string;
  /** Path and query exactly as sent (already percent-encoded, or deliberately not). */
  url: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** The case carries its own (junk) credential: send it once, as is. */
  ownCredential?: boolean;
  /** Also send it without any credential. */
  anonymous: boolean;
  /** The key as `Authorization: Bearer` instead of `x-api-key`. */
  bearer: boolean;
  /** The JSON body breaks the operation's documented schema, so it must not be accepted. */
  forbidden?: boolean;
}

export type Credential = 'key' | 'bearer' | 'session' | 'none';

/** One way to break a request, tried on the operations it applies to. */
export interface Family {
  name: string;
  /** Runs are FUZZ_RUNS times this: families whose sites are many, or whose breakage is rare, get more. */
  weight?: number;
  applies(op: Operation): boolean;
  cases(op: Operation): fc.Arbitrary<Case>;
}

/** Whether a case is also sent without a credential, and the key as a bearer token. */
export const flags = fc.record({ anonymous: fc.boolean(), bearer: fc.boolean() });

export function makeCase(fields: Omit<Case, 'anonymous' | 'bearer'> & Partial<Case>): Case {
  const c: Case = { anonymous: false, bearer: false, ...fields };
  // fast-check prints counterexamples with this: short, whatever the body's size.
  return Object.assign(c, {
    [fc.toStringMethod]: () => {
      const body = c.body ? ` body(${c.body.length} B)=${preview(c.body.toString('utf8'), 160)}` : '';
      const shown = Object.entries(c.headers).map(([name, value]) => `${name}: ${preview(value, 40)}`);
      const headers = shown.length ? ` headers={${shown.join(', ')}}` : '';
      return `${c.method} ${preview(c.url, 160)} [${c.family}: ${c.note}]${headers}${body}`;
    },
  });
}

export function preview(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text;
}
