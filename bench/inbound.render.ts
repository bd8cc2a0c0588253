import { verificationLine, type Verification } from './harness/completions.js';
import { growthTable, growthVerdict, type GrowthResults } from './harness/growth.js';
import { runHeading, type Results } from './harness/report.js';
import {
  compareShadow,
  cpuTable,
  drainCpuTable,
  drainTable,
  PHASE_LABEL,
  resultsTable,
  runsTable,
  SHADOW_TOLERANCE,
  TARGET_RATIO,
  type Drain,
  type InboundSettings,
  type LoadRun,
  type PhaseSummary,
} from './inbound.report.js';

export interface InboundResults extends Results<InboundSettings> {
  summaries: PhaseSummary[];
  drains: Drain[];
  runs: LoadRun[];
  verification: Verification;
  /** Absent in older results and with `BENCH_GROWTH=0`. */
  growth?: GrowthResults;
}

/** The target is read with the worker running when that phase ran. */
function verdictLine(summaries: PhaseSummary[]): string {
  const primary = summaries.find((s) => s.phase === 'worker-on') ?? summaries[0];
  return (
    `Target (inbound at least ${TARGET_RATIO} of the bare route's throughput, ${PHASE_LABEL[primary.phase]}): ` +
    `**${primary.meets ? 'met' : 'NOT met'}**, ${primary.inbound.rps.toFixed(0)} against ` +
    `${primary.bare.rps.toFixed(0)} requests a second (${primary.ratio.toFixed(2)}).`
  );
}

/** The shadow run's cost to live work, when both worker phases ran. */
function shadowLine(r: InboundResults): string[] {
  const c = compareShadow(r.summaries, r.drains);
  if (!c) return [];
  const within = `within ${SHADOW_TOLERANCE * 100}%`;
  return [
    `Shadow run at rate 1 (target: live accept and drain rates ${within} of the run without one): ` +
      `**${c.meets ? 'met' : 'NOT met'}**. Inbound accepted ${c.acceptRatio.toFixed(3)} of the requests a second ` +
      `and live events drained at ${c.drainRatio.toFixed(3)} of the rate without it. The shadow run had drawn ` +
      `${c.shadow.sampled} events, judged ${c.shadow.judged} and had ${c.shadow.pending} waiting when the live ` +
      'events had drained: shadow judgments wait while live work does (docs/shadow-runs.md). With the live ' +
      `queues empty it then judged ${c.shadow.catchUpPerSecond.toFixed(1)} a second for 20 s, and was stopped ` +
      '(its waiting judgments dropped).',
    '',
  ];
}

/** The generated part of the section: settings, the tables and what the end of the run checked. */
export function render(r: InboundResults): string {
  const s = r.settings;
  return [
    runHeading(
      r,
      `${s.connections} connections, warm-up ${s.warmup} s, ${s.duration} s measured, ${s.runs} rounds per phase, ` +
        `gateway delay ${s.gatewayDelayMs} ms, worker concurrency ${s.workerConcurrency}`,
    ),
    '',
    resultsTable(r.summaries),
    '',
    verdictLine(r.summaries),
    '',
    ...shadowLine(r),
    "Completions (events are counted over the whole run, so a phase's include the earlier ones; the backlog is the phase's own):",
    '',
    drainTable(r.drains),
    '',
    drainCpuTable(r.drains),
    '',
    'Where the CPU went (medians over the rounds; ms per 202 unless stated):',
    '',
    cpuTable(r.summaries),
    '',
    verificationLine(r.verification),
    '',
    ...(r.growth
      ? [
          `Cost growth (issue 26): with the worker running and nothing waiting, each input sent for ${s.growthDuration} s at ${s.connections} connections and drained to its last completion, CPU per event over both (API, worker, the two apps' Postgres backends, Redis), medians over ${s.runs} rounds:`,
          '',
          growthTable(r.growth, 'event'),
          '',
          growthVerdict(r.growth),
          '',
        ]
      : []),
    'Every run, in the order they ran:',
    '',
    runsTable(r.runs),
  ].join('\n');
}
