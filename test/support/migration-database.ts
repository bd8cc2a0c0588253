import { afterAll, beforeAll } from '@jest/globals';
import { DataSource, type QueryRunner } from 'typeorm';
import { dataSourceOptions } from '../../libs/persistence/src/data-source-options.js';

/**
 * A migration int-spec's database: one connection to the run's test database, opened before the
 * file's tests and closed after them. `inRolledBackTransaction` runs a test's body inside a
 * transaction that is then rolled back (DDL is transactional in Postgres), so a test can run a
 * migration down, write rows as they were before it and run it up again, and the shared test
 * database keeps its schema.
 */
export function migrationDatabase() {
  let dataSource: DataSource;
  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 1 }),
    ).initialize();
  });
  afterAll(() => dataSource.destroy());
  return {
    query: (sql: string, params?: unknown[]) => dataSource.query(sql, params),
    async inRolledBackTransaction(body: (runner: QueryRunner) => Promise<void>): Promise<void> {
      const runner = dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        await body(runner);
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
    },
  };
}
