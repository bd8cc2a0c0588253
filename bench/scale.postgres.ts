import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type pg from 'pg';
import { machineCpuMs } from './harness/probes.js';
import { table } from './harness/report.js';

/** Whole-server counters: WAL position in bytes, next transaction id, commits of each other database. */
export interface ServerCounters {
  wal: number;
  xid: number;
  others: Record<string, number>;
}

/** Commits of the other databases between two readings; one dropped meanwhile is not counted. */
export const otherCommits = (before: ServerCounters, after: ServerCounters) =>
  Object.entries(after.others).reduce(
    (sum, [name, commits]) => sum + commits - (before.others[name] ?? 0),
    0,
  );

/** What the events cost Postgres, as totals over all of them. */
export interface WriteCost {
  events: number;
  /** In the scratch database, reads included: each statement outside a transaction is one. */
  commits: number;
  /** Transaction ids assigned on the whole server: the transactions that wrote. */
  writeTransactions: number;
  walBytes: number;
  /** Commits in other databases meanwhile (at least): when not 0, the whole-server figures include their work. */
  otherCommits: number;
  tables: Array<{ table: string; inserted: number; updated: number; hot: number; deleted: number }>;
}

/** pgbench simple-update (an UPDATE, a SELECT and an INSERT a transaction) on the same server. */
export interface Capacity {
  clients: number;
  seconds: number;
  tps: number;
  /** Machine CPU (Postgres and pgbench) and server WAL per transaction. */
  cpuMsPerTransaction: number;
  walBytesPerTransaction: number;
  machineBusy: number;
}

/** `stats` is connected to another database than `databaseName`, so reading adds nothing to it. */
export async function serverCounters(stats: pg.Client, databaseName: string): Promise<ServerCounters> {
  const { rows } = await stats.query<{ lsn: string; xid: string; others: Record<string, number> }>(
    `SELECT pg_current_wal_lsn()::text AS lsn, pg_snapshot_xmax(pg_current_snapshot())::text AS xid,
            (SELECT coalesce(json_object_agg(datname, xact_commit), '{}') FROM pg_stat_database
              WHERE datname NOT IN ($1, current_database())) AS others`,
    [databaseName],
  );
  const [high, low] = rows[0].lsn.split('/').map((part) => parseInt(part, 16));
  return { wal: high * 2 ** 32 + low, xid: Number(rows[0].xid), others: rows[0].others };
}

/**
 * The scratch database's counters, which `pg_stat_reset()` zeroed at `since`; read them only once
 * every backend has reported (Postgres 15 reports an idle backend's up to 10 s late).
 * `ownQueries` are the benchmark's own statements there, taken out of the commits.
 */
export async function writeCost(
  db: pg.Client,
  stats: pg.Client,
  databaseName: string,
  since: ServerCounters,
  ownQueries: number,
): Promise<WriteCost> {
  const now = await serverCounters(stats, databaseName);
  const { rows } = await db.query<{ events: number; commits: number }>(
    `SELECT (SELECT count(*) FROM inbound_events)::float8 AS events,
            (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::float8 AS commits`,
  );
  const tables = await db.query<WriteCost['tables'][number]>(
    `SELECT relname AS table, n_tup_ins::float8 AS inserted, n_tup_upd::float8 AS updated,
            n_tup_hot_upd::float8 AS hot, n_tup_del::float8 AS deleted
       FROM pg_stat_user_tables WHERE n_tup_ins + n_tup_upd + n_tup_del > 0 ORDER BY relname`,
  );
  return {
    events: rows[0].events,
    commits: rows[0].commits - ownQueries,
    writeTransactions: now.xid - since.xid,
    walBytes: now.wal - since.wal,
    otherCommits: otherCommits(since, now),
    tables: tables.rows,
  };
}

/** Write transactions a second the server commits, nothing else of the benchmark running. */
export async function pgbenchCapacity(
  stats: pg.Client,
  databaseUrl: string,
  databaseName: string,
  { clients, seconds }: { clients: number; seconds: number },
): Promise<Capacity> {
  const run = promisify(execFile);
  const pgbench = (args: string[]) => run('pgbench', [...args, databaseUrl]);
  await pgbench(['-i', '-q', '-s', '1']);
  const [cpuBefore, before] = [machineCpuMs(), await serverCounters(stats, databaseName)];
  const { stdout } = await pgbench(['-n', '-N', '-c', `${clients}`, '-j', '2', '-T', `${seconds}`]);
  const [cpuAfter, after] = [machineCpuMs(), await serverCounters(stats, databaseName)];
  const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
  const transactions = Number(/actually processed: (\d+)/.exec(stdout)?.[1]);
  if (!tps || !transactions) throw new Error(`unexpected pgbench output: ${stdout}`);
  const busy = cpuAfter.busy - cpuBefore.busy;
  return {
    clients,
    seconds,
    tps,
    cpuMsPerTransaction: busy / transactions,
    walBytesPerTransaction: (after.wal - before.wal) / transactions,
    machineBusy: busy / (cpuAfter.total - cpuBefore.total),
  };
}

/** What one judgment costs Postgres, and the ceilings that sets, as a table of measured facts. */
export function postgresTable(
  w: WriteCost,
  c: Capacity | null,
  cores: number,
  cpuMsPerEvent: number,
): string {
  const per = (value: number) => (value / w.events).toFixed(2);
  const sum = (key: 'inserted' | 'updated') => w.tables.reduce((total, t) => total + t[key], 0);
  const writes = w.writeTransactions / w.events;
  const byCpu = (cores * 1000) / cpuMsPerEvent;
  // Tables written for every event, not the few rows of the set-up (a key's last use, say).
  const tables = w.tables
    .filter((t) => t.inserted + t.updated + t.deleted >= w.events / 10)
    .map((t) => {
      const parts = [`${per(t.inserted)} inserted`, `${per(t.updated)} updated (${per(t.hot)} HOT)`];
      return `\`${t.table}\` ${parts.filter((part) => !part.startsWith('0.00')).join(', ')}`;
    });
  const rows = [
    ['Events measured (warm-ups included)', String(w.events)],
    ['Write transactions an event (transaction ids, whole server)', `**${writes.toFixed(2)}**`],
    ['Commits an event in the scratch database (reads included)', per(w.commits)],
    [
      'Rows an event',
      `**${per(sum('inserted'))} inserted, ${per(sum('updated'))} updated** (${tables.join('; ')})`,
    ],
    ['WAL an event (whole server)', `**${(w.walBytes / w.events / 1024).toFixed(1)} kB**`],
    ['Commits in other databases meanwhile', String(w.otherCommits)],
    [
      "Postgres backends' CPU an event",
      `${cpuMsPerEvent.toFixed(2)} ms: **${byCpu.toFixed(0)} events/s** on ${cores} cores`,
    ],
  ];
  if (c)
    rows.push(
      [
        `pgbench simple-update (${c.clients} clients, ${c.seconds} s)`,
        `**${c.tps.toFixed(0)} write transactions/s**, ${c.cpuMsPerTransaction.toFixed(2)} ms of machine CPU and ` +
          `${(c.walBytesPerTransaction / 1024).toFixed(2)} kB of WAL each, machine ${(c.machineBusy * 100).toFixed(0)}% busy`,
      ],
      ['Events/s at that commit rate', `**${(c.tps / writes).toFixed(0)}**`],
      [
        'Ceiling of one Postgres (the lower of the two)',
        `**${Math.min(c.tps / writes, byCpu).toFixed(0)} judgments/s**`,
      ],
    );
  return table(['Postgres', 'Measured'], rows);
}
