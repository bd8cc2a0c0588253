import { Redis } from 'ioredis';
import pg from 'pg';

/** Drops the run's database and Redis keys (KEEP_TEST_DATABASE=1 keeps them for a look afterwards). */
export default async function globalTeardown(): Promise<void> {
  await deleteRedisKeys(process.env.REDIS_PREFIX);
  const name = process.env.TEST_DATABASE_NAME;
  if (!name || process.env.KEEP_TEST_DATABASE === '1') return;
  const admin = new pg.Client({ connectionString: process.env.TEST_ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

async function deleteRedisKeys(prefix: string | undefined): Promise<void> {
  if (!prefix?.startsWith('tjtest-') || process.env.KEEP_TEST_DATABASE === '1') return;
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
