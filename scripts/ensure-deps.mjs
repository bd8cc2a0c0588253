// Installs node_modules when they are missing or older than the lock file.
// Runs before any install, so it may only use Node built-ins.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Runs npm; with `quiet`, keeps its output and returns the first `npm error` line with the status. */
function npm(args, { quiet = false } = {}) {
  // npm is a .cmd shim on Windows, which spawn can only run through a shell.
  const result = spawnSync('npm', args, {
    cwd: root,
    stdio: quiet ? ['inherit', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
    // npm ci with install scripts can print a lot; past the buffer, Node would kill it.
    maxBuffer: 256 * 1024 * 1024,
    shell: process.platform === 'win32',
  });
  const firstError = `${result.stdout ?? ''}\n${result.stderr ?? ''}`
    .split('\n')
    .find((line) => line.startsWith('npm error') && line.trim() !== 'npm error');
  return { status: result.status ?? 1, firstError };
}

function isStale() {
  const lock = path.join(root, 'package-lock.json');
  // npm writes node_modules/.package-lock.json after every successful install.
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(installed)) return true;
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs;
}

export function ensureDeps() {
  if (!isStale()) return;
  console.log('[setup] installing dependencies');
  const hasLock = existsSync(path.join(root, 'package-lock.json'));
  let { status, firstError } = hasLock ? npm(['ci'], { quiet: true }) : npm(['install']);
  if (status !== 0 && hasLock) {
    // npm ci refuses a lock file that is out of step with package.json or this npm (for example
    // one written by an npm that left other platforms' optional packages out); npm install
    // accepts it and keeps the locked versions. Its whole help text is not worth showing.
    console.log(
      `[setup] npm ci refused the lock file (${firstError ?? `exit ${status}`}); using npm install`,
    );
    ({ status } = npm(['install']));
  }
  if (status !== 0) throw new Error(`[setup] installing dependencies failed (npm exited ${status})`);
  // npm install may rewrite package-lock.json after the hidden lock file; mark the install as newest.
  const installed = path.join(root, 'node_modules', '.package-lock.json');
  if (existsSync(installed)) utimesSync(installed, new Date(), new Date());
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    ensureDeps();
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
