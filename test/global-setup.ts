import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import pg from 'pg';

const MIGRATE_CLI = 'dist/apps/api/src/cli/migrate.js';

/**
 * One isolated database per test run, created from scratch and migrated by the same CLI that
 * production uses (`npm run migrate`), so runs never see each other's data. Its URL reaches the
 * test workers through the environment. `npm test` builds before Jest runs.
 */
export default async function globalSetup(): Promise<void> {
  if (!existsSync(MIGRATE_CLI))
    throw new Error(`${MIGRATE_CLI} is missing: run \`npm run build\` first (npm test does)`);
  const base = new URL(
    process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
  );
  const name = `ticket_judge_test_${Date.now()}_${process.pid}`;
  const adminUrl = withDatabase(base, 'postgres');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = withDatabase(base, name);
  execFileSync(process.execPath, [MIGRATE_CLI], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: 'pipe',
  });
  process.env.DATABASE_URL = url;
  // Redis keys (rate-limit counters, queues) of this run live under their own prefix.
  process.env.REDIS_PREFIX = `tjtest-${Date.now()}-${process.pid}`;
  process.env.TEST_DATABASE_NAME = name;
  process.env.TEST_ADMIN_DATABASE_URL = adminUrl;
}

function withDatabase(url: URL, database: string): string {
  const copy = new URL(url.toString());
  copy.pathname = `/${database}`;
  return copy.toString();
}
