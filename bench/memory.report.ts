// What bench:memory measures per configuration, and the section it writes to docs/performance.md.
import { median, type LoadResult } from './harness/load.js';
import { fixed, pct, runHeading, table, type Results } from './harness/report.js';

/** The parts of the mixed load, each on its own connections. */
export const STREAMS = ['judge', 'mcp', 'evaluations', 'stats', 'reviews'] as const;
export type Stream = (typeof STREAMS)[number];

const LABELS: Record<Stream, string> = {
  judge: 'POST /api/judge',
  mcp: 'judge_ticket over /mcp',
  evaluations: 'GET /api/evaluations',
  stats: 'GET /api/stats',
  reviews: 'GET /api/reviews',
};

/** One reading of the API process, in MB. */
export interface MemorySample {
  atS: number;
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  /** Memory outside the V8 heap that V8 knows of: `external` plus `arrayBuffers` (buffers, sockets). */
  externalMb: number;
  heapLimitMb: number;
}

export interface MemorySummary {
  rssMedianMb: number;
  rssPeakMb: number;
  /** `VmHWM`: the most the process ever had resident, boot and warm-up included, between samples too. */
  rssHighWaterMb: number;
  /** RSS after the load stopped and the process idled for the settle time. */
  rssAfterMb: number;
  heapUsedMedianMb: number;
  heapUsedPeakMb: number;
  heapTotalPeakMb: number;
  externalPeakMb: number;
  heapLimitMb: number;
  samples: number;
}

export interface Measured {
  round: number;
  /** `--max-old-space-size`, or null for none. */
  oldSpaceMb: number | null;
  /** `--max-semi-space-size` (64 in production; absent from results before it was varied). */
  semiSpaceMb?: number;
  flags: string[];
  streams: Record<Stream, LoadResult>;
  memory: MemorySummary;
  apiCpuMsPerRequest: number;
  machineBusy: number;
  loadAverageBefore: string;
  samples: MemorySample[];
}

export interface MemoryResults extends Results<Record<string, unknown>> {
  measured: Measured[];
}

export function summarizeMemory(
  samples: MemorySample[],
  highWaterMb: number,
  afterMb: number,
): MemorySummary {
  const max = (pick: (s: MemorySample) => number) => Math.max(0, ...samples.map(pick));
  return {
    rssMedianMb: median(samples.map((s) => s.rssMb)),
    rssPeakMb: max((s) => s.rssMb),
    rssHighWaterMb: highWaterMb,
    rssAfterMb: afterMb,
    heapUsedMedianMb: median(samples.map((s) => s.heapUsedMb)),
    heapUsedPeakMb: max((s) => s.heapUsedMb),
    heapTotalPeakMb: max((s) => s.heapTotalMb),
    externalPeakMb: max((s) => s.externalMb),
    heapLimitMb: samples[0]?.heapLimitMb ?? 0,
    samples: samples.length,
  };
}

const semiSpace = (m: Measured) => m.semiSpaceMb ?? 64;
const name = (m: Measured) =>
  (m.oldSpaceMb ? `\`--max-old-space-size=${m.oldSpaceMb}\`` : 'no bound') +
  `, \`--max-semi-space-size=${semiSpace(m)}\``;
const key = (m: Measured) => `${m.oldSpaceMb ?? 'none'}/${semiSpace(m)}`;
const totalRps = (m: Measured) => Object.values(m.streams).reduce((sum, s) => sum + s.rps, 0);
const zero = fixed(0);
const one = fixed(1);
const two = fixed(2);

/** Medians over the rounds of each configuration, in the order first run. */
function byConfiguration(measured: Measured[]): Measured[][] {
  const groups = new Map<string, Measured[]>();
  for (const m of measured) groups.set(key(m), [...(groups.get(key(m)) ?? []), m]);
  return [...groups.values()];
}

