import type { ValidationIssue } from '@app/domain';

/** The JSON Schema keywords the request bodies use (draft 7, as zod writes it). */
export interface JsonSchemaNode {
  type?: string | string[];
  properties?: Record<string, JsonSchemaNode>;
  required?: string[];
  additionalProperties?: boolean | JsonSchemaNode;
  items?: JsonSchemaNode;
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minItems?: number;
  maxItems?: number;
  maxProperties?: number;
  propertyNames?: JsonSchemaNode;
  anyOf?: JsonSchemaNode[];
}

/** A failed keyword, with the validator's own wording (`must match pattern "…"`). */
export interface FailedKeyword {
  keyword: string;
  message?: string;
}

/** The keywords a value fails at a leaf node (no properties, not an array); null when it passes. */
export type LeafCheck = (node: JsonSchemaNode, value: unknown) => FailedKeyword[] | null;

/** Formats the validator checks; any other (`uuid` on ids) only documents the value. */
export const CHECKED_FORMATS: Record<string, string> = {
  'date-time': 'must be a valid ISO 8601 date string',
};

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isMap = (node: JsonSchemaNode): boolean => typeof node.additionalProperties === 'object';

/**
 * The issues of a body the schema refuses, worded as the class-validator DTOs word them, so every
 * body answers alike: unknown fields first, then each declared field in order with every rule it
 * fails (a string sent as a number fails its length rules too), and `<field> must not be null`
 * alone for a null. Runs only on refused bodies; the compiled schema decides validity.
 */
export function schemaIssues(root: JsonSchemaNode, body: unknown, check: LeafCheck): ValidationIssue[] {
  if (!isPlainObject(body)) return [{ path: 'body', message: 'body must be a JSON object' }];
  const issues: ValidationIssue[] = [];
  objectIssues(root, body, '', issues, check);
  return issues;
}

function objectIssues(
  node: JsonSchemaNode,
  value: Record<string, unknown>,
  path: string,
  issues: ValidationIssue[],
  check: LeafCheck,
): void {
  const properties = node.properties ?? {};
  const at = (key: string) => (path ? `${path}.${key}` : key);
  if (node.additionalProperties === false) {
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(properties, key)) continue;
      const message = value[key] === null ? `${key} must not be null` : `property ${key} should not exist`;
      issues.push({ path: at(key), message });
    }
  }
  for (const [key, child] of Object.entries(properties)) {
    const item = Object.hasOwn(value, key) ? value[key] : undefined;
    if (item !== undefined) visit(child, item, at(key), key, issues, check);
    else if (node.required?.includes(key)) {
      const missing = child.properties ? [`${key} should not be null or undefined`] : [];
      for (const message of [...missing, ...allRules(child, key)]) issues.push({ path: at(key), message });
    }
  }
}

function visit(
  node: JsonSchemaNode,
  value: unknown,
  path: string,
  name: string,
  issues: ValidationIssue[],
  check: LeafCheck,
): void {
  const add = (messages: string[]) => messages.forEach((message) => issues.push({ path, message }));
  if (value === null) return add([`${name} must not be null`]);
  if (node.properties) {
    if (isPlainObject(value)) objectIssues(node, value, path, issues, check);
    else add(allRules(node, name));
  } else if (node.type === 'array') {
    if (!Array.isArray(value)) return add(allRules(node, name));
    add(arrayRules(node, name, value));
    value.forEach((item, index) => {
      if (!node.items?.properties)
        visit(node.items ?? {}, item, `${path}.${index}`, String(index), issues, check);
      else if (isPlainObject(item)) objectIssues(node.items, item, `${path}.${index}`, issues, check);
    });
  } else {
    const failed = check(node, value);
    if (failed) add(leafMessages(node, name, value, failed));
  }
}

