// `npm start`: install, build, prepare Postgres and Redis, migrate, seed, then run the API and the worker.
import { spawn, spawnSync } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** V8 flags of the API and the worker, as in package.json's start scripts and the Dockerfile (docs/architecture.md). */
const NODE_FLAGS = ['--max-semi-space-size=64'];
/** The API's old generation is bounded too (docs/architecture.md, "Runtime flags"). */
const API_NODE_FLAGS = [...NODE_FLAGS, '--max-old-space-size=384'];

/** Runs one set-up step; with `capture`, returns its standard output instead of showing it. */
function step(name, command, args, { capture = false } = {}) {
  console.log(`[start] ${name}`);
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
    shell: process.platform === 'win32' && command === 'npm',
  });
  if (result.status !== 0) {
    if (capture) process.stdout.write(result.stdout ?? '');
    console.error(`[start] ${name} failed`);
    process.exit(result.status ?? 1);
  }
  return result.stdout ?? '';
}

/**
 * Prints `text` once the API answers /healthz, so the demo credentials come after the apps' boot
 * logs instead of scrolling away under them.
 */
async function printWhenReady(text) {
  const host = process.env.HOST || '127.0.0.1';
  // The API answers on loopback when it listens on every interface; an IPv6 address needs brackets.
  const reachable =
    host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${reachable}:${process.env.PORT || 3000}/healthz`;
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  process.stdout.write(`\n${text.trim()}\n\n`);
}

function exitCodeOf(code, signal) {
  if (code !== null) return code;
  return signal ? 128 + (constants.signals[signal] ?? 0) : 1;
}

function supervise(apps) {
  const children = apps.map(({ name, entry, flags }) => ({
    name,
    // Own process group: a terminal Ctrl-C reaches only us, and we forward it exactly once.
    child: spawn(process.execPath, [...flags, entry], { cwd: root, stdio: 'inherit', detached: true }),
  }));
  const running = () => children.filter(({ child }) => child.exitCode === null && child.signalCode === null);
  let exitCode;
  let forwarded = false;

  for (const { name, child } of children) {
    child.on('exit', (code, signal) => {
      if (exitCode === undefined) {
        exitCode = exitCodeOf(code, signal);
        console.log(`[start] ${name} exited (${signal ?? code}); stopping the others`);
        for (const other of running()) other.child.kill('SIGTERM');
      }
      if (running().length === 0) process.exit(exitCode);
    });
  }
  // Detached children outlive us unless told otherwise, e.g. if this script crashes.
  process.on('exit', () => running().forEach(({ child }) => child.kill('SIGTERM')));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      // npm also forwards the terminal's signal to us; a second copy would abort the apps' graceful shutdown.
      if (forwarded) return;
      forwarded = true;
      for (const { child } of running()) child.kill(signal);
    });
  }
}

try {
  ensureDeps();
  if (process.env.SKIP_BUILD === '1') console.log('[start] build skipped (SKIP_BUILD=1)');
  else step('build', 'npm', ['run', 'build']);

  // Imported only now: services.mjs needs `pg`, which ensureDeps has just made sure of.
  const { ensureServices, ensureDatabase, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL } =
    await import('./services.mjs');
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  await ensureServices({ databaseUrl, redisUrl: process.env.REDIS_URL || DEFAULT_REDIS_URL });
  await ensureDatabase(databaseUrl);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}

step('migrate', process.execPath, ['dist/apps/api/src/cli/migrate.js']);
const demo =
  process.env.NODE_ENV === 'production'
    ? ''
    : step('seed demo data', process.execPath, ['dist/apps/api/src/cli/seed-demo.js'], { capture: true });

supervise([
  { name: 'api', entry: 'dist/apps/api/src/main.js', flags: API_NODE_FLAGS },
  { name: 'worker', entry: 'dist/apps/worker/src/main.js', flags: NODE_FLAGS },
]);
if (demo) void printWhenReady(demo);
