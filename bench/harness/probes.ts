import { readFileSync } from 'node:fs';
import os from 'node:os';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { sleep } from './log.js';

/** Clock ticks per second of /proc; 100 on every mainstream Linux build. */
const MS_PER_TICK = 10;

/** User + system CPU time of a process so far, in ms; 0 when it is gone or /proc is unavailable. */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces, so count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return 0;
  }
}

/** Resident memory of a process now, in MB (`VmRSS`); 0 when it is gone. */
export function processRssMb(pid: number): number {
  try {
    const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return rss ? Number(rss[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** The most resident memory a process has had since it started, in MB (`VmHWM`); 0 when it is gone. */
export function processPeakRssMb(pid: number): number {
  try {
    const peak = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return peak ? Number(peak[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export const totalCpuMs = (pids: number[]) => pids.reduce((sum, pid) => sum + processCpuMs(pid), 0);

/** This process's own CPU time so far (autocannon and the orchestration), in ms. */
export function ownCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Busy and total CPU time of the whole machine so far, in ms summed over every CPU (/proc/stat). */
export function machineCpuMs(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal; idle and iowait are not busy.
  const total = fields.slice(0, 8).reduce((sum, value) => sum + value, 0) * MS_PER_TICK;
  return { busy: total - (fields[3] + fields[4]) * MS_PER_TICK, total };
}

/** Redis's own CPU time so far (INFO cpu), in ms: every rate-limit and BullMQ script of the run. */
export async function redisCpuMs(redis: Redis): Promise<number> {
  const info = await redis.info('cpu');
  const field = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1] ?? 0);
  return (field('used_cpu_user') + field('used_cpu_sys')) * 1000;
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' / ');

export interface Machine {
  cpus: number;
  cpuModel: string;
  node: string;
  postgres: string;
  loadAverage: string;
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

/** CPU ms so far of each process of a group, by pid: Postgres backends come and go. */
type GroupCpu = Map<number, number>;
const groupCpu = (pids: number[]): GroupCpu => new Map(pids.map((pid) => [pid, processCpuMs(pid)]));

/** A process that appeared meanwhile (a pool opening a connection) counts in full; one gone by the end is left out. */
function groupDelta(before: GroupCpu, after: GroupCpu): number {
  let sum = 0;
  for (const [pid, ms] of after) if (ms > 0) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

/** The processes whose CPU a measured window accounts for, by role. */
export type Watched = Record<string, number[]>;

export interface Snapshot {
  at: number;
  groups: Map<string, GroupCpu>;
  /** Resident memory of each group, in MB. */
  rssMb: Record<string, number>;
  redis: number;
  own: number;
  machine: { busy: number; total: number };
}

/** CPU ms of each watched group, Redis and the benchmark over a window, and the machine's busy share. */
export interface CpuWindow {
  wallMs: number;
  groups: Record<string, number>;
  /** Resident memory of each group at the end of the window, in MB (kept in the results JSON). */
  rssMb: Record<string, number>;
  redis: number;
  /** The benchmark process: autocannon and the orchestration. */
  own: number;
  /** Busy share of every CPU of the machine, other work included. */
  machineBusy: number;
  machineBusyMs: number;
  /** Every CPU's time over the window, busy or not. */
  machineTotalMs: number;
}

export function cpuBetween(before: Snapshot, after: Snapshot): CpuWindow {
  const groups: Record<string, number> = {};
  for (const [name, cpu] of after.groups)
    groups[name] = groupDelta(before.groups.get(name) ?? new Map<number, number>(), cpu);
  const busy = after.machine.busy - before.machine.busy;
  const total = Math.max(1, after.machine.total - before.machine.total);
  return {
    wallMs: after.at - before.at,
    groups,
    rssMb: after.rssMb,
    redis: after.redis - before.redis,
    own: after.own - before.own,
    machineBusy: busy / total,
    machineBusyMs: busy,
    machineTotalMs: total,
  };
}

/**
 * Cores busy with anything but the measured processes (idle servers, Postgres's own processes, other
 * work on the machine): noise, when large.
 */
export function otherCores(c: CpuWindow): number {
  return (c.machineBusyMs - measuredCpuMs(c)) / c.wallMs;
}

/** CPU of every watched process, Redis and the benchmark itself over the window. */
export const measuredCpuMs = (c: CpuWindow) =>
  Object.values(c.groups).reduce((sum, ms) => sum + ms, c.redis + c.own);

/** What a run reads while it goes: CPU of processes and Postgres backends, Redis and the machine. */
export class Probe {
  /** `stats` is on the maintenance database, so reading adds nothing to the scratch one. */
  constructor(
    readonly stats: pg.Client,
    private readonly redis: Redis,
    readonly databaseName: string,
  ) {}

  /** Backends of the scratch database, of one application name (one process's pool) or all. */
  async postgresPids(applicationName?: string): Promise<number[]> {
    const { rows } = await this.stats.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = $1 AND ($2::text IS NULL OR application_name = $2) AND backend_type = 'client backend'`,
      [this.databaseName, applicationName ?? null],
    );
    return rows.map((row) => row.pid);
  }

  async snapshot(watched: Watched): Promise<Snapshot> {
    return {
      at: performance.now(),
      groups: new Map(Object.entries(watched).map(([name, pids]) => [name, groupCpu(pids)])),
      rssMb: Object.fromEntries(
        Object.entries(watched).map(([name, pids]) => [
          name,
          pids.reduce((sum, pid) => sum + processRssMb(pid), 0),
        ]),
      ),
      redis: await redisCpuMs(this.redis),
      own: ownCpuMs(),
      machine: machineCpuMs(),
    };
  }

  sampler(everyMs: number, applicationName?: string): ActivitySampler {
    return new ActivitySampler(this.stats, this.databaseName, everyMs, applicationName);
  }
}

export interface PostgresActivity {
  /** Average number of backends in each state, busiest first, `idle` left out. */
  states: Array<{ state: string; backends: number }>;
  /** Average number of backends waiting for a heavyweight lock (a row, a transaction id). */
  lockWaiting: number;
  /** The statement most often seen waiting for a lock (`INSERT INTO evaluations`), if any. */
  lockStatement: string | null;
  idleInTransaction: number;
  /** Backends not idle in each sample, ascending. */
  notIdle: number[];
  elapsedMs: number;
}

/**
 * What the scratch database's backends (or one process's) are doing, from `pg_stat_activity` every
 * `everyMs`: on CPU, idle in a transaction, or waiting, a lock wait named by the statement waiting.
 */
export class ActivitySampler {
  private samples = 0;
  private readonly counts = new Map<string, number>();
  private readonly lockStatements = new Map<string, number>();
  private readonly notIdle: number[] = [];
  private readonly startedAt = performance.now();
  private stopped = false;
  private readonly running: Promise<void>;

  constructor(
    private readonly db: pg.Client,
    private readonly databaseName: string,
    private readonly everyMs: number,
    private readonly applicationName?: string,
  ) {
    this.running = this.loop().catch((error: unknown) => {
      process.stderr.write(`[bench] Postgres sampling stopped: ${String(error)}\n`);
    });
  }

  private finished?: Promise<PostgresActivity>;

  /** Stops sampling; a second call gets the same figures. */
  stop(): Promise<PostgresActivity> {
    return (this.finished ??= this.finish());
  }

  private async finish(): Promise<PostgresActivity> {
    this.stopped = true;
    await this.running;
    const states = [...this.counts]
      .filter(([state]) => state !== 'idle')
      .map(([state, count]) => ({ state, backends: count / Math.max(1, this.samples) }))
      .sort((a, b) => b.backends - a.backends);
    const sum = (prefix: string) =>
      states.filter((s) => s.state.startsWith(prefix)).reduce((total, s) => total + s.backends, 0);
    return {
      states,
      lockWaiting: sum('Lock:'),
      lockStatement: [...this.lockStatements].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null,
      idleInTransaction: sum('idle in transaction'),
      notIdle: [...this.notIdle].sort((a, b) => a - b),
      elapsedMs: performance.now() - this.startedAt,
    };
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const { rows } = await this.db.query<{ state: string | null; wait: string | null; query: string }>(
        `SELECT state, wait_event_type || ':' || wait_event AS wait, left(query, 80) AS query
           FROM pg_stat_activity WHERE datname = $1 AND ($2::text IS NULL OR application_name = $2)
            AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
        [this.databaseName, this.applicationName ?? null],
      );
      this.samples++;
      this.notIdle.push(rows.filter((row) => row.state !== 'idle').length);
      for (const row of rows) {
        const statement = /^\s*(INSERT INTO|UPDATE|DELETE FROM|SELECT)\s+("?\w+"?)/i.exec(row.query);
        const waitingIn = row.wait?.startsWith('Lock:') && statement ? `${statement[1]} ${statement[2]}` : '';
        if (waitingIn) this.lockStatements.set(waitingIn, (this.lockStatements.get(waitingIn) ?? 0) + 1);
        const state =
          row.state !== 'active'
            ? (row.state ?? 'unknown')
            : row.wait
              ? `${row.wait}${waitingIn ? ` (${waitingIn})` : ''}`
              : 'running';
        this.counts.set(state, (this.counts.get(state) ?? 0) + 1);
      }
      await sleep(this.everyMs);
    }
  }
}

export const describeStates = (states: PostgresActivity['states'], top = 4) =>
  states
    .slice(0, top)
    .map((s) => `${s.state} ${s.backends.toFixed(1)}`)
    .join(', ') || 'none';
