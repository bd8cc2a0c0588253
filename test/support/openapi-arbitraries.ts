import { Ajv } from 'ajv';
import fc from 'fast-check';

/** The parts of JSON Schema (as @nestjs/swagger writes it) that the generators understand. */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  nullable?: boolean;
  example?: unknown;
}

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

interface OpenApiOperationObject {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  security?: Record<string, string[]>[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperationObject>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

/** One method on one path, with what a request to it may carry. */
export interface Operation {
  method: string;
  /** The path template, e.g. `/api/packs/{packId}`. */
  path: string;
  pathParams: string[];
  queryParams: OpenApiParameter[];
  headerParams: OpenApiParameter[];
  /** The JSON request body's schema, when the operation takes one. */
  bodySchema?: JsonSchema;
  /** Every request-body media type the document declares (e.g. `text/csv` next to JSON). */
  bodyTypes: string[];
  /** Security scheme names (`api-key`, `bearer`, `session`); empty for public routes. */
  security: string[];
  /** Media types the document declares for its 2xx answers besides JSON (a `text/csv` download). */
  successTypes: string[];
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'options', 'head', 'trace'];

/** Every operation of the document, in document order. */
export function listOperations(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const params = op.parameters ?? [];
      const content = op.requestBody?.content ?? {};
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]),
        queryParams: params.filter((p) => p.in === 'query'),
        headerParams: params.filter((p) => p.in === 'header'),
        bodySchema: content['application/json']?.schema,
        bodyTypes: Object.keys(content),
        security: [...new Set((op.security ?? []).flatMap((entry) => Object.keys(entry)))],
        successTypes: Object.entries(op.responses ?? {})
          .filter(([status]) => status.startsWith('2'))
          .flatMap(([, response]) => Object.keys(response.content ?? {}))
          .filter((type) => type !== 'application/json'),
      });
    }
  }
  return operations;
}

/** Follows `$ref`s (and single-entry `allOf` wrappers) to the schema they name. */
export function resolveSchema(
  doc: OpenApiDocument,
  schema: JsonSchema,
): { schema: JsonSchema; name?: string } {
  let name: string | undefined;
  let current = schema;
  for (let hops = 0; hops < 20; hops++) {
    if (current.$ref) {
      name = current.$ref.split('/').pop();
      const target = doc.components?.schemas?.[name ?? ''];
      if (!target) throw new Error(`unresolvable $ref ${current.$ref}`);
      current = target;
    } else if (current.allOf?.length === 1 && !current.properties) {
      current = current.allOf[0];
    } else {
      return { schema: current, name };
    }
  }
  throw new Error('$ref cycle');
}

/** Where a schema node sits: the named schema it belongs to and the property it is the value of. */
export interface SchemaSite {
  schemaName?: string;
  property?: string;
  schema: JsonSchema;
}

export interface ArbitraryOptions {
  /** A hand-made arbitrary for a site (ids of the caller's own records, a known-good document). */
  override?: (site: SchemaSite) => fc.Arbitrary<unknown> | undefined;
  /** Every free-text string inside these named schemas carries `marker`, so a leak can be searched for. */
  plant?: { schemas: string[]; marker: string };
  /** Deeper optional structure is left out, so recursive schemas stay finite. */
  maxDepth?: number;
}

interface Context {
  doc: OpenApiDocument;
  options: ArbitraryOptions;
  schemaName?: string;
  planted: boolean;
  depth: number;
}

/** A fast-check arbitrary of values that satisfy `schema` (as far as the schema says). */
export function schemaArbitrary(
  doc: OpenApiDocument,
  schema: JsonSchema,
  options: ArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  return arbitraryFor(schema, undefined, { doc, options, planted: false, depth: 0 });
}

function arbitraryFor(raw: JsonSchema, property: string | undefined, outer: Context): fc.Arbitrary<unknown> {
  const { schema, name } = resolveSchema(outer.doc, raw);
  const schemaName = name ?? outer.schemaName;
  const override = outer.options.override?.({ schemaName, property, schema });
  if (override) return override;
  const ctx: Context = {
    ...outer,
    schemaName,
    planted: outer.planted || (!!name && !!outer.options.plant?.schemas.includes(name)),
    depth: outer.depth + 1,
  };
  const value = plainArbitrary(schema, ctx);
  return schema.nullable ? fc.oneof({ arbitrary: value, weight: 4 }, fc.constant(null)) : value;
}

