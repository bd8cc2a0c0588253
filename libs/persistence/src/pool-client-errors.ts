import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type pg from 'pg';
import { DataSource } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';

const watched = new WeakSet<pg.PoolClient>();

/**
 * Gives every pooled connection an `error` listener of its own, the first time it is checked out.
 * A pg client emits `error` when its connection fails between queries (Postgres terminating the
 * backend: a failover, a restart, pg_terminate_backend), and an `error` event nobody listens to
 * ends the process. pg-pool listens only while a client is idle and TypeORM only while one of its
 * query runners holds it, so a connection that failed in between took the process down (the fault
 * drill that terminates every backend mid-run caught it). The failed client is no longer
 * queryable, so its holder gets an error on its next query and the pool drops it on release.
 */
export function watchPoolClients(pool: pg.Pool, onError: (error: Error) => void): void {
  pool.on('acquire', (client) => {
    if (watched.has(client)) return;
    watched.add(client);
    client.on('error', onError);
  });
}

/** Watches the pool TypeORM opened for the app (see watchPoolClients). */
@Injectable()
export class PoolClientErrors implements OnApplicationBootstrap {
  private readonly logger = new Logger('Postgres');

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    const driver = this.dataSource.driver;
    if (!(driver instanceof PostgresDriver) || !driver.master) return;
    watchPoolClients(driver.master as pg.Pool, (error) =>
      this.logger.warn({ err: error }, 'a Postgres connection failed; the pool drops it on release'),
    );
  }
}
