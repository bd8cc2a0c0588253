import { describe, expect, it } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * A feature imports from `ui/`, `lib/` and `api/`, never from another feature: what two features
 * share has one home outside both. Every relative import (static, `export … from`, `import()`) of
 * every file under `features/<a>/` is resolved and must not land in `features/<b>/`.
 */

// Jest runs from the repository's root (as the other specs that read files assume).
const FEATURES = resolve('apps/web/src/features');
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The feature a path lies in (its first folder under `features/`), or undefined outside them. */
function featureOf(path: string): string | undefined {
  const inside = relative(FEATURES, path);
  if (inside.startsWith('..')) return undefined;
  const parts = inside.split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

function crossFeatureImports(): string[] {
  return sourceFiles(FEATURES).flatMap((file) => {
    const from = featureOf(file);
    return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
      .map((match) => match[1])
      .filter((specifier) => specifier.startsWith('.'))
      .filter((specifier) => {
        const to = featureOf(resolve(dirname(file), specifier));
        return to !== undefined && to !== from;
      })
      .map((specifier) => `${relative(FEATURES, file)} imports ${specifier}`);
  });
}

describe('feature boundaries', () => {
  it('finds the files of every feature', () => {
    expect(sourceFiles(FEATURES).length).toBeGreaterThan(50);
  });

  it('has no feature importing from another feature', () => {
    expect(crossFeatureImports()).toEqual([]);
  });
});
