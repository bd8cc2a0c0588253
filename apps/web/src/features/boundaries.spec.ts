import { describe, expect, it } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * A feature imports from `ui/`, `lib/` and `api/`, never from another feature: what two features
 * share has one home outside both. Every relative import (static, `export … from`, `import()`) of
 * every file under `features/<a>/` is resolved and must not land in `features/<b>/`. And only what
 * two features use (or the app's frame, `App.tsx` and `main.tsx`, or the query hooks of `api/`) lives
 * in `ui/` or `lib/`.
 */

// Jest runs from the repository's root (as the other specs that read files assume).
const SRC = resolve('apps/web/src');
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

/** The source files a file imports by relative path. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
    .map((match) => match[1])
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => resolve(dirname(file), specifier))
    .flatMap((path) =>
      [`${path}.ts`, `${path}.tsx`, path]
        .filter((candidate) => /\.tsx?$/.test(candidate) && existsSync(candidate))
        .slice(0, 1),
    );
}

/**
 * Each shared module of `ui/` and `lib/` with the features (or `frame`) that reach it, directly or
 * through other modules outside the features (`ui/`, `lib/`, `api/`). Specs and fixtures are left out.
 */
function sharedUsers(): Map<string, Set<string>> {
  const code = (path: string) => !/\.(spec|fixtures)\.ts$/.test(path);
  const files = sourceFiles(SRC).filter(code);
  const users = new Map<string, Set<string>>(files.map((file) => [file, new Set<string>()]));
  const reach = (file: string, user: string, seen = new Set<string>()) => {
    for (const target of importsOf(file).filter(code)) {
      if (seen.has(target) || featureOf(target) !== undefined) continue;
      seen.add(target);
      users.get(target)?.add(user);
      reach(target, user, seen);
    }
  };
  for (const file of files) {
    const feature = featureOf(file);
    if (feature) reach(file, feature);
    else if (/^(App\.tsx|main\.tsx)$/.test(relative(SRC, file))) reach(file, 'frame');
    // The query layer cannot import a feature: what its hooks need is shared by nature.
    else if (relative(SRC, file).startsWith(`api${sep}`)) reach(file, 'frame');
  }
  return new Map([...users].filter(([file]) => /^(ui|lib)\//.test(relative(SRC, file).split(sep).join('/'))));
}

describe('feature boundaries', () => {
  it('keeps in ui/ and lib/ only what two features or the frame use', () => {
    const single = [...sharedUsers()]
      .filter(([, by]) => !by.has('frame') && by.size < 2)
      .map(([file, by]) => `${relative(SRC, file)} used by ${[...by].join(', ') || 'nothing'}`);
    expect(single).toEqual([]);
  });

  it('finds the files of every feature', () => {
    expect(sourceFiles(FEATURES).length).toBeGreaterThan(50);
  });

  it('has no feature importing from another feature', () => {
    expect(crossFeatureImports()).toEqual([]);
  });
});
