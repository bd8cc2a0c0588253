import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import type { Statement } from './statement.js';

/** What a statement returned: its rows, and how many rows it inserted, updated or deleted. */
export interface StatementResult<Row> {
  rows: Row[];
  affected: number;
}

/**
 * The one runner of named statements. Each is sent as a named prepared statement, straight on the
 * pg pool TypeORM opened (or on a transaction's connection): Postgres parses and plans it once per
 * connection instead of on every call, and TypeORM's per-query runner, logger and broadcaster stay
 * out of the hot paths. Pass a transaction's EntityManager to run inside it.
 *
 * The pool is `PostgresDriver.master`, a public property of a class TypeORM exports (its package's
 * `exports` map opens `typeorm/driver/postgres/*.js`), declared `any`; the integration spec beside
 * this file checks that it is a pg Pool once the DataSource is open. The other public ways in do
 * not fit: `DataSource.query()` and `QueryRunner.query()` take no statement name, and a QueryRunner's
 * own connection (`createQueryRunner().connect()`, then `release()`) wraps the same pool checkout
 * that `pool.query` does in a runner object, error listeners and the driver's list of runners.
 */
@Injectable()
export class PreparedSql {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async query<P, R>(statement: Statement<P, R>, params: P, tx?: EntityManager): Promise<StatementResult<R>> {
    const connection = tx ? await this.connectionOf(tx) : this.pool();
    const result = await connection.query<R & object>({
      // Unnamed, pg sends it with the extended protocol all the same, and Postgres plans it with these values.
      name: statement.plannedPerCall ? undefined : statement.preparedName,
      text: statement.text,
      values: statement.values(params),
    });
    return { rows: result.rows, affected: result.rowCount ?? 0 };
  }

  async rows<P, R>(statement: Statement<P, R>, params: P, tx?: EntityManager): Promise<R[]> {
    return (await this.query(statement, params, tx)).rows;
  }

  async first<P, R>(statement: Statement<P, R>, params: P, tx?: EntityManager): Promise<R | null> {
    return (await this.query(statement, params, tx)).rows[0] ?? null;
  }

  async affected<P, R>(statement: Statement<P, R>, params: P, tx?: EntityManager): Promise<number> {
    return (await this.query(statement, params, tx)).affected;
  }

  private pool(): Pool {
    const driver = this.dataSource.driver;
    if (!(driver instanceof PostgresDriver)) throw new Error('named statements need the Postgres driver');
    // Declared `any` by TypeORM; a pg Pool whenever the DataSource is open (see the spec).
    const pool = driver.master as Pool | undefined;
    if (!pool) throw new Error('the database connection is not open');
    return pool;
  }

  /** The pg connection a transaction holds (TypeORM's Postgres query runner hands it out). */
  private async connectionOf(tx: EntityManager): Promise<PoolClient> {
    if (!tx.queryRunner) throw new Error('statements run on a transaction need its EntityManager');
    return (await tx.queryRunner.connect()) as PoolClient;
  }
}
