// Makes sure Postgres and Redis answer before the app or the tests need them, starting local ones if it can.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

export const DEFAULT_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

const LOCAL_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);
const START_WAIT_MS = 20_000;

function log(message) {
  console.log(`[setup] ${message}`);
}

function endpoint(url, defaultPort) {
  const parsed = new URL(url);
  // URL keeps IPv6 hosts in brackets; net.connect wants them bare.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1';
  return { host, port: Number(parsed.port || defaultPort) };
}

function canConnect({ host, port }, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitFor(target, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await canConnect(target)) return true;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
}

function hasCommand(name) {
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) => {
    try {
      accessSync(path.join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function run(command, args) {
  // stdout is dropped (pg_ctlcluster and redis-server chatter); errors still reach stderr.
  return spawnSync(command, args, { stdio: ['ignore', 'ignore', 'inherit'] }).status === 0;
}

function startPostgres() {
  if (!hasCommand('pg_ctlcluster')) return false;
  let versions = [];
  try {
    versions = readdirSync('/etc/postgresql');
  } catch {
    return false;
  }
  for (const version of versions) {
    run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  }
  return versions.length > 0;
}

function startRedis({ host, port }) {
  if (!hasCommand('redis-server')) return false;
  const bind = host === '::1' ? '::1' : '127.0.0.1';
  const args = ['--daemonize', 'yes', '--bind', bind, '--port', String(port), '--save', ''];
  return run('redis-server', [...args, '--appendonly', 'no']);
}

async function ensureReachable(service) {
  const { name, target, start } = service;
  if (await canConnect(target)) {
    log(`${name} is up at ${target.host}:${target.port}`);
    return true;
  }
  if (!LOCAL_HOSTS.has(target.host)) return false;
  log(`${name} is not answering at ${target.host}:${target.port}; trying to start it`);
  if (!start(target)) return false;
  const up = await waitFor(target, START_WAIT_MS);
  if (up) log(`${name} started`);
  return up;
}

export async function ensureServices({
  databaseUrl = DEFAULT_DATABASE_URL,
  redisUrl = DEFAULT_REDIS_URL,
} = {}) {
  const services = [
    { name: 'PostgreSQL', package: 'postgresql', target: endpoint(databaseUrl, 5432), start: startPostgres },
    { name: 'Redis', package: 'redis-server', target: endpoint(redisUrl, 6379), start: startRedis },
  ];
  const results = await Promise.all(services.map(ensureReachable));
  const missing = services.filter((_, index) => !results[index]);
  if (missing.length === 0) return;

  const where = missing.map((s) => `${s.name} at ${s.target.host}:${s.target.port}`).join(' and ');
  throw new Error(
    `[setup] Cannot reach ${where}. Start ${missing.length > 1 ? 'them' : 'it'} with \`docker compose up -d postgres redis\`, ` +
      `or on Debian install them with \`apt-get install -y ${missing.map((s) => s.package).join(' ')}\` ` +
      '(or point DATABASE_URL / REDIS_URL at running servers).',
  );
}

function quoteIdentifier(name) {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function ensureDatabase(databaseUrl = DEFAULT_DATABASE_URL) {
  const target = new URL(databaseUrl);
  const database = decodeURIComponent(target.pathname.slice(1));
  if (!database || database === 'postgres') return;

  // The target may not exist yet, so connect to the maintenance database of the same server.
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(
      `[setup] Cannot log in to PostgreSQL as ${admin.username || 'the default user'}: ${error.message}`,
    );
  }
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (rowCount > 0) return;
    await client.query(`CREATE DATABASE ${quoteIdentifier(database)}`);
    log(`created database ${database}`);
  } catch (error) {
    // Another process (a parallel test run, the worker) created it between our check and our CREATE.
    if (error.code !== '42P04') throw error;
  } finally {
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const databaseUrl = process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const redisUrl = process.env.REDIS_URL || DEFAULT_REDIS_URL;
  try {
    await ensureServices({ databaseUrl, redisUrl });
    await ensureDatabase(databaseUrl);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
