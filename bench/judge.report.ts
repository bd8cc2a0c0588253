import { median, type LoadResult } from './harness/load.js';
import { growthTable, growthVerdict, type GrowthResults } from './harness/growth.js';
import { fixed, runHeading, table, type Results } from './harness/report.js';

export const TARGET = { connections: 32, overheadP50Ms: 5, overheadP99Ms: 25 };

export interface Run {
  round: number;
  connections: number;
  /**
   * The gateway alone, the bare floor route (same gateway call and insert, nothing else), the API,
   * the API on a pack with the audit on and calibrated decisions (`audited`), and a second API
   * process with tracing on (`traced`, same pack as `judge`).
   */
  target: 'gateway' | 'bare' | 'judge' | 'audited' | 'traced';
  result: LoadResult;
  /** CPU time per response of the measured server (API, or gateway alone) and of its Postgres backends. */
  cpuMsPerResponse: { server: number; postgres: number };
  /** Resident memory of the measured server at the end of the window (results JSON only). */
  serverRssMb: number;
}

/** A judge route measured beside the plain one, in the same rounds. */
export interface Variant {
  rps: number;
  p50: number;
  p99: number;
  apiCpuMs: number;
  postgresCpuMs: number;
}

export interface SettingSummary {
  connections: number;
  judge: {
    rps: number;
    p50: number;
    p99: number;
    p99Min: number;
    p99Max: number;
    apiCpuMs: number;
    postgresCpuMs: number;
  };
  gateway: { rps: number; p50: number; p99: number };
  bare: { rps: number; p50: number; p99: number; cpuMs: number; postgresCpuMs: number };
  /** The same judge route on a pack with the audit draw (`uncertainty`) and `review.useCalibrated` maps; absent in older results. */
  audited?: Variant;
  /** The same judge route on an API with tracing on; absent in older results and with `BENCH_TRACED=0`. */
  traced?: Variant;
  overheadP50: number;
  overheadP99: number;
  /** The floor: what the bare route adds above the gateway alone. */
  bareOverheadP50: number;
  bareOverheadP99: number;
  non2xx: number;
  errors: number;
  /** Only for the target's connection count. */
  meetsTarget?: boolean;
}

export interface JudgeSettings {
  gatewayDelayMs: number;
  warmup: number;
  duration: number;
  runs: number;
  connections: number[];
  traced: boolean;
  growth: boolean;
  growthConnections: number;
}

export interface JudgeResults extends Results<JudgeSettings> {
  summaries: SettingSummary[];
  /** What the traced API exported to the collector over the whole run (warm-ups included). */
  collector?: { exports: number; bytes: number };
  runs: Run[];
  /** Absent in older results and with `BENCH_GROWTH=0`. */
  growth?: GrowthResults;
}

