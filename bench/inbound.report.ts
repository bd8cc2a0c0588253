import { median, type LoadResult } from './harness/load.js';
import { describeStates, otherCores, type CpuWindow, type PostgresActivity } from './harness/probes.js';
import { fixed, pct, seconds, table } from './harness/report.js';

/** The inbound route must accept at least this share of the bare route's throughput. */
export const TARGET_RATIO = 0.5;

export type Target = 'bare' | 'inbound';
/**
 * `worker-off`: no worker process while measuring; `worker-on`: one worker draining meanwhile;
 * `shadow-on`: the same with a shadow run at sample rate 1 on the pack, so every event is judged
 * again on the shadow queue (docs/shadow-runs.md).
 */
export type Phase = 'worker-off' | 'worker-on' | 'shadow-on';

export const PHASE_LABEL: Record<Phase, string> = {
  'worker-off': 'worker stopped',
  'worker-on': 'worker running',
  'shadow-on': 'worker running, shadow run at rate 1',
};

/** With a shadow run at rate 1, the live accept and drain rates stay within this share of those without. */
export const SHADOW_TOLERANCE = 0.05;

/** What the shadow run had done when its phase's drain ended (then it is stopped). */
export interface ShadowProgress {
  sampled: number;
  judged: number;
  pending: number;
  /** Shadow judgments a second once the live queues were empty, over the next 20 s. */
  catchUpPerSecond: number;
}

/** Average number of a process's Postgres backends in each state (`running`, `Lock:tuple`, ...). */
export type BackendStates = PostgresActivity['states'];

export interface LoadRun {
  phase: Phase;
  round: number;
  target: Target;
  result: LoadResult;
  cpu: CpuWindow;
  /** The server's Postgres backends during the measured window. */
  postgres: BackendStates;
}

export interface Drain {
  phase: Phase;
  /** The shadow run of a `shadow-on` phase, when its live events had drained. */
  shadow?: ShadowProgress;
  /** Events in Postgres once the load ended (every accepted request, in flight ones included). */
  events: number;
  /** 202s autocannon saw, warm-ups and the set-up check included; requests in flight when a load stops are not seen. */
  seen202: number;
  backlogAtLoadEnd: number;
  /** Times from the end of the last inbound load (worker running) or from `worker ready` (worker started after). */
  drainedFrom: 'load end' | 'worker ready';
  workerBootMs?: number;
  /** Until the last evaluation was recorded. */
  judgedMs: number;
  /** Until the last completion arrived. */
  drainMs: number;
  /** Until the first completion arrived; with the worker running, from the start of the phase's inbound load. */
  firstCompletionMs: number | null;
  /** Completions that arrived while the phase's loads ran. */
  deliveredDuringLoad: number;
  /** Worker process and its Postgres backends, over the drain, per event drained. */
  workerCpuMsPerEvent: number;
  machineBusy: number;
  otherCores: number;
  /** The worker's Postgres backends during the drain. */
  workerPostgres: BackendStates;
}

export interface InboundSettings {
  phases: string[];
  connections: number;
  gatewayDelayMs: number;
  warmup: number;
  duration: number;
  runs: number;
  workerConcurrency: number;
  drainTimeout: number;
  growth: boolean;
  growthDuration: number;
}

export interface TargetSummary {
  rps: number;
  p50: number;
  p99: number;
  serverCpuMs: number;
  serverPostgresCpuMs: number;
  redisCpuMs: number;
  loadGeneratorCpuMs: number;
  workerCores: number;
  machineBusy: number;
  otherCores: number;
  /** Mean over the rounds of the server's backends in each state. */
  postgres: BackendStates;
  non2xx: number;
  errors: number;
}

export interface PhaseSummary {
  phase: Phase;
  inbound: TargetSummary;
  bare: TargetSummary;
  ratio: number;
  /** Inbound rps over bare rps of the same round, lowest and highest. */
  ratioMin: number;
  ratioMax: number;
  meets: boolean;
}