function arrayRules(node: JsonSchemaNode, name: string, value: unknown[]): string[] {
  const messages: string[] = [];
  if (node.items?.properties && !value.every(isPlainObject))
    messages.push(`each value in ${name} must be an object`);
  if (node.maxItems !== undefined && value.length > node.maxItems) messages.push(maxItems(node, name));
  if (node.minItems !== undefined && value.length < node.minItems) messages.push(minItems(node, name));
  return messages;
}

const maxItems = (node: JsonSchemaNode, name: string) =>
  `${name} must contain no more than ${node.maxItems} elements`;
const minItems = (node: JsonSchemaNode, name: string) =>
  `${name} must contain at least ${node.minItems} elements`;
const maxLength = (node: JsonSchemaNode, name: string) =>
  `${name} must be shorter than or equal to ${node.maxLength} characters`;
const minLength = (node: JsonSchemaNode, name: string) =>
  `${name} must be longer than or equal to ${node.minLength} characters`;

/** Every rule of a node, for a value that is not even of its type (or is missing). */
function allRules(node: JsonSchemaNode, name: string): string[] {
  if (node.enum) return [`${name} must be one of the following values: ${node.enum.join(', ')}`];
  if (node.format && CHECKED_FORMATS[node.format]) return [`${name} ${CHECKED_FORMATS[node.format]}`];
  if (isMap(node)) return [mapRule(node, name), `${name} must be an object`];
  if (node.properties) return [`${name} must be an object`];
  if (node.type === 'array') {
    const each = node.items?.properties ? [`each value in ${name} must be an object`] : [];
    const bounds = [
      node.maxItems !== undefined && maxItems(node, name),
      node.minItems !== undefined && minItems(node, name),
    ];
    return [`${name} must be an array`, ...each, ...bounds.filter((rule) => rule !== false)];
  }
  const lengths = [
    node.maxLength !== undefined && maxLength(node, name),
    node.minLength !== undefined && minLength(node, name),
  ];
  const type = [node.type ?? 'valid value'].flat().join(' or ');
  return [...lengths.filter((rule) => rule !== false), `${name} must be a ${type}`];
}

function leafMessages(node: JsonSchemaNode, name: string, value: unknown, failed: FailedKeyword[]): string[] {
  const keywords = failed.map((failure) => failure.keyword);
  if (isMap(node)) return isPlainObject(value) ? [mapRule(node, name)] : allRules(node, name);
  if (node.enum || keywords.includes('type') || keywords.includes('format')) return allRules(node, name);
  const messages = [
    keywords.includes('maxLength') && maxLength(node, name),
    keywords.includes('minLength') && minLength(node, name),
  ].filter((message) => message !== false);
  // A keyword these bodies do not use yet: the validator's wording.
  return messages.length ? messages : failed.map((failure) => `${name} ${failure.message ?? 'is invalid'}`);
}

/** A free map's rules in one sentence (ticket metadata): its size, its keys, and its values. */
function mapRule(node: JsonSchemaNode, name: string): string {
  const values = describeValues(node.additionalProperties as JsonSchemaNode);
  const rules = [
    node.maxProperties !== undefined && `at most ${node.maxProperties} entries`,
    node.propertyNames?.maxLength !== undefined &&
      `keys of at most ${node.propertyNames.maxLength} characters`,
    node.propertyNames?.pattern !== undefined && `keys matching ${node.propertyNames.pattern}`,
    `values that are ${values.slice(0, -1).join(', ')} or ${values.at(-1)}`,
  ].filter((rule) => rule !== false);
  return `${name} must have ${rules.length > 1 ? `${rules.slice(0, -1).join(', ')}, and ` : ''}${rules.at(-1)}`;
}

function describeValues(node: JsonSchemaNode): string[] {
  if (node.anyOf) return node.anyOf.flatMap(describeValues);
  const limit = node.maxLength !== undefined ? ` (at most ${node.maxLength} characters)` : '';
  return [node.type ?? []].flat().map((type) => (type === 'null' ? 'null' : `${type}s${limit}`));
}
