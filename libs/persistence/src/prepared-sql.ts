import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { Pool, QueryResult } from 'pg';
import type { DataSource } from 'typeorm';

/**
 * Runs the statements on the hot paths (one or more per judgment, per simulation ticket, per inbound
 * event) straight on the pg pool that TypeORM opened, as named prepared statements: Postgres parses
 * and plans each once per connection instead of on every call, and TypeORM's per-query runner,
 * logger and broadcaster stay out of the way. Results match `DataSource.query` (rows, or
 * `[rows, affected]` for UPDATE and DELETE), so a statement can move here unchanged.
 */
@Injectable()
export class PreparedSql {
  private readonly names = new Map<string, string>();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async query(text: string, values: unknown[] = []): Promise<unknown> {
    const result: QueryResult = await this.pool().query({ name: this.nameOf(text), text, values });
    return result.command === 'UPDATE' || result.command === 'DELETE'
      ? [result.rows, result.rowCount ?? 0]
      : result.rows;
  }

  private pool(): Pool {
    const pool = (this.dataSource.driver as unknown as { master?: Pool }).master;
    if (!pool) throw new Error('the database connection is not open');
    return pool;
  }

  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (!name) {
      name = `tj_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
      this.names.set(text, name);
    }
    return name;
  }
}
