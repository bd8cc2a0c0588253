import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import pg from 'pg';
import { freePort } from '../support/process.js';

/**
 * `npm start` as a supervisor or a terminal stops it: a signal to npm's own PID (never the process
 * group, which a terminal would signal), or either process killed outright. Everything it started
 * must be gone afterwards, and the port closed. A scratch database of its own, so the demo seed
 * of the processes spec still finds no demo user.
 */
const DATABASE = `${process.env.TEST_DATABASE_NAME}_npm_start`;

function databaseUrl(): string {
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${DATABASE}`;
  return url.toString();
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie waiting for its parent to read it has stopped too.
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

async function npmStart() {
  const port = await freePort();
  const npm = spawn('npm', ['start'], {
    env: {
      ...process.env,
      SKIP_BUILD: '1',
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl(),
      REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-npm-start`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const pidOf = (name: string) =>
    Number(new RegExp(`\\[start\\] ${name} started \\(pid (\\d+)\\)`).exec(output)?.[1]);
  const ready = await until(() => /API listening on/.test(output) && /worker ready/.test(output), 90_000);
  if (!ready) {
    npm.kill('SIGKILL');
    throw new Error(`npm start did not come up:\n${output}`);
  }
  const api = pidOf('api');
  const worker = pidOf('worker');
  return { npm, port, api, worker, supervisor: parentOf(api), exited, output: () => output };
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
});

describe('npm start, stopped', () => {
  it.each([
    ['SIGINT to npm', 'npm', 'SIGINT'],
    ['SIGTERM to npm (a supervisor, `timeout`)', 'npm', 'SIGTERM'],
    ['SIGKILL to npm', 'npm', 'SIGKILL'],
    ['SIGKILL to scripts/start.mjs', 'supervisor', 'SIGKILL'],
  ] as const)(
    'by %s: the API and the worker stop gracefully and the port closes',
    async (_, target, signal) => {
      const started = await npmStart();
      const { npm, port, api, worker, supervisor } = started;
      try {
        expect([api, worker, supervisor].every((pid) => pid > 0 && alive(pid))).toBe(true);
        // npm runs the script in place of its shell: the supervisor is npm's own child.
        expect(parentOf(supervisor)).toBe(npm.pid);
        expect(await portOpen(port)).toBe(true);

        process.kill(target === 'npm' ? npm.pid! : supervisor, signal);

        expect(await until(() => !alive(api) && !alive(worker) && !alive(supervisor), 30_000)).toBe(true);
        expect(await portOpen(port)).toBe(false);
        // Gracefully: each app ran its shutdown.
        expect(started.output()).toContain('API stopped');
        expect(started.output()).toContain('worker stopped');
        const exit = await started.exited;
        if (signal !== 'SIGKILL') expect(exit).toEqual({ code: null, signal });
      } finally {
        for (const pid of [api, worker, supervisor, npm.pid!]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      }
    },
    150_000,
  );
});
