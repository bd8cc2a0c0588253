import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from './data-source-options.js';
import { PoolClientErrors, watchPoolClients } from './pool-client-errors.js';

/** Ends a connection from the server side, as a failover or pg_terminate_backend does. */
async function terminate(admin: pg.Pool, client: pg.PoolClient): Promise<void> {
  const pid = (client as unknown as { processID: number }).processID;
  const ended = new Promise((resolve) => client.once('end', resolve));
  await admin.query('SELECT pg_terminate_backend($1)', [pid]);
  await ended;
}

/**
 * A checked-out connection that Postgres terminates between queries emits `error`; with no
 * listener that event would end the process (and fail these tests as an uncaught error).
 */
describe('pooled connections failing between queries', () => {
  let admin: pg.Pool;

  beforeAll(() => {
    admin = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 1 });
  });
  afterAll(() => admin.end());

  it('reach the watcher instead of ending the process, and the pool drops them on release', async () => {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 2 });
    const errors: Error[] = [];
    watchPoolClients(pool, (error) => errors.push(error));
    try {
      const client = await pool.connect();
      await client.query('SELECT 1');
      await terminate(admin, client);
      expect(errors.map((error) => (error as Error & { code?: string }).code ?? error.message)).toContain(
        '57P01',
      );
      await expect(client.query('SELECT 1')).rejects.toThrow();
      client.release(errors[0]);
      expect(pool.totalCount).toBe(0);
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });

  it('are watched in the pool TypeORM opens for the app', async () => {
    const dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 2 }),
    ).initialize();
    try {
      new PoolClientErrors(dataSource).onApplicationBootstrap();
      const pool = (dataSource.driver as unknown as { master: pg.Pool }).master;
      const client = await pool.connect();
      await terminate(admin, client);
      client.release(new Error('terminated'));
      expect((await dataSource.query('SELECT 1 AS one')) as unknown).toEqual([{ one: 1 }]);
    } finally {
      await dataSource.destroy();
    }
  });
});
