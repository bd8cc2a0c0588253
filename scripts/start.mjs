// `npm start`: install, build, prepare Postgres and Redis, migrate, seed, then run the API and the worker.
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDeps } from './ensure-deps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** V8 flags of the worker, as in package.json's start scripts and the Dockerfile (docs/architecture.md). */
const NODE_FLAGS = ['--max-semi-space-size=64'];
/** The API's young generation is smaller and its old generation bounded (docs/architecture.md, "Runtime flags"). */
const API_NODE_FLAGS = ['--max-semi-space-size=32', '--max-old-space-size=384'];

/**
 * The signal that stops `npm start`, once one arrives (SIGINT, SIGTERM or SIGHUP). npm runs this
 * script in place of its shell (`exec` in package.json's start script) and forwards SIGINT and
 * SIGTERM to it, and only to it: whatever runs below is stopped from here.
 */
let stopSignal = null;
/** The processes running now: a set-up step, or the API and the worker. */
const current = new Set();
/** Children are asked to stop with SIGINT or SIGTERM, the signals the apps stop gracefully on. */
const forwardable = (signal) => (signal === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
const isRunning = (child) => child.exitCode === null && child.signalCode === null;
/** Processes of their own group (set-up steps): the signal goes to the whole group, npm's shell and tsc alike. */
const groups = new WeakSet();

function signalChild(child, signal) {
  try {
    if (groups.has(child)) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    // Gone already.
  }
}

/** Ends this process by `signal` itself, as npm expects of a script stopped by a signal (it then exits quietly, by the same signal). */
function dieBy(signal) {
  for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeAllListeners(name);
  process.kill(process.pid, signal);
  // In case the signal is ignored here (a SIGINT on a shell's background job).
  setTimeout(() => process.exit(128 + (constants.signals[signal] ?? 0)), 500).unref();
  return new Promise(() => {});
}

function stop(signal) {
  // A terminal's Ctrl-C reaches us both directly and through npm: a second copy would abort the
  // apps' graceful shutdown.
  if (stopSignal) return;
  stopSignal = signal;
  console.log(`[start] ${signal}: stopping`);
  const running = [...current].filter(isRunning);
  if (running.length === 0) void dieBy(signal);
  for (const child of running) signalChild(child, forwardable(signal));
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal));
// npm killed outright (SIGKILL) cannot forward anything; we are then handed to another parent.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop('SIGTERM');
}, 1000).unref();

/** Runs one set-up step; with `capture`, returns its standard output instead of showing it. */
async function step(name, command, args, { capture = false } = {}) {
  if (stopSignal) return dieBy(stopSignal);
  console.log(`[start] ${name}`);
  const windows = process.platform === 'win32';
  const child = spawn(command, args, {
    cwd: root,
    stdio: capture ? ['inherit', 'pipe', 'inherit'] : 'inherit',
    shell: windows && command === 'npm',
    // A group of its own, so a stop reaches what the step runs in turn (`npm run build`: a shell, tsc, vite).
    detached: !windows,
  });
  if (!windows) groups.add(child);
  current.add(child);
  let stdout = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const [code, signal] = await new Promise((resolve) =>
    child.once('close', (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  current.delete(child);
  if (stopSignal) return dieBy(stopSignal);
  if (code !== 0) {
    if (capture) process.stdout.write(stdout);
    console.error(`[start] ${name} failed`);
    process.exit(exitCodeOf(code, signal));
  }
  return stdout;
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
  const children = apps.map(({ name, entry, flags }) => {
    const child = spawn(process.execPath, [...flags, entry], {
      cwd: root,
      // The IPC channel closes when this process ends, however it ends (even SIGKILL): the apps
      // then stop on their own ('disconnect' in their main.ts), so nothing is left serving the port.
      stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
      // Own process group: a terminal Ctrl-C reaches only us, and we forward it exactly once.
      detached: true,
    });
    current.add(child);
    console.log(`[start] ${name} started (pid ${child.pid})`);
    return { name, child };
  });
  const running = () => children.filter(({ child }) => isRunning(child));
  let exitCode;

  for (const { name, child } of children) {
    child.on('exit', (code, signal) => {
      current.delete(child);
      if (exitCode === undefined) {
        exitCode = exitCodeOf(code, signal);
        if (!stopSignal) {
          console.log(`[start] ${name} exited (${signal ?? code}); stopping the others`);
          for (const other of running()) other.child.kill('SIGTERM');
        }
      }
      if (running().length > 0) return;
      if (!stopSignal) process.exit(exitCode);
      console.log('[start] stopped');
      void dieBy(stopSignal);
    });
  }
  // Should this script fail, the apps still get a graceful stop.
  process.on('exit', () => running().forEach(({ child }) => child.kill('SIGTERM')));
}

try {
  ensureDeps();
  if (process.env.SKIP_BUILD === '1') console.log('[start] build skipped (SKIP_BUILD=1)');
  else await step('build', 'npm', ['run', 'build']);

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

await step('migrate', process.execPath, ['dist/apps/api/src/cli/migrate.js']);
const demo =
  process.env.NODE_ENV === 'production'
    ? ''
    : await step('seed demo data', process.execPath, ['dist/apps/api/src/cli/seed-demo.js'], {
        capture: true,
      });

supervise([
  { name: 'api', entry: 'dist/apps/api/src/main.js', flags: API_NODE_FLAGS },
  { name: 'worker', entry: 'dist/apps/worker/src/main.js', flags: NODE_FLAGS },
]);
if (demo) void printWhenReady(demo);