function plainArbitrary(schema: JsonSchema, ctx: Context): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.oneOf ?? schema.anyOf;
  if (choices) return fc.oneof(...choices.map((choice) => arbitraryFor(choice, undefined, ctx)));
  if (schema.allOf) return mergedObject(schema.allOf, ctx);
  switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
    case 'string':
      return stringArbitrary(schema, ctx);
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({
        min: schema.minimum ?? -1e9,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return arrayArbitrary(schema, ctx);
    case 'object':
      return objectArbitrary(schema, ctx);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringArbitrary(schema: JsonSchema, ctx: Context): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid({ version: 4 });
  if (schema.format === 'date-time')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, Math.max(minLength, 40));
  const text = fc.string({ minLength, maxLength });
  const plant = ctx.options.plant;
  if (ctx.planted && plant) return text.map((s) => `${s} ${plant.marker} ${s}`.trim());
  return typeof schema.example === 'string' ? fc.oneof(text, fc.constant(schema.example)) : text;
}

function arrayArbitrary(schema: JsonSchema, ctx: Context): fc.Arbitrary<unknown[]> {
  const minLength = schema.minItems ?? 0;
  const tooDeep = ctx.depth > (ctx.options.maxDepth ?? 6);
  const maxLength = Math.min(schema.maxItems ?? 3, tooDeep ? minLength : Math.max(minLength, 3));
  const items = schema.items ? arbitraryFor(schema.items, undefined, ctx) : fc.jsonValue({ maxDepth: 1 });
  return fc.array(items, { minLength, maxLength });
}

function objectArbitrary(schema: JsonSchema, ctx: Context): fc.Arbitrary<Record<string, unknown>> {
  const required = schema.required ?? [];
  const tooDeep = ctx.depth > (ctx.options.maxDepth ?? 6);
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [key, value] of Object.entries(schema.properties ?? {})) {
    if (tooDeep && !required.includes(key)) continue;
    model[key] = arbitraryFor(value, key, ctx);
  }
  const known = fc.record(model, { requiredKeys: required.filter((key) => key in model) });
  const extra = schema.additionalProperties;
  if (!extra || tooDeep) return known;
  const values = extra === true ? fc.jsonValue({ maxDepth: 1 }) : arbitraryFor(extra, undefined, ctx);
  const keys = fc.string({ minLength: 1, maxLength: 12 }).filter((key) => !(key in model));
  return fc
    .tuple(known, fc.dictionary(keys, values, { maxKeys: 3 }))
    .map(([fixed, more]) => ({ ...more, ...fixed }));
}

function mergedObject(parts: JsonSchema[], ctx: Context): fc.Arbitrary<unknown> {
  const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
  for (const part of parts) {
    const { schema } = resolveSchema(ctx.doc, part);
    Object.assign(merged.properties!, schema.properties);
    merged.required!.push(...(schema.required ?? []));
  }
  return objectArbitrary(merged, ctx);
}

// ---------------------------------------------------------------------------------------------
// Breaking valid values: paths into a value, and copies with one place replaced.

export type JsonPath = (string | number)[];

export interface FieldSite {
  path: JsonPath;
  /** The schema the document gives for this place, when it gives one. */
  schema?: JsonSchema;
  optional: boolean;
}

/**
 * Every place of a value that a request could break: the root, each present node, and each
 * property the schema declares but the value leaves out (so optional fields get nulls too).
 */
export function fieldSites(
  doc: OpenApiDocument,
  schema: JsonSchema | undefined,
  value: unknown,
): FieldSite[] {
  const sites: FieldSite[] = [];
  const walk = (node: unknown, raw: JsonSchema | undefined, path: JsonPath, optional: boolean) => {
    const resolved = raw ? resolveSchema(doc, raw).schema : undefined;
    const own = resolved?.allOf ? mergedSchema(doc, resolved.allOf) : resolved;
    sites.push({ path, schema: own, optional });
    if (Array.isArray(node)) {
      node.forEach((item, i) => walk(item, own?.items, [...path, i], false));
    } else if (node !== null && typeof node === 'object') {
      const declared = own?.properties ?? {};
      const required = own?.required ?? [];
      for (const key of new Set([...Object.keys(declared), ...Object.keys(node)])) {
        const child =
          declared[key] ??
          (typeof own?.additionalProperties === 'object' ? own.additionalProperties : undefined);
        walk((node as Record<string, unknown>)[key], child, [...path, key], !required.includes(key));
      }
    }
  };
  walk(value, schema, [], false);
  return sites;
}

