import { copyFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Redis } from 'ioredis';
import pg from 'pg';
import { sleep } from './log.js';

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function onMaintenanceDatabase<T>(
  serverUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: maintenanceUrl(serverUrl) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A database URL whose connections say who they are, to tell a process's backends apart. */
export function withApplicationName(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.searchParams.set('application_name', name);
  return url.toString();
}

/** The maintenance database of the server, where reading statistics adds nothing to the scratch one. */
export function maintenanceUrl(serverUrl: string): string {
  const url = new URL(serverUrl);
  url.pathname = '/postgres';
  return url.toString();
}

/** Starts local Postgres and Redis if they do not answer, as the test command does. */
export async function ensureServices(root: string, databaseUrl: string, redisUrl: string): Promise<void> {
  const services = (await import(pathToFileURL(path.join(root, 'scripts/services.mjs')).href)) as {
    ensureServices(urls: { databaseUrl: string; redisUrl: string }): Promise<void>;
  };
  await services.ensureServices({ databaseUrl, redisUrl });
}

/** A fresh, empty database on the server of `serverUrl`; the API migrates it at boot. */
export async function createScratchDatabase(serverUrl: string, name: string): Promise<string> {
  await onMaintenanceDatabase(serverUrl, (client) =>
    client.query(`CREATE DATABASE ${quoteIdentifier(name)}`),
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropScratchDatabase(serverUrl: string, name: string): Promise<void> {
  await onMaintenanceDatabase(serverUrl, (client) =>
    client.query(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`),
  );
}

/** The server's version line, for the report. */
export async function postgresVersion(serverUrl: string): Promise<string> {
  return onMaintenanceDatabase(serverUrl, async (client) => {
    const { rows } = await client.query<{ server_version: string }>('SHOW server_version');
    return rows[0]?.server_version ?? 'unknown';
  });
}

/** Deletes every key of the run's namespace (`<prefix>:*`): rate-limit counters and throttles. */
export async function deleteRedisNamespace(redisUrl: string, prefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

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
    await sleep(2_000);
  }
}
