import { createHash } from 'node:crypto';
import type { Question } from './pack-document.js';

/**
 * JSON with every object's keys sorted, arrays in their order: equal values give equal text,
 * whatever order the editor or Postgres's jsonb wrote the keys in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The wording of a question: sha-256 (hex) of the canonical JSON of everything the question holds
 * but its id, its display `name` and its `review` settings (type, instructions, criteria and any
 * other key): what the judge is asked. Renaming a question keeps its map.
 * A calibration map belongs to it: a later version whose question has the same id and the same
 * fingerprint keeps the map, and a reworded one starts without (docs/quality.md, "Calibration").
 * The review settings are left out because they act on the judge's answer, not on what it is asked.
 * The name goes in the prompt too, but as a title: a question is the same when its instructions and
 * criteria are, so renaming one (a typo, a clearer label) keeps the map it earned.
 */
export function questionFingerprint(question: Question): string {
  const { id: _id, name: _name, review: _review, ...wording } = question;
  return createHash('sha256').update(canonicalJson(wording)).digest('hex');
}