function mergedSchema(doc: OpenApiDocument, parts: JsonSchema[]): JsonSchema {
  const merged: JsonSchema = { type: 'object', properties: {}, required: [] };
  for (const part of parts) {
    const { schema } = resolveSchema(doc, part);
    Object.assign(merged.properties!, schema.properties);
    merged.required!.push(...(schema.required ?? []));
  }
  return merged;
}

/** A copy of `value` with the place at `path` replaced (created when missing). */
export function setAt(value: unknown, path: JsonPath, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  const container: any = Array.isArray(value)
    ? [...value]
    : value !== null && typeof value === 'object'
      ? copyObject(value as Record<string, unknown>)
      : {};
  const next = rest.length === 0 ? replacement : setAt(container[head], rest, replacement);
  defineOwn(container, String(head), next);
  return container;
}

export function getAt(value: unknown, path: JsonPath): unknown {
  return path.reduce<any>(
    (node, key) => (node === null || node === undefined ? undefined : node[key]),
    value,
  );
}

/** Copies own properties, `__proto__` included, without invoking the prototype setter. */
function copyObject(source: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(source)) defineOwn(copy, key, source[key]);
  return copy;
}

/** Sets an own, enumerable property even for `__proto__`, so JSON.stringify writes it as a key. */
export function defineOwn(target: any, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A copy with `edit` applied to every string (values, and keys when `keys` is set). */
export function mapStrings(value: unknown, edit: (s: string) => string, keys: boolean): unknown {
  if (typeof value === 'string') return edit(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, edit, keys));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    defineOwn(copy, keys ? edit(key) : key, mapStrings(item, edit, keys));
  return copy;
}

/** JSON text spliced in as is (10,000-level nesting, `1e999`), where a value cannot express it. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON.stringify that writes RawJson values verbatim, without recursing into them. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, item: unknown) => {
    if (!(item instanceof RawJson)) return item;
    raws.push(item.text);
    return `\u0001raw${raws.length - 1}\u0001`;
  });
  if (text === undefined) return '';
  return text.replace(/"\\u0001raw(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]);
}

/** `{"a":{"a":…}}` or `[[…]]`, `depth` levels deep, as JSON text. */
export function deeplyNested(kind: 'object' | 'array' | 'mixed', depth: number): RawJson {
  const open = kind === 'object' ? '{"a":' : kind === 'array' ? '[' : '[{"a":';
  const close = kind === 'object' ? '}' : kind === 'array' ? ']' : '}]';
  const levels = kind === 'mixed' ? Math.ceil(depth / 2) : depth;
  return new RawJson(open.repeat(levels) + '1' + close.repeat(levels));
}

// ---------------------------------------------------------------------------------------------
// A vocabulary of breakage, for the places `fieldSites` finds.

/**
 * A uniform choice. fast-check favours the first constants and small numbers in early runs, which
 * would send most runs to the body's root and the first item of every list.
 */
export const oneOf = <T>(...values: T[]): fc.Arbitrary<T> => fc.noBias(fc.constantFrom(...values));

/** A uniform index, for picking a place among a body's many. */
export const anyIndex: fc.Arbitrary<number> = fc.noBias(fc.nat());

/** Places that hold an object or an array, by the document or by the value. */
export const structuralSites = (all: FieldSite[]) =>
  all.filter(
    (s) =>
      s.path.length === 0 ||
      ['object', 'array'].includes(s.schema?.type ?? '') ||
      !!s.schema?.properties ||
      !!s.schema?.items,
  );

/** Strings the document leaves free (no id format, enum or pattern), where odd text reaches storage. */
export const isFreeText = (site: FieldSite, value: unknown) =>
  typeof value === 'string' && !site.schema?.format && !site.schema?.enum && !site.schema?.pattern;

/** Objects whose keys are the caller's (ticket metadata, question criteria), not field names. */
export const isFreeMap = (site: FieldSite, value: unknown) =>
  !!site.schema?.additionalProperties && value !== null && typeof value === 'object' && !Array.isArray(value);

/** `odd` inserted into every free-text string, every free map's keys, or every string and key at all. */
export function withOddText(
  body: unknown,
  sites: FieldSite[],
  odd: string,
  where: 'text' | 'map keys' | 'everything',
): unknown {
  const insert = (s: string) => `${s.slice(0, 1)}${odd}${s.slice(1)}`;
  if (where === 'everything') return mapStrings(body, insert, true);
  // Deepest first, so renaming a map's keys leaves the paths of shallower places intact.
  const ordered = [...sites].sort((a, b) => b.path.length - a.path.length);
  return ordered.reduce<unknown>((value, site) => {
    const current = getAt(value, site.path);
    if (where === 'text' && isFreeText(site, current))
      return setAt(value, site.path, insert(current as string));
    if (where === 'map keys' && isFreeMap(site, current)) {
      const renamed: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(current as object)) defineOwn(renamed, insert(key), item);
      return setAt(value, site.path, renamed);
    }
    return value;
  }, body);
}