/** Medians over the rounds of one connection count; overhead is the difference of the medians. */
export function summarize(runs: Run[], connections: number): SettingSummary {
  const runsOf = (target: Run['target']) =>
    runs.filter((run) => run.connections === connections && run.target === target);
  /** One target's medians over the rounds: throughput, latencies and CPU per response. */
  const medians = (target: Run['target']) => {
    const targetRuns = runsOf(target);
    const of = (pick: (run: Run) => number) => median(targetRuns.map(pick));
    return {
      results: targetRuns.map((run) => run.result),
      rps: of((run) => run.result.rps),
      p50: of((run) => run.result.p50),
      p99: of((run) => run.result.p99),
      serverCpuMs: of((run) => run.cpuMsPerResponse.server),
      postgresCpuMs: of((run) => run.cpuMsPerResponse.postgres),
    };
  };
  const judge = medians('judge');
  const gateway = medians('gateway');
  const bare = medians('bare');
  const variant = (target: 'audited' | 'traced') => {
    const measured = medians(target);
    if (!measured.results.length) return {};
    return {
      [target]: {
        rps: measured.rps,
        p50: measured.p50,
        p99: measured.p99,
        apiCpuMs: measured.serverCpuMs,
        postgresCpuMs: measured.postgresCpuMs,
      },
    };
  };
  const all = runs.filter((run) => run.connections === connections).map((run) => run.result);
  const summary: SettingSummary = {
    connections,
    judge: {
      rps: judge.rps,
      p50: judge.p50,
      p99: judge.p99,
      p99Min: Math.min(...judge.results.map((r) => r.p99)),
      p99Max: Math.max(...judge.results.map((r) => r.p99)),
      apiCpuMs: judge.serverCpuMs,
      postgresCpuMs: judge.postgresCpuMs,
    },
    gateway: { rps: gateway.rps, p50: gateway.p50, p99: gateway.p99 },
    bare: {
      rps: bare.rps,
      p50: bare.p50,
      p99: bare.p99,
      cpuMs: bare.serverCpuMs,
      postgresCpuMs: bare.postgresCpuMs,
    },
    ...variant('audited'),
    ...variant('traced'),
    overheadP50: 0,
    overheadP99: 0,
    bareOverheadP50: 0,
    bareOverheadP99: 0,
    non2xx: all.reduce((sum, r) => sum + r.non2xx, 0),
    errors: all.reduce((sum, r) => sum + r.errors, 0),
  };
  summary.overheadP50 = summary.judge.p50 - summary.gateway.p50;
  summary.overheadP99 = summary.judge.p99 - summary.gateway.p99;
  summary.bareOverheadP50 = summary.bare.p50 - summary.gateway.p50;
  summary.bareOverheadP99 = summary.bare.p99 - summary.gateway.p99;
  if (connections === TARGET.connections) {
    summary.meetsTarget =
      summary.overheadP50 < TARGET.overheadP50Ms && summary.overheadP99 < TARGET.overheadP99Ms;
  }
  return summary;
}

const ms = fixed(1);
const verdict = (s: SettingSummary) =>
  s.meetsTarget === undefined ? '-' : s.meetsTarget ? 'met' : 'NOT met';

export function resultsTable(summaries: SettingSummary[]): string {
  return table(
    [
      'Connections',
      'Judge rps',
      'rps / gateway alone',
      'Judge p50',
      'Judge p99 (range)',
      'Gateway p50',
      'Gateway p99',
      'Overhead p50',
      'Overhead p99',
      'API CPU / req',
      'Postgres CPU / req',
      'Bare rps',
      'Bare overhead p50',
      'Bare overhead p99',
      'Bare CPU / req (+ Postgres)',
      'Non-2xx / errors',
      'Target',
    ],
    summaries.map((s) => [
      String(s.connections),
      s.judge.rps.toFixed(0),
      (s.judge.rps / s.gateway.rps).toFixed(2),
      ms(s.judge.p50),
      `${ms(s.judge.p99)} (${ms(s.judge.p99Min)}-${ms(s.judge.p99Max)})`,
      ms(s.gateway.p50),
      ms(s.gateway.p99),
      ms(s.overheadP50),
      ms(s.overheadP99),
      ms(s.judge.apiCpuMs),
      ms(s.judge.postgresCpuMs),
      s.bare.rps.toFixed(0),
      ms(s.bareOverheadP50),
      ms(s.bareOverheadP99),
      `${ms(s.bare.cpuMs)} (+ ${ms(s.bare.postgresCpuMs)})`,
      `${s.non2xx} / ${s.errors}`,
      verdict(s),
    ]),
  );
}

/**
 * What a variant adds to the judge route (the audit draw and calibrated decisions of issue 23, or
 * tracing), beside the plain route measured in the same rounds.
 */
