import type { ValidationIssue } from '@app/domain';

/** Deepest nesting a JSON body may have; pack documents, the deepest bodies, need about eight. */
export const MAX_JSON_DEPTH = 32;

/**
 * NUL, which Postgres cannot store in text, and UTF-16 surrogates without their pair, which are
 * not Unicode (Postgres refuses them in JSON). One pass, no backtracking.
 */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** Index of the first character that cannot be stored, or -1. */
export function firstUnstorableCharacter(text: string): number {
  return UNSTORABLE.exec(text)?.index ?? -1;
}

export const BUILT_IN_KEY_MESSAGE =
  'keys must not be names of built-in object properties (constructor, prototype, toString, __proto__, …)';

/**
 * `constructor`, `toString`, `__proto__`…: class-transformer silently drops such keys (a guard
 * against prototype pollution), so a value under them would pass validation unchecked and vanish.
 */
function isBuiltInPropertyName(key: string): boolean {
  return key === 'prototype' || key in Object.prototype;
}

/**
 * The first reason a parsed JSON value cannot be accepted: nested deeper than MAX_JSON_DEPTH, a
 * string or key that cannot be stored, or a key named like a built-in object property. Iterative, so depth never costs stack; issue paths are
 * written like the validation pipe's (`ticket.messages.0.text`) and never quote the bad text.
 */
export function findMalformedJson(body: unknown): ValidationIssue | null {
  const pending: Array<{ value: unknown; path: string; depth: number }> = [
    { value: body, path: '', depth: 0 },
  ];
  while (pending.length) {
    const { value, path, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (firstUnstorableCharacter(value) >= 0)
        return { path: path || 'body', message: UNSTORABLE_TEXT_MESSAGE };
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH) {
      return { path: path || 'body', message: `must not be nested deeper than ${MAX_JSON_DEPTH} levels` };
    }
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (firstUnstorableCharacter(key) >= 0) {
        return { path: path || 'body', message: `keys ${UNSTORABLE_TEXT_MESSAGE}` };
      }
      if (isBuiltInPropertyName(key)) return { path: path || 'body', message: BUILT_IN_KEY_MESSAGE };
      pending.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}

/** The same check for a parsed query string: values are strings or arrays of strings. */
export function findMalformedQuery(query: unknown): ValidationIssue | null {
  if (typeof query !== 'object' || query === null) return null;
  for (const [key, value] of Object.entries(query)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    const bad =
      firstUnstorableCharacter(key) >= 0 ||
      values.some((v) => typeof v === 'string' && firstUnstorableCharacter(v) >= 0);
    if (bad)
      return { path: firstUnstorableCharacter(key) >= 0 ? 'query' : key, message: UNSTORABLE_TEXT_MESSAGE };
  }
  return null;
}
