import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { summarizeCpuProfile, type ProfileLine } from './cpu-profile.js';
import type { Machine } from './report.js';

export function loadAverage(): string {
  return os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');
}

export function describeMachine(postgres: string): Machine {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    cpus: os.availableParallelism(),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown CPU',
    node: process.version,
    postgres,
    loadAverage: loadAverage(),
  };
}

/** Busy and total CPU time of the whole machine so far, in ms summed over every CPU (/proc/stat). */
export function machineCpuMs(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal, in jiffies of 10 ms; idle and iowait are not busy.
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0) * 10;
  return { busy: total - (fields[3] + fields[4]) * 10, total };
}

/** This process's own CPU time so far, in ms. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Redis's own CPU time so far (INFO cpu), in ms: it runs every BullMQ script of the run. */
export async function redisCpuMs(redisUrl: string): Promise<number> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const info = await redis.info('cpu');
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
    return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
  } finally {
    redis.disconnect();
  }
}

export interface PostgresActivity {
  /** Average number of the database's backends in each state over the samples, largest first. */
  byState: Array<[string, number]>;
  /** Average number of backends waiting for a heavyweight lock (a row, a transaction id). */
  lockWaiting: number;
  /** The statement most often seen waiting for a lock (`INSERT INTO evaluations`), if any. */
  lockStatement: string | null;
  /** Average number of backends inside a transaction, waiting for their client's next command. */
  idleInTransaction: number;
  /** Backends not idle (busy, waiting or inside a transaction) in each sample, ascending. */
  notIdle: number[];
  /** How long the sampling ran, in ms. */
  elapsedMs: number;
}

/**
 * Samples what the scratch database's backends are doing (pg_stat_activity) while a run goes on:
 * on CPU, idle in the pool, idle in a transaction, or waiting (a row lock, the WAL flush, ...).
 * One small query every interval, on a connection of its own.
 */
export class PostgresActivitySampler {
  private readonly counts = new Map<string, number>();
  private samples = 0;
  private readonly notIdle: number[] = [];
  private readonly lockStatements = new Map<string, number>();
  private running = true;
  private readonly startedAt = performance.now();
  private loop: Promise<void> = Promise.resolve();

  private constructor(
    private readonly client: pg.Client,
    private readonly database: string,
  ) {}

  static async start(
    serverUrl: string,
    database: string,
    intervalMs: number,
  ): Promise<PostgresActivitySampler> {
    const admin = new URL(serverUrl);
    admin.pathname = '/postgres';
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    const sampler = new PostgresActivitySampler(client, database);
    sampler.loop = sampler.run(intervalMs).catch((error: unknown) => {
      process.stderr.write(`[bench] Postgres sampling stopped: ${String(error)}\n`);
    });
    return sampler;
  }

  private async run(intervalMs: number): Promise<void> {
    while (this.running) {
      const { rows } = await this.client.query<{
        state: string | null;
        wait: string | null;
        query: string;
      }>(
        `SELECT state, wait_event_type || ':' || wait_event AS wait, left(query, 80) AS query
           FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'`,
        [this.database],
      );
      this.samples++;
      this.notIdle.push(rows.filter((row) => row.state !== 'idle').length);
      for (const row of rows) {
        // A lock wait is named by the statement that waits: which hot row it queues for.
        const statement = /^\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT)\s+("?\w+"?)/i.exec(row.query);
        const waitingIn = row.wait?.startsWith('Lock:') && statement ? `${statement[1]} ${statement[2]}` : '';
        if (waitingIn) this.lockStatements.set(waitingIn, (this.lockStatements.get(waitingIn) ?? 0) + 1);
        const waiting = waitingIn ? ` (${waitingIn})` : '';
        const key =
          row.state === 'active'
            ? `active, ${row.wait ?? 'on CPU'}${waiting}`
            : `${row.state}${row.wait && row.state !== 'idle' ? `, ${row.wait}` : ''}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }

  async stop(): Promise<PostgresActivity> {
    this.running = false;
    await this.loop;
    const elapsedMs = performance.now() - this.startedAt;
    await this.client.end().catch(() => undefined);
    const byState = [...this.counts]
      .map(([key, count]): [string, number] => [key, count / Math.max(1, this.samples)])
      .sort((a, b) => b[1] - a[1]);
    const sum = (match: (key: string) => boolean) =>
      byState.filter(([key]) => match(key)).reduce((total, [, value]) => total + value, 0);
    return {
      byState,
      lockWaiting: sum((key) => key.startsWith('active, Lock:')),
      lockStatement: [...this.lockStatements].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
      idleInTransaction: sum((key) => key.startsWith('idle in transaction')),
      notIdle: [...this.notIdle].sort((a, b) => a - b),
      elapsedMs,
    };
  }
}

/** Where the workers' CPU went (BENCH_PROFILE=1): every profile of the directory, one after another. */
export function printWorkerProfiles(directory: string, top = 20): void {
  const lines = (title: string, entries: ProfileLine[]) => [
    title,
    ...entries.map(
      (e) => `  ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.ms.toFixed(0).padStart(7)} ms  ${e.name}`,
    ),
  ];
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))) {
    const summary = summarizeCpuProfile(path.join(directory, file), top);
    console.log(
      [
        '',
        `Worker CPU profile ${path.join(directory, file)}: ${summary.busyMs.toFixed(0)} ms busy ` +
          `(plus ${summary.startupMs.toFixed(0)} ms loading modules at boot, left out)`,
        ...lines('Inclusive time by package or app folder (on the stack):', summary.inclusiveByArea),
        ...lines('Self time by package or app folder:', summary.selfByArea),
        ...lines('Self time by function:', summary.selfByFunction),
      ].join('\n'),
    );
  }
}
