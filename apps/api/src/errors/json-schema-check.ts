import { Ajv, type Options } from 'ajv';
import { isISO8601 } from 'class-validator';
import { CHECKED_FORMATS, type JsonSchemaNode } from './schema-issues.js';

/** An ajv instance for the bodies' JSON Schemas (see schema-body.ts). */
export function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    strict: true,
    allowUnionTypes: true,
    coerceTypes: false,
    useDefaults: false,
    ...options,
  });
  // ISO 8601 as the class-validator DTOs check it; ids are documented as UUIDs but a malformed one
  // is "not found", as on every route.
  ajv.addFormat('date-time', { type: 'string', validate: (value) => isISO8601(value, { strict: true }) });
  ajv.addFormat('uuid', true);
  ajv.addKeyword('example');
  for (const format of Object.keys(CHECKED_FORMATS)) if (!ajv.formats[format]) throw new Error(format);
  // Lengths count code points, as JSON Schema says, but ajv walks the whole string for each bound
  // (a 100,000-character message twice). A string has at least half as many code points as UTF-16
  // units and at most as many, so its `length` settles most checks without the walk.
  ajv.removeKeyword('maxLength');
  ajv.removeKeyword('minLength');
  ajv.addKeyword({
    keyword: 'maxLength',
    type: 'string',
    schemaType: 'number',
    errors: false,
    validate: (max: number, text: string) =>
      text.length <= max || (text.length <= 2 * max && codePoints(text) <= max),
  });
  ajv.addKeyword({
    keyword: 'minLength',
    type: 'string',
    schemaType: 'number',
    errors: false,
    validate: (min: number, text: string) =>
      text.length >= 2 * min || (text.length >= min && codePoints(text) >= min),
  });
  return ajv;
}

/** Code points, a surrogate pair counting once (as ajv's own `ucs2length`). */
export function codePoints(text: string): number {
  let count = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const high = text.charCodeAt(i);
    if (high < 0xd800 || high > 0xdbff) continue;
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) {
      count -= 1;
      i += 1;
    }
  }
  return count;
}

/**
 * zod writes `string | number | boolean | null` as nested `anyOf`s of one type each; ajv then
 * builds an error for every branch a value fails. Bare types merged into one `type` list check
 * the same values without those errors (ticket metadata values are checked on every judgment).
 */
export function withTypeUnions(node: JsonSchemaNode): JsonSchemaNode {
  const out: JsonSchemaNode = { ...node };
  if (node.properties)
    out.properties = Object.fromEntries(
      Object.entries(node.properties).map(([k, v]) => [k, withTypeUnions(v)]),
    );
  if (node.items) out.items = withTypeUnions(node.items);
  if (typeof node.additionalProperties === 'object')
    out.additionalProperties = withTypeUnions(node.additionalProperties);
  if (!node.anyOf) return out;
  // A branch that is only an anyOf is its own branches; one with other keywords stays whole.
  const branches = node.anyOf
    .map(withTypeUnions)
    .flatMap((branch) => (branch.anyOf && Object.keys(branch).length === 1 ? branch.anyOf : [branch]));
  const isBare = (branch: JsonSchemaNode) => Object.keys(branch).length === 1 && branch.type !== undefined;
  const bare = branches.filter(isBare).flatMap((branch) => branch.type ?? []);
  out.anyOf = [...branches.filter((branch) => !isBare(branch)), ...(bare.length ? [{ type: bare }] : [])];
  return out;
}
