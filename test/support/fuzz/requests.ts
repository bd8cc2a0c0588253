import fc from 'fast-check';
import {
  oneOf,
  schemaArbitrary,
  toJsonText,
  type ArbitraryOptions,
  type Operation,
  type SchemaSite,
} from '../openapi-arbitraries.js';
import { makeCase, type Case } from './cases.js';
import type { FuzzContext } from './context.js';
import { ID_FIELDS, isDestructive, kindOfPathParam, ownId } from './world.js';

/** Valid requests: path ids, query, body and headers an honest client would send. */
export interface BaseRequest {
  path: string;
  query: string[];
  headers: Record<string, string>;
  body?: unknown;
}

/** `destructive` draws path ids from the spares, for requests that may delete what they name. */
export function baseRequest(
  ctx: FuzzContext,
  op: Operation,
  destructive = isDestructive(op),
): fc.Arbitrary<BaseRequest> {
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const name of op.pathParams) {
    const kind = kindOfPathParam(op.path, name);
    params[name] = kind ? ownId(ctx.world, kind, destructive) : fc.uuid({ version: 4 });
  }
  const query = op.queryParams.map((p) => {
    const kind = ID_FIELDS[p.name];
    const value = kind
      ? ownId(ctx.world, kind, false)
      : schemaArbitrary(ctx.doc, p.schema ?? { type: 'string' });
    const pair = value.map((v) => `${p.name}=${encodeURIComponent(String(v))}`);
    return p.required ? pair : fc.option(pair, { nil: undefined });
  });
  const body = op.bodySchema
    ? schemaArbitrary(ctx.doc, op.bodySchema, bodyOptions(ctx))
    : fc.constant(undefined);
  return fc.record({ params: fc.record(params), query: fc.tuple(...query), body }).map((r) => ({
    path: op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(r.params[name])),
    query: r.query.filter((q): q is string => q !== undefined),
    headers: {},
    body: r.body,
  }));
}

function bodyOptions(ctx: FuzzContext): ArbitraryOptions {
  const options: ArbitraryOptions = {
    plant: { schemas: ['TicketDto'], marker: ctx.marks.marker },
    override: (site: SchemaSite) => bodyOverride(ctx, site, options),
  };
  return options;
}

function bodyOverride(
  ctx: FuzzContext,
  site: SchemaSite,
  options: ArbitraryOptions,
): fc.Arbitrary<unknown> | undefined {
  const kind = ID_FIELDS[site.property ?? ''];
  if (kind && site.schema.format === 'uuid') return ownId(ctx.world, kind, false);
  const alnum = fc.string({
    unit: oneOf(...'abcdefghijklmnopqrstuvwxyz0123456789'),
    maxLength: 10,
  });
  if (site.property === 'email') return alnum.map((s) => `${ctx.marks.email}${s}@example.com`);
  if (site.property === 'password')
    return fc.string({ maxLength: 30 }).map((s) => `${ctx.marks.password}${s}`);
  if (site.property === 'url')
    return oneOf(ctx.receiverUrl, 'http://127.0.0.1:1/closed', 'not a url', 'ftp://example.com/x');
  const plain = () => schemaArbitrary(ctx.doc, site.schema, { ...options, override: undefined });
  // Random documents and labels rarely fit; known-good ones reach the code behind validation.
  if (site.schemaName === 'PackDocumentDto' && site.property === 'document')
    return fc.oneof(fc.constant(ctx.examplePack.document), plain());
  if (site.schemaName === 'CreateLabelDto' && site.property === undefined)
    return fc.oneof(oneOf(...ctx.validLabels), plain());
  return undefined;
}

/** A case from a base request with some of its parts replaced. */
export function caseFrom(
  ctx: FuzzContext,
  op: Operation,
  family: string,
  note: string,
  base: BaseRequest,
  extra: { anonymous: boolean; bearer: boolean },
  /** A Buffer body is sent as is; any other body is written as JSON. */
  change: Partial<Omit<Case, 'body'>> & { body?: unknown } = {},
): Case {
  const body = 'body' in change ? change.body : base.body;
  const encoded =
    body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(toJsonText(body), 'utf8');
  const jsonType: Record<string, string> =
    encoded && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {};
  const url = base.path + (base.query.length ? `?${base.query.join('&')}` : '');
  const method = change.method ?? op.method;
  const forbidden =
    !!op.bodySchema && !!encoded && !Buffer.isBuffer(body) && method === op.method
      ? !ctx.documented(op.bodySchema, JSON.parse(encoded.toString('utf8')))
      : false;
  return makeCase({
    forbidden,
    family,
    note,
    method: op.method,
    url,
    ...extra,
    ...change,
    headers: { ...jsonType, ...base.headers, ...change.headers },
    body: encoded,
  });
}
