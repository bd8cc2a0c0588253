import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../data-source-options.js';

/** How Postgres names (udt_name) the column types the entities declare. */
const UDT: Record<string, string> = {
  uuid: 'uuid',
  text: 'text',
  integer: 'int4',
  bigint: 'int8',
  boolean: 'bool',
  'double precision': 'float8',
  jsonb: 'jsonb',
  date: 'date',
  timestamptz: 'timestamptz',
};

interface ColumnShape {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  primary: boolean;
}

/**
 * The entities against the schema the migrations build (the test database is migrated by the
 * production CLI): every table has an entity, and every column has the same name, type,
 * nullability and primary-key membership on both sides.
 */
/**
 * TypeORM's schema builder reads the tables with several queries at once on its one connection
 * (`getTables`: a `Promise.all` per table and column), which pg deprecates and pg 9 removes
 * ("Calling client.query() when the client is already executing a query"). Its query runners here
 * send their queries one after another instead.
 */
function runQueriesOneAtATime(dataSource: DataSource): void {
  const create = dataSource.createQueryRunner.bind(dataSource);
  dataSource.createQueryRunner = (...args) => {
    const runner = create(...args);
    const query = runner.query.bind(runner);
    let previous: Promise<unknown> = Promise.resolve();
    runner.query = ((...queryArgs: Parameters<typeof query>) => {
      const result = previous.then(() => query(...queryArgs));
      previous = result.catch(() => undefined);
      return result;
    }) as typeof runner.query;
    return runner;
  };
}

describe('entities match the migrated schema', () => {
  let dataSource: DataSource;
  let migrated: ColumnShape[];

  beforeAll(async () => {
    dataSource = await new DataSource(
      dataSourceOptions(process.env.DATABASE_URL!, { poolSize: 1 }),
    ).initialize();
    migrated = await dataSource.query(`
      SELECT c.table_name AS "table", c.column_name AS "column", c.udt_name AS type,
             c.is_nullable = 'YES' AS nullable,
             EXISTS (SELECT 1 FROM information_schema.key_column_usage k
                       JOIN information_schema.table_constraints t USING (constraint_schema, constraint_name)
                      WHERE t.constraint_type = 'PRIMARY KEY' AND k.table_name = c.table_name
                        AND k.column_name = c.column_name AND k.table_schema = c.table_schema) AS primary
        FROM information_schema.columns c
       WHERE c.table_schema = 'public' AND c.table_name <> 'migrations'`);
  });
  afterAll(() => dataSource.destroy());

  function declared(): ColumnShape[] {
    return dataSource.entityMetadatas.flatMap((entity) =>
      entity.columns.map((column) => {
        const type = String(column.type);
        return {
          table: entity.tableName,
          column: column.databaseName,
          type: column.isArray ? `_${UDT[type] ?? type}` : (UDT[type] ?? type),
          nullable: column.isNullable,
          primary: column.isPrimary,
        };
      }),
    );
  }

  const byPosition = (a: ColumnShape, b: ColumnShape) =>
    `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`);

  it('declares every migrated table and column, and nothing else', () => {
    expect(declared().sort(byPosition)).toEqual([...migrated].sort(byPosition));
  });

  it('leaves nothing for TypeORM to add or change in the columns', async () => {
    runQueriesOneAtATime(dataSource);
    const sql = await dataSource.driver.createSchemaBuilder().log();
    // Indexes, foreign keys, checks and the stats trigger live in the migrations only.
    const columnChanges = sql.upQueries
      .map((query) => query.query)
      .filter((query) => /ADD (COLUMN )?"|ALTER COLUMN|CREATE TABLE/.test(query));
    expect(columnChanges).toEqual([]);
  });
});
