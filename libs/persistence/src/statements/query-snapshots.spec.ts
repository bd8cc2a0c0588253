import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineStatement } from './statement.js';
import { renderSnapshots, SNAPSHOT_DIR } from './snapshots.js';

const STALE = 'differs from its statements: run `npm run sql:snapshots` and commit the result';

describe('query snapshots (libs/persistence/queries)', () => {
  const expected = renderSnapshots();

  it.each([...expected.keys()])('%s matches the statements', (name) => {
    const path = join(SNAPSHOT_DIR, name);
    if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run sql:snapshots\``);
    const committed = readFileSync(path, 'utf8');
    if (committed !== expected.get(name)) {
      throw new Error(`${path} ${STALE}\n\n--- expected ---\n${expected.get(name)}`);
    }
  });

  it('has no snapshot without statements', () => {
    const orphans = readdirSync(SNAPSHOT_DIR).filter((name) => name.endsWith('.sql') && !expected.has(name));
    expect(orphans).toEqual([]);
  });
});

describe('defineStatement', () => {
  it('numbers named parameters in order of first use and keeps casts', () => {
    const statement = defineStatement<{ a: string; b: number }>({
      name: 'test.numbering',
      sql: `SELECT :b::int, :a, ':x' AS literal, :b + 1, now()::text`,
    });
    expect(statement.text).toBe(`SELECT $1::int, $2, ':x' AS literal, $1 + 1, now()::text`);
    expect(statement.parameters).toEqual(['b', 'a']);
    expect(statement.values({ a: 'one', b: 2 })).toEqual([2, 'one']);
  });

  it('sends json parameters as JSON text and missing ones as null', () => {
    const statement = defineStatement<{ list: string[]; other?: string }>({
      name: 'test.json',
      sql: `SELECT :list::jsonb, :other`,
      json: ['list'],
    });
    expect(statement.values({ list: ['x'] })).toEqual(['["x"]', null]);
  });

  it('refuses a json parameter its SQL does not use', () => {
    expect(() =>
      defineStatement<{ list: string[] }>({ name: 'test.unused', sql: 'SELECT 1', json: ['list'] }),
    ).toThrow(/not in its SQL/);
  });
});
