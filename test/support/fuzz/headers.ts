import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { oneOf } from '../openapi-arbitraries.js';
import { flags, preview, type Family } from './cases.js';
import type { FuzzContext } from './context.js';
import { baseRequest, caseFrom } from './requests.js';

const utf8AsLatin1 = (s: string) => Buffer.from(s, 'utf8').toString('latin1');

interface HeaderChange {
  note: string;
  headers: Record<string, string>;
  /** Sent instead of the generated body (bad content types need one). */
  body?: Buffer;
  /** The headers are the credential. */
  ownCredential?: boolean;
}

const headerChange = (note: string, headers: Record<string, string>, more: Partial<HeaderChange> = {}) => ({
  note,
  headers,
  ...more,
});

/** Bad content types, idempotency keys, request ids, oversized headers and junk credentials. */
function headerChanges(sessionCookie: string): fc.Arbitrary<HeaderChange> {
  const body = Buffer.from('{"x":1}');
  const contentTypes = oneOf(
    'text/plain',
    'multipart/form-data; boundary=----fuzz',
    'application/json; charset=utf-16',
    'application/json; charset=latin1',
    'application/x-www-form-urlencoded',
    'application/jsonx',
    'application/json, text/plain',
    '',
    utf8AsLatin1('application/jsön'),
  );
  const idempotency = oneOf(
    '',
    ' ',
    'a'.repeat(129),
    'a'.repeat(128),
    utf8AsLatin1('ключ-🔑'),
    '\u00e9t\u00e9',
  );
  const requestIds = oneOf(
    'a'.repeat(300),
    '../../etc/passwd',
    utf8AsLatin1('идентификатор'),
    '<script>',
    'a b',
    '',
  );
  const junkCredentials: [string, Record<string, string>][] = [
    ['x-api-key random', { 'x-api-key': `tj_${randomBytes(16).toString('hex')}` }],
    ['x-api-key empty', { 'x-api-key': '' }],
    ['bearer empty', { authorization: 'Bearer ' }],
    ['bearer two words', { authorization: 'Bearer a b' }],
    ['basic auth', { authorization: 'Basic Zm9vOmJhcg==' }],
    ['session cookie junk', { cookie: 'tj_session=junk' }],
    ['session cookie tampered', { cookie: `${sessionCookie.slice(0, -2)}xx` }],
    ['cookie header junk', { cookie: utf8AsLatin1('tj_session=ü; ;;=') }],
  ];
  return fc.oneof(
    contentTypes.map((t) =>
      headerChange(`content-type ${JSON.stringify(t)}`, { 'content-type': t }, { body }),
    ),
    fc.constant(headerChange('body without content-type', {}, { body })),
    fc.constant(
      headerChange('empty JSON body', { 'content-type': 'application/json' }, { body: Buffer.alloc(0) }),
    ),
    idempotency.map((k) =>
      headerChange(`Idempotency-Key ${preview(JSON.stringify(k), 20)}`, { 'idempotency-key': k }),
    ),
    requestIds.map((id) =>
      headerChange(`x-request-id ${preview(JSON.stringify(id), 20)}`, { 'x-request-id': id }),
    ),
    oneOf(20_000, 70_000).map((n) =>
      headerChange(`x-fuzz header of ${n} chars`, { 'x-fuzz': 'a'.repeat(n) }),
    ),
    oneOf('text/html', 'application/xml', '*/*;q=0').map((a) => headerChange(`accept ${a}`, { accept: a })),
    oneOf(...junkCredentials).map(([note, h]) => headerChange(note, h, { ownCredential: true })),
  );
}

export function headerFamily(ctx: FuzzContext): Family {
  return {
    name: 'headers',
    applies: () => true,
    cases: (op) =>
      fc
        .tuple(baseRequest(ctx, op), flags, headerChanges(ctx.world.cookie))
        .map(([base, extra, { note, headers, body, ownCredential }]) =>
          caseFrom(ctx, op, 'headers', note, base, extra, {
            headers,
            ownCredential,
            ...(body ? { body } : {}),
          }),
        ),
  };
}