export function render(r: MemoryResults): string {
  const s = r.settings;
  const groups = byConfiguration(r.measured);
  const mid = (runs: Measured[], pick: (m: Measured) => number) => median(runs.map(pick));
  const baseline = groups.find((runs) => runs[0].oldSpaceMb === null) ?? groups[0];
  const ratio = (runs: Measured[], pick: (m: Measured) => number) =>
    two(mid(runs, pick) / mid(baseline, pick));
  const connections = `judge ${String(s.judgeConnections)}, MCP ${String(s.mcpConnections)}, each read route ${String(s.readConnections)}`;
  return [
    runHeading(
      r,
      `every configuration a fresh API process with the flags named (no bound on the old generation is the baseline), ` +
        `${String(s.warmup)} s of warm-up then ${String(s.duration)} s of mixed load measured, ${String(s.runs)} round(s); ` +
        `closed-loop connections: ${connections}; fake gateway ${String(s.gatewayDelayMs)} ms a call; ` +
        `RSS (\`/proc\`) and heap (\`process.memoryUsage()\`) read every ${String(s.sampleMs)} ms; MB are MiB; ` +
        'medians over the rounds',
    ),
    '',
    table(
      [
        'Configuration',
        'RSS median',
        'RSS peak (sampled)',
        'RSS high-water (`VmHWM`)',
        `RSS ${String(s.settle)} s after the load`,
        'Heap used median / peak',
        'Heap total peak',
        'External + buffers peak',
        'V8 heap limit',
        'Peak RSS / no bound',
      ],
      groups.map((runs) => [
        name(runs[0]),
        zero(mid(runs, (m) => m.memory.rssMedianMb)),
        zero(mid(runs, (m) => m.memory.rssPeakMb)),
        zero(mid(runs, (m) => m.memory.rssHighWaterMb)),
        zero(mid(runs, (m) => m.memory.rssAfterMb)),
        `${zero(mid(runs, (m) => m.memory.heapUsedMedianMb))} / ${zero(mid(runs, (m) => m.memory.heapUsedPeakMb))}`,
        zero(mid(runs, (m) => m.memory.heapTotalPeakMb)),
        zero(mid(runs, (m) => m.memory.externalPeakMb)),
        zero(mid(runs, (m) => m.memory.heapLimitMb)),
        ratio(runs, (m) => m.memory.rssHighWaterMb),
      ]),
    ),
    '',
    table(
      [
        'Configuration',
        'Requests/s, all',
        ...STREAMS.map((stream) => `${LABELS[stream]} req/s, p50 / p99 ms`),
        'API CPU / request ms',
        'Machine busy',
        'Requests/s / no bound',
        'Judge p99 / no bound',
        'Non-2xx / errors',
      ],
      groups.map((runs) => [
        name(runs[0]),
        zero(mid(runs, totalRps)),
        ...STREAMS.map(
          (stream) =>
            `${zero(mid(runs, (m) => m.streams[stream].rps))}, ` +
            `${one(mid(runs, (m) => m.streams[stream].p50))} / ${one(mid(runs, (m) => m.streams[stream].p99))}`,
        ),
        two(mid(runs, (m) => m.apiCpuMsPerRequest)),
        pct(mid(runs, (m) => m.machineBusy)),
        ratio(runs, totalRps),
        ratio(runs, (m) => m.streams.judge.p99),
        `${String(runs.reduce((n, m) => n + STREAMS.reduce((k, st) => k + m.streams[st].non2xx, 0), 0))} / ` +
          String(runs.reduce((n, m) => n + STREAMS.reduce((k, st) => k + m.streams[st].errors, 0), 0)),
      ]),
    ),
    '',
    'Every run, in the order they ran:',
    '',
    table(
      [
        'Round',
        'Configuration',
        'Load average before',
        'RSS median / peak / high-water',
        'Heap used peak',
        'Requests/s',
        'Judge p50 / p99',
      ],
      r.measured.map((m) => [
        String(m.round),
        name(m),
        m.loadAverageBefore,
        `${zero(m.memory.rssMedianMb)} / ${zero(m.memory.rssPeakMb)} / ${zero(m.memory.rssHighWaterMb)}`,
        zero(m.memory.heapUsedPeakMb),
        zero(totalRps(m)),
        `${one(m.streams.judge.p50)} / ${one(m.streams.judge.p99)}`,
      ]),
    ),
  ].join('\n');
}
