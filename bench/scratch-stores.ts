import { Redis } from 'ioredis';
import pg from 'pg';

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function onMaintenanceDatabase<T>(
  serverUrl: string,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
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

/** Process ids of the server backends connected to one database (the API's pool), for CPU accounting. */
export async function backendPids(serverUrl: string, database: string): Promise<number[]> {
  return onMaintenanceDatabase(serverUrl, async (client) => {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    return rows.map((row) => row.pid);
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