function meanStates(all: BackendStates[]): BackendStates {
  const sums = new Map<string, number>();
  for (const states of all) for (const s of states) sums.set(s.state, (sums.get(s.state) ?? 0) + s.backends);
  return [...sums]
    .map(([state, sum]) => ({ state, backends: sum / Math.max(1, all.length) }))
    .sort((a, b) => b.backends - a.backends);
}

function summarizeTarget(runs: LoadRun[]): TargetSummary {
  const med = (pick: (run: LoadRun) => number) => median(runs.map(pick));
  const perAccepted = (run: LoadRun, ms: number) => ms / Math.max(1, run.result.responses);
  return {
    rps: med((r) => r.result.rps),
    p50: med((r) => r.result.p50),
    p99: med((r) => r.result.p99),
    serverCpuMs: med((r) => perAccepted(r, r.cpu.groups.server)),
    serverPostgresCpuMs: med((r) => perAccepted(r, r.cpu.groups.serverPostgres)),
    redisCpuMs: med((r) => perAccepted(r, r.cpu.redis)),
    loadGeneratorCpuMs: med((r) => perAccepted(r, r.cpu.own)),
    workerCores: med((r) => r.cpu.groups.worker / r.cpu.wallMs),
    machineBusy: med((r) => r.cpu.machineBusy),
    otherCores: med((r) => otherCores(r.cpu)),
    postgres: meanStates(runs.map((r) => r.postgres)),
    non2xx: runs.reduce((sum, r) => sum + r.result.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.result.errors, 0),
  };
}

export function summarizePhase(runs: LoadRun[], phase: Phase): PhaseSummary {
  const of = (target: Target) => runs.filter((r) => r.phase === phase && r.target === target);
  const inbound = summarizeTarget(of('inbound'));
  const bare = summarizeTarget(of('bare'));
  const ratios = of('inbound').flatMap((run) => {
    const pair = of('bare').find((b) => b.round === run.round);
    return pair ? [run.result.rps / pair.result.rps] : [];
  });
  const ratio = inbound.rps / bare.rps;
  return {
    phase,
    inbound,
    bare,
    ratio,
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    meets: ratio >= TARGET_RATIO,
  };
}

const ms = fixed(1);
const cpu = fixed(2);

export function resultsTable(summaries: PhaseSummary[]): string {
  return table(
    [
      'Phase',
      'Inbound rps',
      'Inbound p50',
      'Inbound p99',
      'Bare rps',
      'Bare p50',
      'Bare p99',
      'Inbound / bare (rounds)',
      `>= ${TARGET_RATIO}`,
      'Non-2xx / errors',
    ],
    summaries.map((s) => [
      PHASE_LABEL[s.phase],
      s.inbound.rps.toFixed(0),
      ms(s.inbound.p50),
      ms(s.inbound.p99),
      s.bare.rps.toFixed(0),
      ms(s.bare.p50),
      ms(s.bare.p99),
      `**${s.ratio.toFixed(2)}** (${s.ratioMin.toFixed(2)}-${s.ratioMax.toFixed(2)})`,
      s.meets ? 'yes' : '**no**',
      `${s.inbound.non2xx + s.bare.non2xx} / ${s.inbound.errors + s.bare.errors}`,
    ]),
  );
}

export function cpuTable(summaries: PhaseSummary[]): string {
  return table(
    [
      'Phase',
      'Route',
      'Server CPU / 202',
      'its Postgres / 202',
      'Redis / 202',
      'autocannon / 202',
      'Worker (cores)',
      'Machine busy (other, cores)',
      "Server's Postgres backends (average of 10)",
    ],
    summaries.flatMap((s) =>
      (['inbound', 'bare'] as const).map((target) => {
        const t = s[target];
        return [
          PHASE_LABEL[s.phase],
          target,
          cpu(t.serverCpuMs),
          cpu(t.serverPostgresCpuMs),
          cpu(t.redisCpuMs),
          cpu(t.loadGeneratorCpuMs),
          cpu(t.workerCores),
          `${pct(t.machineBusy)} (${cpu(t.otherCores)})`,
          describeStates(t.postgres),
        ];
      }),
    ),
  );
}

