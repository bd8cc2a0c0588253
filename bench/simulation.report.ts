import { TICKET_JOBS_PER_MODEL_CALL } from '@app/simulations';
import { median } from './harness/load.js';
import { fixed, pct as percent, runHeading, table, type Results } from './harness/report.js';
import type { SimulationRun, SimulationSettings } from './simulation.measure.js';

/** Issue 26, goal 3: at most 1.10x the latency bound, warm (1.25x before it). */
export const SIMULATION_TARGET = { concurrency: 32, ratio: 1.1 };

type Numeric = {
  [K in keyof SimulationRun as SimulationRun[K] extends number ? K : never]: number;
};

export interface SimulationSummary {
  workers: number;
  perWorker: number;
  concurrency: number;
  boundMs: number;
  wallRuns: number[];
  seenRuns: number[];
  ratio: number;
  met: boolean;
  /** Each numeric field's median over the rounds. */
  m: Numeric;
  judgingMs: number;
  tailMs: number;
  cpuMsPerTicket: SimulationRun['cpuMsPerTicket'];
  restartedJobs: number;
  workerWarnings: number;
}

/** The lower bound: every ticket costs exactly the model's latency, all slots always busy. */
export function lowerBoundMs(tickets: number, gatewayDelayMs: number, concurrency: number): number {
  return (tickets * gatewayDelayMs) / concurrency;
}

/** Medians over the rounds of one worker count. */
export function summarizeRuns(runs: SimulationRun[], settings: SimulationSettings): SimulationSummary[] {
  return settings.workers.map((workers) => {
    const mine = runs.filter((run) => run.workers === workers);
    const med = (pick: (run: SimulationRun) => number) => median(mine.map(pick));
    const first = mine[0];
    const m = Object.fromEntries(
      Object.entries(first)
        .filter(([, value]) => typeof value === 'number')
        .map(([key]) => [key, med((run) => run[key as keyof Numeric])]),
    ) as Numeric;
    const concurrency = first.perWorker * workers;
    const boundMs = lowerBoundMs(settings.tickets, settings.gatewayDelayMs, concurrency);
    const ratio = m.wallMs / boundMs;
    const cpu = (key: keyof SimulationRun['cpuMsPerTicket']) => med((run) => run.cpuMsPerTicket[key]);
    return {
      workers,
      perWorker: first.perWorker,
      concurrency,
      boundMs,
      wallRuns: mine.map((run) => run.wallMs),
      ratio,
      met: ratio <= SIMULATION_TARGET.ratio,
      m,
      judgingMs: med((run) => run.lastJobMs - run.firstJobMs),
      tailMs: med((run) => run.wallMs - run.lastJobMs),
      seenRuns: mine.map((run) => run.seenMs),
      cpuMsPerTicket: {
        workers: cpu('workers'),
        api: cpu('api'),
        postgres: cpu('postgres'),
        redis: cpu('redis'),
        gateway: cpu('gateway'),
      },
      restartedJobs: mine.reduce((sum, run) => sum + run.restartedJobs, 0),
      workerWarnings: mine.reduce((sum, run) => sum + run.workerWarnings, 0),
    };
  });
}

const ms = fixed(0);
const one = fixed(1);

export function resultTable(summaries: SimulationSummary[]): string {
  return table(
    [
      'Workers',
      'Concurrency',
      'Wall time (median)',
      'Lower bound',
      'Ratio',
      `Within ${SIMULATION_TARGET.ratio.toFixed(2)}x`,
      'Every run (ms)',
      'Seen completed by the client (median)',
    ],
    summaries.map((s) => [
      String(s.workers),
      `${s.workers} x ${s.perWorker} = ${s.concurrency}`,
      `${ms(s.m.wallMs)} ms`,
      `${ms(s.boundMs)} ms`,
      s.ratio.toFixed(2),
      s.met ? 'yes' : '**no**',
      s.wallRuns.map(ms).join(', '),
      `${ms(median(s.seenRuns))} ms`,
    ]),
  );
}

export function breakdownTable(summaries: SimulationSummary[]): string {
  return table(
    [
      'Workers',
      'POST -> first ticket job',
      'Judging span',
      'Last job end -> recorded completed',
      'Job time mean / p95',
      'Model call in the job',
      'Lock wait in the job',
      'Model calls in flight',
      'Jobs in flight',
      'CPU / ticket: workers, API, Postgres, Redis',
      'Machine CPU busy (this run)',
    ],
    summaries.map((s) => [
      String(s.workers),
      `${ms(s.m.firstJobMs)} ms`,
      `${ms(s.judgingMs)} ms`,
      `${ms(s.tailMs)} ms`,
      `${one(s.m.jobMsMean)} / ${one(s.m.jobMsP95)} ms`,
      `${one(s.m.gatewayMsMean)} ms`,
      `${one(s.m.lockWaitMsPerJob)} ms (${one(s.m.lockWaiting)} waiting)`,
      `${one(s.m.modelCallsInFlight)} of ${s.concurrency}`,
      `${one(s.m.inFlightMean)} of ${s.concurrency * TICKET_JOBS_PER_MODEL_CALL}`,
      [s.cpuMsPerTicket.workers, s.cpuMsPerTicket.api, s.cpuMsPerTicket.postgres, s.cpuMsPerTicket.redis]
        .map(one)
        .join(', ') + ' ms',
      `${percent(s.m.machineBusy)} (${percent(s.m.runShare)})`,
    ]),
  );
}

