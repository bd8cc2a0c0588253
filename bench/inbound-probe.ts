import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import { processCpuMs } from './cpu-usage.js';
import type { CpuWindow, Verification } from './inbound-report.js';
import type { ReceiverStats } from './serve-receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Clock ticks per second of /proc/stat; 100 on every mainstream Linux build. */
const TICKS_PER_SECOND = 100;

/** Busy and total CPU time of the whole machine so far (/proc/stat, in clock ticks over every CPU). */
function machineTicks(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((sum, value) => sum + value, 0);
  // Fields 4 and 5 are idle and iowait.
  return { busy: total - fields[3] - (fields[4] ?? 0), total };
}

/** The processes whose CPU a measured window accounts for. */
export interface Watched {
  server: number;
  serverPostgres: number[];
  /** The worker process and its Postgres backends; empty when none runs. */
  worker: number[];
}

/** CPU ms so far of each process of a group, by pid. */
type GroupCpu = Map<number, number>;

const groupCpu = (pids: number[]): GroupCpu => new Map(pids.map((pid) => [pid, processCpuMs(pid)]));

/**
 * CPU a group spent between two snapshots: a process that appeared meanwhile (a pool opening a
 * connection) counts in full; one that is gone by the end (closed as idle) is left out.
 */
function groupDelta(before: GroupCpu, after: GroupCpu): number {
  let sum = 0;
  for (const [pid, ms] of after) if (ms > 0) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

export interface Snapshot {
  at: number;
  server: number;
  serverPostgres: GroupCpu;
  worker: GroupCpu;
  redis: number;
  loadGenerator: NodeJS.CpuUsage;
  machine: { busy: number; total: number };
}

export function cpuBetween(before: Snapshot, after: Snapshot): CpuWindow {
  const { user, system } = process.cpuUsage(before.loadGenerator);
  return {
    wallMs: after.at - before.at,
    server: after.server - before.server,
    serverPostgres: groupDelta(before.serverPostgres, after.serverPostgres),
    worker: groupDelta(before.worker, after.worker),
    redis: after.redis - before.redis,
    loadGenerator: (user + system) / 1000,
    machineBusy:
      (after.machine.busy - before.machine.busy) / Math.max(1, after.machine.total - before.machine.total),
    machineBusyMs: ((after.machine.busy - before.machine.busy) * 1000) / TICKS_PER_SECOND,
  };
}

/**
 * What the state of one process's Postgres backends looked like on average: how many were running,
 * waiting on a lock, idle in a transaction, and so on, from `pg_stat_activity` every 100 ms.
 */
export class ActivitySampler {
  private samples = 0;
  private readonly counts = new Map<string, number>();
  private running?: Promise<void>;
  private stopped = false;

  constructor(
    private readonly db: pg.Client,
    private readonly databaseName: string,
    private readonly applicationName: string,
  ) {}

  start(): this {
    this.running = this.loop();
    return this;
  }

  /** Average number of backends in each state, busiest first; `idle` left out. */
  async stop(): Promise<Array<{ state: string; backends: number }>> {
    this.stopped = true;
    await this.running;
    return [...this.counts]
      .filter(([state]) => state !== 'idle')
      .map(([state, count]) => ({ state, backends: count / Math.max(1, this.samples) }))
      .sort((a, b) => b.backends - a.backends);
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const { rows } = await this.db.query<{ state: string; n: string }>(
        // A lock wait also names the statement waiting (its first words), to say what is contended.
        `SELECT CASE WHEN state <> 'active' THEN coalesce(state, 'unknown')
                     WHEN wait_event_type = 'Lock'
                       THEN 'Lock:' || wait_event || ' (' || left(regexp_replace(query, '\\s+', ' ', 'g'), 24) || '…)'
                     ELSE coalesce(wait_event_type || ':' || wait_event, 'running') END AS state, count(*) AS n
           FROM pg_stat_activity WHERE datname = $1 AND application_name = $2 GROUP BY 1`,
        [this.databaseName, this.applicationName],
      );
      this.samples++;
      for (const row of rows) this.counts.set(row.state, (this.counts.get(row.state) ?? 0) + Number(row.n));
      await sleep(100);
    }
  }
}

