import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { getMetadataStorage } from 'class-validator';
import { readFileSync } from 'node:fs';
import { Environment } from './environment.js';

/** The variables of docs/configuration.md's table, in its first column. */
function documentedVariables(): string[] {
  const doc = readFileSync('docs/configuration.md', 'utf8');
  return [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \|/gm)].map((match) => match[1]);
}

/** Every variable the configuration reads: each property of Environment carries a validation rule. */
function readVariables(): string[] {
  const rules = getMetadataStorage().getTargetValidationMetadatas(Environment, '', false, false);
  return [...new Set(rules.map((rule) => rule.propertyName))];
}

describe('docs/configuration.md', () => {
  it('lists exactly the variables the configuration reads, each once', () => {
    const documented = documentedVariables();
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual(readVariables().sort());
  });
});
