import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** An import that tsc-alias has not rewritten yet: the copy caught a build half-way. */
const UNALIASED = /from '@app\/|import\('@app\//;

function halfBuilt(dir: string): string | undefined {
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (UNALIASED.test(readFileSync(file, 'utf8'))) return file;
  }
  return undefined;
}

/**
 * A private copy of `dist/` (with the root package.json and a link to node_modules), so the
 * processes started during the run execute the code this run built, even when someone rebuilds
 * the shared `dist/` meanwhile (the test command does). Retries while a build is half-way.
 */
export async function snapshotDist(root: string, attempts = 5): Promise<{ dist: string; remove(): void }> {
  for (let attempt = 1; ; attempt++) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tjbench-dist-'));
    const remove = () => rmSync(dir, { recursive: true, force: true });
    cpSync(path.join(root, 'dist'), path.join(dir, 'dist'), { recursive: true });
    copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
    symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    const broken = halfBuilt(path.join(dir, 'dist'));
    if (!broken) return { dist: path.join(dir, 'dist'), remove };
    remove();
    if (attempt >= attempts)
      throw new Error(`dist/ is being rebuilt (${path.basename(broken)} is not rewritten yet); run again`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}
