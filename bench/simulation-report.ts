import { median } from './load.js';
import type { Machine } from './report.js';

export const SIMULATION_TARGET = { concurrency: 32, ratio: 1.25 };

export interface SimulationSettings {
  tickets: number;
  gatewayDelayMs: number;
  concurrency: number;
  workerCounts: number[];
  rounds: number;
  pollMs: number;
  settleMs: number;
  /** CPUs of the machine, for the CPU budget of the target. */
  cpus: number;
  /** One untimed simulation on the fresh workers before the timed one (JIT warm-up). */
  warmWorkers: boolean;
}

/** One simulation, timed from the benchmark's POST; the job times come from BullMQ's own stamps. */
export interface SimulationRun {
  round: number;
  workers: number;
  perWorker: number;
  /** POST -> the simulation's recorded `finishedAt`. */
  wallMs: number;
  /** POST -> the first poll that showed it completed. */
  seenMs: number;
  /** POST -> the first ticket job starts: the API's insert and enqueue, the start job, the fan-out. */
  firstJobMs: number;
  /** POST -> the last ticket job has finished. */
  lastJobMs: number;
  /** A ticket job from its start to its end (reads, the model call, the recording transaction). */
  jobMsMean: number;
  jobMsP95: number;
  /** The model call as the worker timed it (`latencyMs` of the evaluation). */
  gatewayMsMean: number;
  /** Sum of job times over the judging span: how many of the slots were busy on average. */
  inFlightMean: number;
  /** Ticket jobs that were started more than once (retried or stalled). */
  restartedJobs: number;
  /** Backends waiting for a lock, on average over the run (sampled from pg_stat_activity). */
  lockWaiting: number;
  /** Mean time a job spent waiting for a lock: lockWaiting x run time / tickets (Little's law). */
  lockWaitMsPerJob: number;
  /** The statement seen waiting most often, if any. */
  lockStatement: string | null;
  /** Backends inside a transaction waiting for the worker's next command, on average. */
  idleInTransaction: number;
  cpuMsPerTicket: { workers: number; api: number; postgres: number; redis: number; gateway: number };
  /** Share of all CPUs busy during the run, every process of the machine included. */
  machineBusy: number;
  /** Share of all CPUs used by the run's own processes (benchmark, API, gateway, workers, Postgres, Redis). */
  runShare: number;
  /** Worker log lines at warn or above. */
  workerWarnings: number;
}

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
  /** The statement seen waiting for a lock most often, per run that saw one. */
  lockStatements: string[];
}

/** The issue's lower bound: every ticket costs exactly the model's latency, all slots always busy. */
export function lowerBoundMs(tickets: number, gatewayDelayMs: number, concurrency: number): number {
  return (tickets * gatewayDelayMs) / concurrency;
}

/** Medians over the rounds of one worker count. */
export function summarizeRuns(runs: SimulationRun[], settings: SimulationSettings): SimulationSummary[] {
  return settings.workerCounts.map((workers) => {
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
      lockStatements: mine.flatMap((run) => (run.lockStatement ? [run.lockStatement] : [])),
    };
  });
}

const ms = (value: number) => value.toFixed(0);
const one = (value: number) => value.toFixed(1);
const percent = (share: number) => `${(share * 100).toFixed(0)}%`;