export /** Values of other JSON types, and numbers JSON.parse turns into Infinity, -0 or a rounded value. */
const WRONG_TYPES: unknown[] = [
  0,
  -1,
  1.5,
  true,
  'text',
  '',
  {},
  [],
  new RawJson('1e999'),
  new RawJson('-0'),
  new RawJson('123456789012345678901234567890'),
];

/** Arrays where objects belong and the reverse: `ticket: []`, `ticket: [{…}]`, `messages: [[]]`. */
export function reshaped(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) return oneOf({}, [[]], [[[]]], { 0: value[0] ?? 1 }, [value]);
  if (value !== null && typeof value === 'object') return oneOf([], [value], [[]], [[value]]);
  return oneOf([value], { value }, [], {});
}

/** Long strings (ending in `marker`), long arrays of `value`, and objects with 10,000 keys. */
export function oversized(value: unknown, marker: string): fc.Arbitrary<unknown> {
  const long = oneOf(10_000, 300_000, 1_100_000).map((n) => `${'x'.repeat(n)} ${marker}`);
  const many = oneOf(1_000, 20_000).map((n) => Array.from({ length: n }, () => value ?? 1));
  const wide = fc.constant(Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])));
  return fc.oneof(long, many, wide);
}

/** 1,000 or 10,000 levels of objects, arrays, or both. */
export const nested = fc
  .tuple(oneOf('object' as const, 'array' as const, 'mixed' as const), oneOf(1_000, 10_000))
  .map(([kind, depth]) => deeplyNested(kind, depth));

/** NUL, lone surrogates, bidi controls, and other Unicode that trips up databases and parsers. */
export const ODD_TEXT = [
  '\u0000',
  '\ud800',
  '\udc00',
  '\udfff\ud800',
  '\u202e',
  '\u200f',
  '\u200b',
  '\ufeff',
  '\u2028',
  '\u0085',
  '\uffff',
  '😀',
  'e\u0301',
  '\\',
  '"',
  '%00',
  "'; DROP TABLE users; --",
];

export const FORBIDDEN_KEYS = ['__proto__', 'constructor', 'prototype'];
export const UNKNOWN_KEYS = ['unknownField', '', ' ', '$where', 'toString', 'hasOwnProperty'];

/** A copy of an object (or `{}`) with one more own key, `__proto__` included. */
export function withKey(value: unknown, key: string, item: unknown): unknown {
  const target = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {};
  const copy: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(target)) defineOwn(copy, k, v);
  defineOwn(copy, key, item);
  return copy;
}

/** Places that hold an object (where keys can be added). */
export const objectSites = (all: FieldSite[]) =>
  all.filter((s) => s.schema?.type === 'object' || !!s.schema?.properties || s.path.length === 0);

// ---------------------------------------------------------------------------------------------
// Whether a value is what the document allows: a body it forbids must never be accepted.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** A checker of values against the document's schemas (`$ref`s, `nullable`, formats uuid and date-time). */
export function schemaChecker(doc: OpenApiDocument): (schema: JsonSchema, value: unknown) => boolean {
  const ajv = new Ajv({ strict: false, allErrors: false });
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('date-time', (text: string) => DATE_TIME.test(text) && !Number.isNaN(Date.parse(text)));
  ajv.addFormat('email', /^[^\s@]+@[^\s@]+$/);
  const compiled = new Map<JsonSchema, (value: unknown) => boolean>();
  return (schema, value) => {
    let validate = compiled.get(schema);
    if (!validate) {
      // Local `#/components/...` references resolve against the document's components.
      const components = withoutNullable(doc.components) as Record<string, unknown>;
      validate = ajv.compile({ ...(withoutNullable(schema) as object), components }) as (
        value: unknown,
      ) => boolean;
      compiled.set(schema, validate);
    }
    return validate(value);
  };
}

/** OpenAPI 3.0's `nullable: true` as plain JSON Schema (Ajv wants a `type` beside it). */
function withoutNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutNullable);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const copy = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withoutNullable(value)]));
  return nullable === true ? { anyOf: [copy, { type: 'null' }] } : copy;
}
