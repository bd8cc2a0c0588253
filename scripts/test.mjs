// `npm test`: lint, typecheck, build, then Jest against real Postgres and Redis. Extra arguments go to Jest.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function step(name, command, args) {
  console.log(`[test] ${name}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32' && command === 'npm',
  });
  if (result.status !== 0) {
    console.error(`[test] ${name} failed`);
    process.exit(result.status ?? 1);
  }
}

try {
  console.log('[test] dependencies');
  ensureDeps();
  console.log('[test] services');
  // Imported only now: services.mjs needs `pg`. No ensureDatabase: the suite creates its own database.
  const { ensureServices, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } = await import('./services.mjs');
  await ensureServices({
    databaseUrl: process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
    redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL,
  });
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

step('lint', 'npm', ['run', 'lint']);
step('typecheck', 'npm', ['run', 'typecheck']);
step('build', 'npm', ['run', 'build']);
step('jest', process.execPath, [
  '--experimental-vm-modules',
  'node_modules/jest/bin/jest.js',
  ...process.argv.slice(2),
]);
