import { afterAll, beforeAll } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';

const MIGRATE_CLI = 'dist/apps/api/src/cli/migrate.js';

export interface IsolatedDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of the spec's own beside the run's, migrated by the production CLI, for a spec whose
 * worker reads across tenants (the quality alert check reads every pack): its data and its
 * deliveries cannot reach the specs running beside it. Dropped by `drop()`.
 */
export async function createIsolatedDatabase(tag: string): Promise<IsolatedDatabase> {
  const base = process.env.TEST_DATABASE_NAME;
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL;
  if (!base || !adminUrl) throw new Error('the global setup did not name the run’s database');
  const name = `${base}_${tag}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  await promisify(execFile)(process.execPath, [MIGRATE_CLI], {
    env: { ...process.env, DATABASE_URL: url.toString() },
  });
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * Points this spec file, and every process it starts afterwards, at a database of its own while it
 * runs (DATABASE_URL, restored after): for specs whose worker draws from every active shadow run
 * of its database, so that the workers of the specs running beside it (with other Redis prefixes,
 * as two deployments on one database never are) cannot draw or judge this spec's runs, nor this
 * spec's worker theirs. Call it at the top of the file, before the hooks that start processes.
 */
export function useIsolatedDatabase(tag: string): void {
  let database: IsolatedDatabase | undefined;
  let previous: string | undefined;
  beforeAll(async () => {
    database = await createIsolatedDatabase(tag);
    previous = process.env.DATABASE_URL;
    process.env.DATABASE_URL = database.url;
  }, 60_000);
  afterAll(async () => {
    if (previous !== undefined) process.env.DATABASE_URL = previous;
    await database?.drop();
  });
}
