import pg from 'pg';
import { deleteRedisNamespace } from './support/redis.js';

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
  await deleteRedisNamespace(prefix);
}
