import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { dataSourceOptions } from '../data-source-options.js';
import { PreparedSql } from './prepared-sql.js';
import { defineStatement } from './statement.js';

const answer = defineStatement<{ value: number }, { doubled: number }>({
  name: 'prepared_sql_spec_double',
  sql: 'SELECT (:value)::int * 2 AS doubled',
});

/** An optional filter that only a plan made with the values folds away. */
const optional = defineStatement<{ limit: number | null }, { n: number }>({
  name: 'prepared_sql_spec_optional',
  sql: 'SELECT n FROM generate_series(1, 3) AS n WHERE (:limit::int IS NULL OR n <= :limit) ORDER BY n',
  plannedPerCall: true,
});

/**
 * PreparedSql runs on `PostgresDriver.master`, which TypeORM declares `any`: this holds it to what
 * PreparedSql takes it for, a pg Pool, and checks that statements go out as named prepared ones.
 */
describe('PreparedSql on the pool TypeORM opened', () => {
  let dataSource: DataSource;
  let sql: PreparedSql;

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 1 }),
    ).initialize();
    sql = new PreparedSql(dataSource);
  });
  afterAll(() => dataSource.destroy());

  it('finds a pg Pool as the master of the Postgres driver', () => {
    expect(dataSource.driver).toBeInstanceOf(PostgresDriver);
    const { master } = dataSource.driver as PostgresDriver;
    expect(master).toBeInstanceOf(pg.Pool);
    expect(typeof master.query).toBe('function');
    expect(typeof master.connect).toBe('function');
  });

  it('prepares a statement once per connection, by its name', async () => {
    expect(await sql.first(answer, { value: 21 })).toEqual({ doubled: 42 });
    expect(await sql.first(answer, { value: 4 })).toEqual({ doubled: 8 });
    // One connection in the pool: the session that ran both has the statement prepared, once.
    const prepared = await dataSource.query<{ name: string }[]>(
      'SELECT name FROM pg_prepared_statements WHERE name = $1',
      [answer.preparedName],
    );
    expect(prepared).toEqual([{ name: answer.preparedName }]);
  });

  it('runs on the connection of a transaction', async () => {
    const doubled = await dataSource.transaction(async (tx) => {
      const [{ pid }] = await tx.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
      const row = await sql.first(answer, { value: 5 }, tx);
      const [again] = await tx.query<{ pid: number }[]>('SELECT pg_backend_pid() AS pid');
      expect(again.pid).toBe(pid);
      return row;
    });
    expect(doubled).toEqual({ doubled: 10 });
  });

  it('sends a statement planned per call unnamed: nothing is prepared on the connection', async () => {
    expect(await sql.rows(optional, { limit: null })).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    expect(await sql.rows(optional, { limit: 2 })).toEqual([{ n: 1 }, { n: 2 }]);
    const prepared = await dataSource.query<{ name: string }[]>(
      'SELECT name FROM pg_prepared_statements WHERE name = $1',
      [optional.preparedName],
    );
    expect(prepared).toEqual([]);
  });
});
