import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, PoolClient } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';
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
 */
@Injectable()
export class PreparedSql {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async query<P, R>(statement: Statement<P, R>, params: P, tx?: EntityManager): Promise<StatementResult<R>> {
    const connection = tx ? await this.connectionOf(tx) : this.pool();
    const result = await connection.query<R & object>({
      name: statement.preparedName,
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
    const pool = (this.dataSource.driver as unknown as { master?: Pool }).master;
    if (!pool) throw new Error('the database connection is not open');
    return pool;
  }

  /** The pg connection a transaction holds (TypeORM's Postgres query runner hands it out). */
  private async connectionOf(tx: EntityManager): Promise<PoolClient> {
    if (!tx.queryRunner) throw new Error('statements run on a transaction need its EntityManager');
    return (await tx.queryRunner.connect()) as PoolClient;
  }
}