export function runsTable(runs: SimulationRun[]): string {
  return table(
    [
      'Round',
      'Workers',
      'Wall',
      'Seen',
      'POST -> first job',
      'Last job end',
      'Job mean',
      'Model call',
      'Lock wait',
      'Model calls in flight',
      'Jobs in flight',
      'Worker CPU / ticket',
      'Machine busy (this run)',
      'Restarted jobs',
      'Worker warnings',
    ],
    runs.map((r) => [
      String(r.round),
      String(r.workers),
      ms(r.wallMs),
      ms(r.seenMs),
      ms(r.firstJobMs),
      ms(r.lastJobMs),
      one(r.jobMsMean),
      one(r.gatewayMsMean),
      one(r.lockWaitMsPerJob),
      one(r.modelCallsInFlight),
      one(r.inFlightMean),
      one(r.cpuMsPerTicket.workers),
      `${percent(r.machineBusy)} (${percent(r.runShare)})`,
      String(r.restartedJobs),
      String(r.workerWarnings),
    ]),
  );
}

interface ExcessPart {
  name: string;
  ms: number;
}

/**
 * Where the time above the bound went: the fan-out; each model call's time above the gateway's
 * delay, counted tickets / concurrency times; the judging span the model slots spent not calling
 * the model (reads, recording, the completion check and BullMQ's hand-over where they are not
 * overlapped with other calls, the ramp-up and the last partial wave); and the last job's end to
 * the recorded completion (its completion check runs just before BullMQ records the job's end: a
 * few ms below 0). Within a run the parts add up to wall minus bound; medians taken part by part
 * need not. A job's own time includes its wait for a model slot (the worker takes
 * TICKET_JOBS_PER_MODEL_CALL jobs a slot), so it is not split here.
 */
export function excessParts(s: SimulationSummary, settings: SimulationSettings): ExcessPart[] {
  const perJob = (jobMs: number) => (settings.tickets * jobMs) / s.concurrency;
  return [
    { name: 'start and fan-out', ms: s.m.firstJobMs },
    {
      name: `model call above ${settings.gatewayDelayMs} ms`,
      ms: perJob(s.m.gatewayMsMean - settings.gatewayDelayMs),
    },
    {
      name: 'model slots between calls (bookkeeping not overlapped, ramp-up, last partial wave)',
      ms: s.judgingMs - perJob(s.m.gatewayMsMean),
    },
    { name: 'last job end -> recorded completed', ms: s.tailMs },
  ];
}

function excessTable(summaries: SimulationSummary[], settings: SimulationSettings): string {
  const names = excessParts(summaries[0], settings).map((part) => part.name);
  return table(
    ['Workers', 'Wall - bound', ...names],
    summaries.map((s) => [
      String(s.workers),
      `${ms(s.m.wallMs - s.boundMs)} ms`,
      ...excessParts(s, settings).map((part) => `${ms(part.ms)} ms`),
    ]),
  );
}

export function verdict(summaries: SimulationSummary[], settings: SimulationSettings): string {
  const atTarget = summaries.filter((s) => s.concurrency === SIMULATION_TARGET.concurrency);
  if (!atTarget.length)
    return `No run at total concurrency ${SIMULATION_TARGET.concurrency}: the target is not assessed.`;
  const met = atTarget.filter((s) => s.met).map((s) => s.workers);
  const missed = atTarget.filter((s) => !s.met).map((s) => s.workers);
  const outcome =
    missed.length === 0
      ? `**met** with ${met.join(', ')} worker process(es)`
      : met.length === 0
        ? `**NOT met** with ${missed.join(', ')} worker process(es)`
        : `**met** with ${met.join(', ')} worker process(es), **NOT met** with ${missed.join(', ')}`;
  return [
    `Target (wall time within ${SIMULATION_TARGET.ratio.toFixed(2)}x of the bound at concurrency ${SIMULATION_TARGET.concurrency}): ${outcome}.`,
    '',
    'Where the time above the bound went (medians, so the parts add up to wall minus bound only roughly):',
    '',
    excessTable(atTarget, settings),
  ].join('\n');
}

export interface SimulationResults extends Results<SimulationSettings> {
  summaries: SimulationSummary[];
  runs: SimulationRun[];
}

/** The generated part of the section: settings, the tables, the verdict and every run. */
export function render(r: SimulationResults): string {
  const s = r.settings;
  const restarted = r.runs.reduce((sum, run) => sum + run.restartedJobs, 0);
  const warnings = r.runs.reduce((sum, run) => sum + run.workerWarnings, 0);
  return [
    runHeading(
      r,
      `${s.tickets} tickets, gateway delay ${s.gatewayDelayMs} ms, total concurrency ${s.concurrency}, ${s.runs} rounds` +
        (s.warmWorkers ? ', workers warmed up by one untimed simulation' : ', fresh workers'),
    ),
    '',
    resultTable(r.summaries),
    '',
    verdict(r.summaries, s),
    '',
    'Breakdown (medians over the rounds):',
    '',
    breakdownTable(r.summaries),
    '',
    `Ticket jobs started more than once over all runs: ${restarted}. Worker log lines at warn or above: ${warnings}.`,
    '',
    'Every run, in the order they ran (ms):',
    '',
    runsTable(r.runs),
  ].join('\n');
}