function table(header: string[], rows: string[][]): string {
  return [header, header.map(() => '-'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function resultTable(summaries: SimulationSummary[]): string {
  return table(
    [
      'Workers',
      'Concurrency',
      'Wall time (median)',
      'Lower bound',
      'Ratio',
      'Within 1.25x',
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
      `${one(s.m.inFlightMean)} of ${s.concurrency}`,
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
      'In flight',
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
 * Where the time above the bound went: each part of a job above the model's latency counts
 * tickets / concurrency times; then the fan-out, idle slots and the last job's end to the recorded
 * completion (its completion check runs just before BullMQ records the job's end: a few ms below 0).
 */
export function excessParts(s: SimulationSummary, settings: SimulationSettings): ExcessPart[] {
  const perJob = (jobMs: number) => (settings.tickets * jobMs) / s.concurrency;
  const rest = s.m.jobMsMean - s.m.gatewayMsMean - s.m.lockWaitMsPerJob;
  return [
    { name: 'start and fan-out', ms: s.m.firstJobMs },
    {
      name: `model call above ${settings.gatewayDelayMs} ms`,
      ms: perJob(s.m.gatewayMsMean - settings.gatewayDelayMs),
    },
    { name: 'waiting for a row lock in Postgres', ms: perJob(s.m.lockWaitMsPerJob) },
    { name: 'rest of the job (queries, worker CPU, BullMQ)', ms: perJob(rest) },
    {
      name: 'slots idle (ramp-up, last partial wave, between jobs)',
      ms: s.judgingMs - perJob(s.m.jobMsMean),
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

/** Why the tickets of one simulation queue on a lock, by the statement seen waiting. */
const LOCK_EXPLANATIONS: Record<string, string> = {
  'INSERT INTO evaluations':
    "the insert fires the statement trigger that adds the evaluation to the user's row of `evaluation_daily_stats` for the day, and every ticket of a simulation has the same user and day, " +
    'so the inserts take that row lock one at a time and each holds it until its transaction commits (longer when the transaction goes on after the insert: `idle in transaction` backends in the samples).',
  'UPDATE simulations':
    "every ticket updates the simulation's one row, so the updates take that row lock one at a time and each holds it until its transaction commits.",
};

function lockStatementOf(summaries: SimulationSummary[]): string | null {
  const counts = new Map<string, number>();
  for (const s of summaries)
    for (const statement of s.lockStatements) counts.set(statement, (counts.get(statement) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

function totalCpuPerTicket(s: SimulationSummary): number {
  const cpu = s.cpuMsPerTicket;
  return cpu.workers + cpu.api + cpu.postgres + cpu.redis + cpu.gateway;
}

/** Which part dominates, in words, with the explanation that applies when it does. */
function dominantCause(summaries: SimulationSummary[], settings: SimulationSettings): string[] {
  const lines: string[] = [];
  for (const s of summaries.filter((summary) => !summary.met)) {
    const parts = excessParts(s, settings).sort((a, b) => b.ms - a.ms);
    const excess = s.m.wallMs - s.boundMs;
    lines.push(
      `- ${s.workers} worker(s): ${ms(excess)} ms above the bound; the largest parts are ${parts
        .slice(0, 2)
        .map((part) => `${part.name} (${ms(part.ms)} ms, ${percent(part.ms / excess)})`)
        .join(' and ')}.`,
    );
  }
  const busy = Math.max(...summaries.map((s) => s.m.machineBusy));
  const lock = Math.max(...summaries.map((s) => s.m.lockWaitMsPerJob));
  const statement = lockStatementOf(summaries);
  if (lock >= 10)
    lines.push(
      `- Lock waits (${summaries.map((s) => `${one(s.m.lockWaitMsPerJob)} ms a job with ${s.workers} worker(s)`).join(', ')}), ` +
        `almost all in \`${statement ?? 'unknown'}\`: ${LOCK_EXPLANATIONS[statement ?? ''] ?? 'see the statement in the log of each run.'}`,
    );
  if (busy >= 0.85)
    lines.push(
      `- The machine's CPUs were ${percent(busy)} busy at the peak of the medians: every process of the run, and whatever else runs on the machine, shares them, ` +
        'so CPU per ticket turns into waiting wherever a process is not scheduled (the model call above its latency, a lock held across a round trip, the rest of the job).',
    );
  const budgetMs = (settings.cpus * SIMULATION_TARGET.ratio * summaries[0].boundMs) / settings.tickets;
  lines.push(
    `- CPU budget: the run's processes (workers, API, Postgres, Redis, gateway) spent ${summaries
      .map((s) => `${one(totalCpuPerTicket(s))} ms`)
      .join(', ')} of CPU per ticket with ${summaries.map((s) => s.workers).join(', ')} worker(s), ` +
      `and the workers ${summaries.map((s) => `${one(s.cpuMsPerTicket.workers)} ms`).join(', ')} of it${settings.warmWorkers ? ' (warmed up by one simulation)' : ' (fresh processes: their code is not optimized by V8 yet)'}. ` +
      `Finishing ${settings.tickets} tickets within the target on ${settings.cpus} CPUs leaves at most ${one(budgetMs)} ms of CPU per ticket for everything, with the CPUs 100% busy and nothing else running.`,
  );
  return lines;
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
    `Target (wall time within ${SIMULATION_TARGET.ratio}x of the bound at concurrency ${SIMULATION_TARGET.concurrency}): ${outcome}.`,
    '',
    "Where the time above the bound went (medians, so the parts add up to wall minus bound only roughly; lock waits are estimated from `pg_stat_activity` samples every 25 ms with Little's law):",
    '',
    excessTable(atTarget, settings),
    '',
    ...dominantCause(atTarget, settings),
  ].join('\n');
}

export function docsSection(
  summaries: SimulationSummary[],
  runs: SimulationRun[],
  machine: Machine,
  settings: SimulationSettings,
  notes: string[],
): string {
  const when = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const bound = ms(lowerBoundMs(settings.tickets, settings.gatewayDelayMs, settings.concurrency));
  return [
    '## Simulation throughput: `npm run bench:simulation`',
    '',
    `The question is how close a simulation comes to the model's own limit. With a gateway that answers every call after ${settings.gatewayDelayMs} ms and ${settings.concurrency} jobs in flight in total, ${settings.tickets} tickets cannot take less than ${settings.tickets} x ${settings.gatewayDelayMs} ms / ${settings.concurrency} = ${bound} ms. **Target**: wall time within ${SIMULATION_TARGET.ratio}x of that bound at total concurrency ${SIMULATION_TARGET.concurrency}, with one worker process or several sharing it.`,
    '',
    'Method:',
    '',
    `- Processes: the API (\`serve-api.js\`, \`LOG_LEVEL=silent\`), the fake gateway (\`serve-gateway.js\`, ${settings.gatewayDelayMs} ms a call) and 1 to ${Math.max(...settings.workerCounts)} processes of the real worker app (\`apps/worker/src/main.js\`, \`WORKER_CONCURRENCY\` = total concurrency / workers, \`LOG_LEVEL=info\`, which logs nothing per ticket), from a private copy of \`dist/\` made after the build; local Postgres and Redis, a fresh database and Redis prefix, dropped at the end.`,
    `- Data over HTTP: a user, an API key and a published three-question pack; one dataset of ${settings.tickets} tickets (the end-to-end ticket with distinct external ids), uploaded in one request.`,
    `- Each run starts fresh workers, waits until every one has logged \`worker ready\`${settings.warmWorkers ? ', runs one untimed simulation on them (long-lived workers are warm, as the API is warmed up in `bench:judge`; `BENCH_WARM_WORKERS=0` times the first simulation of fresh workers instead),' : ' (fresh: `BENCH_WARM_WORKERS=0`, so the timed simulation is their first)'} and ${settings.settleMs} ms more, then times from \`POST /api/simulations\` to the \`finishedAt\` the service recorded (Postgres's clock on the same machine), read from the first \`GET /api/simulations/{id}\` (one every ${settings.pollMs} ms) that shows \`completed\`; the time the client saw it is given too (up to one poll interval later). Each poll counts the simulation's evaluations, so polling is kept slow enough not to load the API. It checks \`completed\` = ${settings.tickets}, exactly ${settings.tickets} evaluations of the simulation in Postgres and no gateway failure among them, then stops the workers with SIGTERM. Worker counts take turns over ${settings.rounds} rounds; the tables give medians.`,
    "- Breakdown: BullMQ's stamps of each ticket job (`processedOn`, `finishedOn`), the model latency each evaluation records, and `pg_stat_activity` sampled every 25 ms. CPU per ticket is user + system time over the run, from `/proc/<pid>/stat` (workers, API, the scratch database's Postgres backends) and Redis's `INFO cpu`; the API's includes answering the polls. Machine CPU busy is `/proc/stat`: every process, other work on the machine included; in brackets the share of it the run's own processes used (the benchmark, API, gateway, workers, the scratch database's backends, Redis).",
    '- Options: `BENCH_CONCURRENCY` (total, default 32), `BENCH_WORKERS` (default `1,2,4`), `BENCH_RUNS` (3), `BENCH_TICKETS` (250, the most a dataset holds), `BENCH_GATEWAY_DELAY_MS` (200), `BENCH_POLL_MS` (100), `BENCH_WRITE_DOCS=0` (print only); `BENCH_WARM_WORKERS=0` skips the untimed warm-up simulation; `BENCH_PROFILE=1` runs the workers under `--cpu-prof` and prints where the CPU of each went, boot included (best with `BENCH_WORKERS=1 BENCH_RUNS=1`), and writes nothing here.',
    '',
    `### Latest run (${when} UTC)`,
    '',
    `Machine: ${machine.cpus} CPUs (\`nproc\`), ${machine.cpuModel}, Node.js ${machine.node}, PostgreSQL ${machine.postgres}; load average before the run ${machine.loadAverage}.`,
    `Settings: ${settings.tickets} tickets, gateway delay ${settings.gatewayDelayMs} ms, total concurrency ${settings.concurrency}, ${settings.rounds} rounds.`,
    '',
    resultTable(summaries),
    '',
    verdict(summaries, settings),
    '',
    'Breakdown (medians over the rounds):',
    '',
    breakdownTable(summaries),
    ...(notes.length ? ['', ...notes] : []),
    '',
    'Every run, in the order they ran (ms):',
    '',
    runsTable(runs),
  ].join('\n');
}
