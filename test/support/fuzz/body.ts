import fc from 'fast-check';
import {
  anyIndex,
  deeplyNested,
  fieldSites,
  FORBIDDEN_KEYS,
  getAt,
  nested,
  objectSites,
  ODD_TEXT,
  oneOf,
  oversized,
  RawJson,
  reshaped,
  setAt,
  structuralSites,
  toJsonText,
  UNKNOWN_KEYS,
  withKey,
  withOddText,
  WRONG_TYPES,
  type FieldSite,
  type JsonPath,
  type Operation,
} from '../openapi-arbitraries.js';
import { flags, preview, type Family } from './cases.js';
import type { FuzzContext } from './context.js';
import { baseRequest, caseFrom } from './requests.js';

const hasBody = (op: Operation) => !!op.bodySchema;
const showPath = (path: JsonPath) => (path.length ? path.join('.') : '(root)');

function describeValue(value: unknown): string {
  if (value instanceof RawJson) return `raw ${preview(value.text, 24)}`;
  if (typeof value === 'string') return JSON.stringify(preview(value, 24));
  if (Array.isArray(value))
    return value.length > 3 ? `[${value.length} items]` : preview(toJsonText(value), 40);
  return preview(toJsonText(value) ?? String(value), 40);
}

type Sites = FieldSite[];

/** A body family: one place of a schema-valid body (picked by index among `sites`) replaced. */
function bodyFamily(
  ctx: FuzzContext,
  name: string,
  replacement: (site: FieldSite & { value: unknown }) => fc.Arbitrary<unknown>,
  { sites = (all: Sites) => all, weight = 1 }: { sites?: (all: Sites) => Sites; weight?: number } = {},
): Family {
  return {
    name,
    weight,
    applies: hasBody,
    cases: (op) =>
      fc.tuple(baseRequest(ctx, op), flags, anyIndex).chain(([base, extra, index]) => {
        const candidates = sites(fieldSites(ctx.doc, op.bodySchema, base.body));
        const site = candidates[index % candidates.length] ?? { path: [], optional: false };
        const value = getAt(base.body, site.path);
        return replacement({ ...site, value }).map((replaced) =>
          caseFrom(ctx, op, name, `${showPath(site.path)} = ${describeValue(replaced)}`, base, extra, {
            body: setAt(base.body, site.path, replaced),
          }),
        );
      }),
  };
}

/** JSON bodies broken one way at a time: wrong types, nulls, shapes, sizes, odd text and keys. */
export function bodyFamilies(ctx: FuzzContext): Family[] {
  return [
    bodyFamily(ctx, 'types', () => oneOf(...WRONG_TYPES), { weight: 2 }),
    bodyFamily(ctx, 'nulls', () => fc.constant(null), { weight: 2 }),
    {
      // Every field null at once, and every optional field the schema declares set to null.
      name: 'all-nulls',
      applies: hasBody,
      cases: (op) =>
        fc.tuple(baseRequest(ctx, op), flags, fc.boolean()).map(([base, extra, optionalOnly]) => {
          const sites = fieldSites(ctx.doc, op.bodySchema, base.body).filter(
            (s) => s.path.length > 0 && (!optionalOnly || s.optional),
          );
          const body = sites.reduce<unknown>(
            (b, s) => (getAt(b, s.path.slice(0, -1)) === null ? b : setAt(b, s.path, null)),
            base.body,
          );
          const note = optionalOnly ? 'every optional field null' : 'every field null';
          return caseFrom(ctx, op, 'all-nulls', note, base, extra, { body });
        }),
    },
    bodyFamily(ctx, 'shapes', (site) => reshaped(site.value), { sites: structuralSites, weight: 2 }),
    bodyFamily(ctx, 'oversize', (site) => oversized(site.value, ctx.marks.marker)),
    bodyFamily(ctx, 'nesting', () => nested),
    {
      name: 'strings',
      weight: 2,
      applies: hasBody,
      cases: (op) =>
        fc
          .tuple(
            baseRequest(ctx, op),
            flags,
            oneOf(...ODD_TEXT),
            oneOf('text' as const, 'map keys' as const, 'everything' as const),
          )
          .map(([base, extra, odd, where]) => {
            const sites = fieldSites(ctx.doc, op.bodySchema, base.body);
            const body = withOddText(base.body, sites, odd, where);
            const note = `${JSON.stringify(odd)} in every ${where}`;
            return caseFrom(ctx, op, 'strings', note, base, extra, { body });
          }),
    },
    bodyFamily(
      ctx,
      'strings-one',
      (site) => oneOf(...ODD_TEXT).map((odd) => `${typeof site.value === 'string' ? site.value : ''}${odd}`),
      { sites: (all) => all.filter((s) => s.schema?.type === 'string'), weight: 2 },
    ),
    {
      name: 'keys',
      applies: hasBody,
      cases: (op) =>
        fc
          .tuple(
            baseRequest(ctx, op),
            flags,
            anyIndex,
            oneOf(...FORBIDDEN_KEYS, ...UNKNOWN_KEYS),
            oneOf<unknown>(
              {},
              { polluted: true },
              null,
              'x',
              [],
              JSON.parse('{"__proto__":{"isAdmin":true}}'),
            ),
          )
          .map(([base, extra, index, key, item]) => {
            const sites = objectSites(fieldSites(ctx.doc, op.bodySchema, base.body));
            const site = sites[index % sites.length];
            const body = setAt(base.body, site.path, withKey(getAt(base.body, site.path), key, item));
            const note = `${showPath(site.path)}.${key} = ${describeValue(item)}`;
            return caseFrom(ctx, op, 'keys', note, base, extra, { body });
          }),
    },
    {
      name: 'whole-body',
      applies: hasBody,
      cases: (op) =>
        fc
          .tuple(
            baseRequest(ctx, op),
            flags,
            oneOf<unknown>(
              [],
              [[]],
              null,
              'text',
              1,
              true,
              {},
              deeplyNested('object', 10_000),
              deeplyNested('array', 10_000),
            ),
          )
          .map(([base, extra, body]) =>
            caseFrom(ctx, op, 'whole-body', `body = ${describeValue(body)}`, base, extra, { body }),
          ),
    },
  ];
}