export function drainTable(drains: Drain[]): string {
  const after = (value: number | null) => (value === null ? '-' : seconds(value));
  return table(
    [
      'Phase',
      'Events accepted (202s seen)',
      'Delivered during the load',
      'Backlog at load end',
      'Timed from',
      'First completion',
      'All judged',
      'Last completion',
      'Drain rate',
    ],
    drains.map((d) => [
      PHASE_LABEL[d.phase],
      `${d.events} (${d.seen202})`,
      String(d.deliveredDuringLoad),
      String(d.backlogAtLoadEnd),
      d.workerBootMs === undefined
        ? 'end of the last inbound load'
        : `worker ready (booted in ${seconds(d.workerBootMs)})`,
      d.workerBootMs === undefined
        ? `${after(d.firstCompletionMs)} after the phase's inbound load began`
        : after(d.firstCompletionMs),
      seconds(d.judgedMs),
      `**${seconds(d.drainMs)}**`,
      `${drainRate(d).toFixed(0)} events/s`,
    ]),
  );
}

export function drainCpuTable(drains: Drain[]): string {
  return table(
    [
      'Phase',
      'Worker CPU / event',
      'Machine busy (other, cores)',
      "Worker's Postgres backends (average of 10)",
    ],
    drains.map((d) => [
      PHASE_LABEL[d.phase],
      `${cpu(d.workerCpuMsPerEvent)} ms`,
      `${pct(d.machineBusy)} (${cpu(d.otherCores)})`,
      describeStates(d.workerPostgres),
    ]),
  );
}

export function runsTable(runs: LoadRun[]): string {
  return table(
    [
      'Phase',
      'Round',
      'Route',
      'rps',
      'p50',
      'p99',
      'Server CPU / 202',
      'its Postgres / 202',
      'Worker (cores)',
      'Machine busy (other, cores)',
      '202s',
      'Non-2xx',
      'Errors',
    ],
    runs.map(({ phase, round, target, result, cpu: c }) => [
      PHASE_LABEL[phase],
      String(round),
      target,
      result.rps.toFixed(0),
      ms(result.p50),
      ms(result.p99),
      cpu(c.groups.server / Math.max(1, result.responses)),
      cpu(c.groups.serverPostgres / Math.max(1, result.responses)),
      cpu(c.groups.worker / c.wallMs),
      `${pct(c.machineBusy)} (${cpu(otherCores(c))})`,
      String(result.statusCodes['202'] ?? 0),
      String(result.non2xx),
      String(result.errors),
    ]),
  );
}

/** Live events completed a second after the load ended: the backlog over the time to drain it. */
export function drainRate(drain: Drain): number {
  return (drain.backlogAtLoadEnd / Math.max(1, drain.drainMs)) * 1000;
}

export interface ShadowComparison {
  /** Inbound rps with the shadow run over inbound rps without (worker running both times). */
  acceptRatio: number;
  /** The same for the drain rate of live events. */
  drainRatio: number;
  meets: boolean;
  shadow: ShadowProgress;
}

/** The `shadow-on` phase against `worker-on`; null unless both ran. */
export function compareShadow(summaries: PhaseSummary[], drains: Drain[]): ShadowComparison | null {
  const without = summaries.find((s) => s.phase === 'worker-on');
  const withShadow = summaries.find((s) => s.phase === 'shadow-on');
  const drainWithout = drains.find((d) => d.phase === 'worker-on');
  const drainWith = drains.find((d) => d.phase === 'shadow-on');
  if (!without || !withShadow || !drainWithout || !drainWith?.shadow) return null;
  const acceptRatio = withShadow.inbound.rps / without.inbound.rps;
  const drainRatio = drainRate(drainWith) / drainRate(drainWithout);
  return {
    acceptRatio,
    drainRatio,
    meets: acceptRatio >= 1 - SHADOW_TOLERANCE && drainRatio >= 1 - SHADOW_TOLERANCE,
    shadow: drainWith.shadow,
  };
}
