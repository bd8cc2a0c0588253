import { Redis } from 'ioredis';
import pg from 'pg';

/**
 * Drops the run's database and Redis keys (KEEP_TEST_DATABASE=1 keeps them for a look afterwards).
 * Jest loads this file outside its module registry, so it imports packages only, no local modules.
 */
export default async function globalTeardown(): Promise<void> {
  if (process.env.KEEP_TEST_DATABASE === '1') return;
  await deleteRedisNamespace(process.env.REDIS_PREFIX);
  const name = process.env.TEST_DATABASE_NAME;
  if (!name) return;
  const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * Deletes every key of the run's namespace: `prefix:*`, and `prefix-*` for the suites that run
 * under a namespace of their own derived from it (`…-mcp`, `…-sim`, `…-fuzz`, `…-isolation`).
 */
async function deleteRedisNamespace(prefix: string | undefined): Promise<void> {
  if (!prefix?.startsWith('tjtest-')) return;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  try {
    for (const pattern of [`${prefix}:*`, `${prefix}-*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}
