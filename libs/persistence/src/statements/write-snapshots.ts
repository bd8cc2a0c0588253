import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderSnapshots, SNAPSHOT_DIR } from './snapshots.js';

/** `npm run sql:snapshots`: rewrites libs/persistence/queries/*.sql from the statements (run from the repository root). */
const files = renderSnapshots();
mkdirSync(SNAPSHOT_DIR, { recursive: true });
for (const name of readdirSync(SNAPSHOT_DIR)) {
  if (name.endsWith('.sql') && !files.has(name)) rmSync(join(SNAPSHOT_DIR, name));
}
for (const [name, text] of files) writeFileSync(join(SNAPSHOT_DIR, name), text);
console.log(`wrote ${files.size} files to ${SNAPSHOT_DIR}`);