/** Everything the measurements read while the run goes: CPU, Postgres, Redis and the receiver. */
export class Probe {
  constructor(
    private readonly db: pg.Client,
    private readonly redis: Redis,
    private readonly databaseName: string,
    private readonly receiverUrl: string,
  ) {}

  async postgresPids(applicationName: string): Promise<number[]> {
    const { rows } = await this.db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
      [this.databaseName, applicationName],
    );
    return rows.map((row) => row.pid);
  }

  sampler(applicationName: string): ActivitySampler {
    return new ActivitySampler(this.db, this.databaseName, applicationName);
  }

  async snapshot(watched: Watched): Promise<Snapshot> {
    return {
      at: performance.now(),
      server: processCpuMs(watched.server),
      serverPostgres: groupCpu(watched.serverPostgres),
      worker: groupCpu(watched.worker),
      redis: await this.redisCpuMs(),
      loadGenerator: process.cpuUsage(),
      machine: machineTicks(),
    };
  }

  /** Redis's own CPU time so far (INFO cpu), in ms: every rate-limit and BullMQ script of the run. */
  async redisCpuMs(): Promise<number> {
    const info = await this.redis.info('cpu');
    const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
    return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
  }

  async receiver(): Promise<ReceiverStats> {
    const response = await fetch(`${this.receiverUrl}/stats`);
    return (await response.json()) as ReceiverStats;
  }

  /** Epoch ms at which each new event's first completion arrived, in arrival order. */
  async arrivals(): Promise<number[]> {
    const response = await fetch(`${this.receiverUrl}/arrivals`);
    return (await response.json()) as number[];
  }

  /** Epoch ms of the latest evaluation the worker recorded (its clock, the same machine's). */
  async lastJudgedAt(): Promise<number | null> {
    const { rows } = await this.db.query<{ at: Date | null }>(
      'SELECT max(created_at) AS at FROM evaluations WHERE inbound_event_id IS NOT NULL',
    );
    return rows[0].at ? rows[0].at.getTime() : null;
  }

  /** Accepted events in Postgres, read until the count stops moving: requests cut off by a load's end still commit. */
  async settledEventCount(): Promise<number> {
    const count = async () =>
      Number((await this.db.query<{ n: string }>('SELECT count(*) AS n FROM inbound_events')).rows[0].n);
    let previous = await count();
    for (;;) {
      await sleep(250);
      const current = await count();
      if (current === previous) return current;
      previous = current;
    }
  }

  async verify(workerWarnings: number): Promise<Verification> {
    const receiver = await this.receiver();
    const { rows } = await this.db.query<Record<string, string>>(`
      SELECT (SELECT count(*) FROM inbound_events) AS events,
             (SELECT count(*) FROM inbound_events e
               WHERE (SELECT count(*) FROM evaluations v WHERE v.inbound_event_id = e.id) <> 1) AS not_once,
             (SELECT count(*) FROM webhook_deliveries WHERE status = 'succeeded') AS succeeded,
             (SELECT count(*) FROM webhook_deliveries WHERE attempts > 1) AS retried,
             (SELECT count(*) FROM evaluations WHERE inbound_event_id IS NOT NULL
                 AND result->'reviewReasons' ?| array['gateway_auth', 'gateway_unavailable', 'invalid_model_output']
             ) AS gateway_failures`);
    const row = rows[0];
    return {
      events: Number(row.events),
      completions: receiver.events,
      duplicates: receiver.duplicates,
      badSignatures: receiver.badSignatures,
      eventsNotJudgedOnce: Number(row.not_once),
      deliveriesSucceeded: Number(row.succeeded),
      deliveriesRetried: Number(row.retried),
      gatewayFailures: Number(row.gateway_failures),
      workerWarnings,
    };
  }
}