export function variantTable(summaries: SettingSummary[], key: 'audited' | 'traced', name: string): string {
  const rows = summaries.filter((s) => s[key]);
  if (!rows.length) return '';
  return table(
    [
      'Connections',
      'Judge p50 / p99',
      `${name} judge p50 / p99`,
      'Difference p50 / p99',
      'Judge rps',
      `${name} rps`,
      `API CPU / req, judge / ${name.toLowerCase()}`,
      `Postgres CPU / req, judge / ${name.toLowerCase()}`,
    ],
    rows.map((s) => {
      const v = s[key]!;
      return [
        String(s.connections),
        `${ms(s.judge.p50)} / ${ms(s.judge.p99)}`,
        `${ms(v.p50)} / ${ms(v.p99)}`,
        `${ms(v.p50 - s.judge.p50)} / ${ms(v.p99 - s.judge.p99)}`,
        s.judge.rps.toFixed(0),
        v.rps.toFixed(0),
        `${fixed(2)(s.judge.apiCpuMs)} / ${fixed(2)(v.apiCpuMs)}`,
        `${fixed(2)(s.judge.postgresCpuMs)} / ${fixed(2)(v.postgresCpuMs)}`,
      ];
    }),
  );
}

export function runsTable(runs: Run[]): string {
  return table(
    [
      'Round',
      'Connections',
      'Target',
      'rps',
      'p50',
      'p99',
      'Server CPU / req',
      'Postgres CPU / req',
      'Responses',
      'Non-2xx',
      'Errors',
    ],
    runs.map(({ round, connections, target, result, cpuMsPerResponse }) => [
      String(round),
      String(connections),
      target,
      result.rps.toFixed(0),
      ms(result.p50),
      ms(result.p99),
      ms(cpuMsPerResponse.server),
      ms(cpuMsPerResponse.postgres),
      String(result.responses),
      String(result.non2xx),
      String(result.errors),
    ]),
  );
}

/** A variant's introduction and table, when the run measured it. */
function variantSection(r: JudgeResults, key: 'audited' | 'traced', name: string, intro: string): string[] {
  return r.summaries.some((summary) => summary[key])
    ? ['', intro, '', variantTable(r.summaries, key, name)]
    : [];
}

/** The generated part of the section: settings, results, the verdict and every run. */
export function render(r: JudgeResults): string {
  const s = r.settings;
  const target = r.summaries.find((summary) => summary.meetsTarget !== undefined);
  return [
    runHeading(
      r,
      `gateway delay ${s.gatewayDelayMs} ms, warm-up ${s.warmup} s, ${s.duration} s measured, ${s.runs} rounds; ` +
        'medians over the rounds, latencies in ms',
    ),
    '',
    resultsTable(r.summaries),
    '',
    target
      ? `Target at ${TARGET.connections} connections (overhead p50 < ${TARGET.overheadP50Ms} ms and p99 < ${TARGET.overheadP99Ms} ms): **${verdict(target)}**.`
      : `The target's ${TARGET.connections} connections were not measured in this run.`,
    ...variantSection(
      r,
      'audited',
      'Audited',
      'The same route on a pack with the audit on (rate 0.05, `uncertainty`) and every question deciding on its calibrated probability (`review.useCalibrated`, maps fitted), in the same rounds:',
    ),
    ...variantSection(
      r,
      'traced',
      'Traced',
      'The same route on a second API process with tracing on (`OTEL_EXPORTER_OTLP_ENDPOINT` set to a local collector that answers every export 200; every judgment traced), in the same rounds; `judge` is the API with it unset, as by default:',
    ),
    ...(r.collector
      ? [
          '',
          `The collector received ${r.collector.exports} exports, ${(r.collector.bytes / 1e6).toFixed(1)} MB in all (warm-ups included).`,
        ]
      : []),
    ...(r.growth
      ? [
          '',
          `Cost growth (issue 26): the plain API on larger inputs at ${r.settings.growthConnections} connections, after the rounds above, medians over ${r.settings.runs} rounds; the fake gateway answers every question of the schema after the same delay:`,
          '',
          growthTable(r.growth, 'judgment'),
          '',
          growthVerdict(r.growth),
        ]
      : []),
    '',
    'Every run, in the order they ran:',
    '',
    runsTable(r.runs),
  ].join('\n');
}
