import { afterAll } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './process.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Clean shutdown (SIGTERM: Redis saves first when persistence is on). */
  stop(): Promise<void>;
  /** SIGKILL: no save, connections cut. */
  kill(): Promise<void>;
  /** Starts it again on the same port and with the same arguments (stopping it first if it runs). */
  restart(): Promise<void>;
}

const READY = /Ready to accept connections/;
const START_TIMEOUT_MS = 10_000;

/**
 * After the test file (this hook is registered when a test file imports this module): servers its
 * tests left running are killed, and every server's files removed.
 */
const running = new Set<ChildProcess>();
const directories: string[] = [];
afterAll(async () => {
  await Promise.all(
    [...running].map((child) => new Promise((resolve) => child.once('exit', resolve).kill('SIGKILL'))),
  );
  for (const dir of directories.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A `redis-server` of its own on a free port of 127.0.0.1, without persistence unless `args` turn
 * it on (`--appendonly yes`); its files (and a cluster's nodes.conf) go to a temporary directory
 * that a restart reuses, removed after the test file.
 */
export async function startRedisServer(args: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'redis-server-'));
  directories.push(dir);
  const argv = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    'no',
  ];
  let child = await launch([...argv, ...args]);

  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () => end('SIGTERM'),
    kill: () => end('SIGKILL'),
    restart: async () => {
      await end('SIGTERM');
      child = await launch([...argv, ...args]);
    },
  };
}

async function launch(argv: string[]): Promise<ChildProcess> {
  const child = spawn('redis-server', argv, { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => fail(new Error(`redis-server did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (READY.test(output)) done();
    };
    const onExit = () => fail(new Error('redis-server exited'));
    const cleanup = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', fail);
    };
    const done = () => {
      cleanup();
      resolve();
    };
    function fail(error: Error) {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`${error.message} (redis-server ${argv.join(' ')}):\n${output}`));
    }
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', onExit);
    child.once('error', fail);
  });
  // Its log is not needed past the start, but an unread pipe would block it once full.
  child.stdout?.resume();
  child.stderr?.resume();
  return child;
}
