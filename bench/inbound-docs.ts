import {
  cpu,
  cpuTable,
  drainCpuTable,
  drainTable,
  pct,
  PHASE_LABEL,
  resultsTable,
  runsTable,
  seconds,
  TARGET_RATIO,
  verificationLine,
  type Drain,
  type InboundSettings,
  type LoadRun,
  type Machine,
  type Phase,
  type PhaseSummary,
  type TargetSummary,
  type Verification,
} from './inbound-report.js';

/** Facts of the drain worth a sentence: deliveries behind judging, lock waits, idle CPU. */
function drainLines(drains: Drain[]): string[] {
  return drains.flatMap((d) => {
    const lines: string[] = [];
    const label = PHASE_LABEL[d.phase];
    if (
      d.workerBootMs !== undefined &&
      d.firstCompletionMs !== null &&
      d.firstCompletionMs >= 0.9 * d.judgedMs
    )
      lines.push(
        `- ${label}: the first completion arrived only ${seconds(d.firstCompletionMs)} after \`worker ready\`, when ${pct(d.firstCompletionMs / Math.max(1, d.judgedMs))} of the judging time had passed: delivery jobs join the same \`webhooks\` queue behind every judge job already waiting.`,
      );
    const waiting = d.workerPostgres
      .filter((s) => s.state.startsWith('Lock:'))
      .reduce((sum, s) => sum + s.backends, 0);
    if (waiting >= 1)
      lines.push(
        `- ${label}: on average ${waiting.toFixed(1)} of the worker's Postgres connections were waiting for a lock during the drain (statements in the table above), with the machine ${pct(d.machineBusy)} busy.`,
      );
    return lines;
  });
}

export interface ReportInput {
  summaries: PhaseSummary[];
  drains: Drain[];
  runs: LoadRun[];
  verification: Verification;
  machine: Machine;
  options: InboundSettings & { phases: Phase[] };
}

function verdictLine(summaries: PhaseSummary[]): string {
  const primary = summaries.find((s) => s.phase === 'worker-on') ?? summaries[0];
  const met = primary.meets ? 'met' : 'NOT met';
  return (
    `Target (inbound at least ${TARGET_RATIO} of the bare route's throughput, ${PHASE_LABEL[primary.phase]}): ` +
    `**${met}**, ${primary.inbound.rps.toFixed(0)} against ${primary.bare.rps.toFixed(0)} requests a second ` +
    `(${primary.ratio.toFixed(2)}).`
  );
}

/**
 * What an inbound 202 costs next to a bare one. Read from the worker-stopped phase when there is
 * one: with the worker running, Redis's CPU also holds the worker's BullMQ traffic.
 */
function costLine(summaries: PhaseSummary[]): string {
  const clean = summaries.find((s) => s.phase === 'worker-off') ?? summaries[0];
  const { inbound, bare } = clean;
  const total = (t: TargetSummary) => t.serverCpuMs + t.serverPostgresCpuMs + t.redisCpuMs;
  const lines = [
    `CPU per accepted request (${PHASE_LABEL[clean.phase]}), inbound against bare: the server process ` +
      `${cpu(inbound.serverCpuMs)} against ${cpu(bare.serverCpuMs)} ms ` +
      `(${(inbound.serverCpuMs / bare.serverCpuMs).toFixed(1)}x), its Postgres backends ` +
      `${cpu(inbound.serverPostgresCpuMs)} against ${cpu(bare.serverPostgresCpuMs)} ms ` +
      `(${(inbound.serverPostgresCpuMs / bare.serverPostgresCpuMs).toFixed(1)}x), Redis ${cpu(inbound.redisCpuMs)} ` +
      `against ${cpu(bare.redisCpuMs)} ms; in all ${cpu(total(inbound))} against ${cpu(total(bare))} ms ` +
      `(${(total(inbound) / total(bare)).toFixed(1)}x).`,
  ];
  // A Node server cannot run its JavaScript on more than one core: near one core busy, its CPU per
  // request caps its throughput whatever the rest of the machine does.
  const cores = (t: TargetSummary) => (t.serverCpuMs * t.rps) / 1000;
  if (cores(inbound) >= 0.7)
    lines.push(
      `The API process kept ${cpu(cores(inbound))} cores busy (the bare server ${cpu(cores(bare))}) with the ` +
        `machine ${pct(inbound.machineBusy)} busy: its one JavaScript thread is the limit, so its CPU per request ` +
        `sets the throughput (1000 / ${cpu(inbound.serverCpuMs)} ms = ${(1000 / inbound.serverCpuMs).toFixed(0)} ` +
        `requests a second with a core to itself).`,
    );
  return lines.join(' ');
}

/** The generated section of docs/performance.md (between the `bench:inbound` markers). */
export function docsSection(input: ReportInput): string {
  const { summaries, drains, runs, verification, machine, options } = input;
  return [
    '## Inbound webhooks: `npm run bench:inbound`',
    '',
    `The question is how many tickets a second \`POST /api/webhooks/inbound\` accepts (202) under a closed-loop load of ${options.connections} connections, against a yardstick measured in the same run: a bare Fastify route that does only what the route must do at the least, one Postgres insert and one BullMQ add. **Target**: the inbound route serves at least ${TARGET_RATIO} of the bare route's requests a second, with the worker running (it shares the CPUs, as in production). The benchmark also reports how long the worker takes to deliver the last completion.`,
    '',
    'Method:',
    '',
    `- Processes: the API (\`serve-api.js\`: \`createApiApp\` as in production, \`LOG_LEVEL=silent\`), the bare route (\`serve-bare-inbound.js\`: Fastify, a \`pg\` pool of 10 like the API's, \`INSERT INTO bench_bare (id, body)\` of the parsed body, then \`queue.add\` on a BullMQ queue \`bare\` under the same Redis prefix with the same job options as the inbound enqueue, then 202 \`{eventId}\`), the fake model gateway (\`serve-gateway.js\`, ${options.gatewayDelayMs} ms a call), the completion receiver (\`serve-receiver.js\`, its own process: answers 200, checks every signature, counts distinct \`X-Service-Event-Id\`s) and one process of the real worker app (\`apps/worker/src/main.js\`, \`WORKER_CONCURRENCY=${options.workerConcurrency}\`, \`LOG_LEVEL=info\`, which logs nothing per job). Local Postgres and Redis, a fresh database and Redis prefix, dropped at the end. Everything shares the machine's CPUs, autocannon (in the benchmark process) included.`,
    '- Tenant over HTTP: a user, an API key, a published three-question pack and a completion endpoint on the receiver. Both routes get the same body, `{packId, ticket}` with the ticket of the end-to-end tests, without `Idempotency-Key` or signature; the inbound route also gets `x-api-key`.',
    `- Both routes are first warmed up for 10 s each. Then, in each phase, ${options.rounds} rounds of bare then inbound, each warmed up (${options.warmupSeconds} s) and then measured (${options.durationSeconds} s) at ${options.connections} connections; the tables give medians over the rounds. Latencies are autocannon's per-response times of the 2xx answers, in ms.`,
    '- Phases: **worker stopped** (no worker process while measuring; the worker is started after the last load and the drain is timed from its `worker ready`) and **worker running** (one worker judging and delivering the backlog while both routes are measured; the phase begins with 10 s of inbound load so the worker is busy from the first measured window on; the drain is timed from the end of the last inbound load). The target is read in the worker-running phase.',
    "- Drain: the receiver is polled every 50 ms until it has one completion for every event in `inbound_events`. *Last completion* is the receiver's clock at the last new event, *all judged* the time stamp of the latest evaluation, *first completion* the first new event at the receiver (with the worker running, counted from the start of the phase's inbound load), and the drain rate the phase's backlog over the last completion time. `pg_stat_activity` is sampled every 100 ms for the worker's connections (during the drain) and the server's (during each measured load); a lock wait names the statement's first words. At the end the run checks that every event has exactly one evaluation and one succeeded delivery, that no signature failed and no evaluation records a gateway failure; autocannon's 202 count can be lower than the events by the requests in flight when a load stops.",
    "- CPU per 202 is the user + system time of the server process and of its Postgres backends (told apart by `application_name`) and Redis (`INFO cpu`; with the worker running this includes the worker's BullMQ traffic) over the measured window, divided by the responses; the worker column is its CPU (process and backends) in cores over the window; machine busy is `/proc/stat`, other work on the machine included, and in brackets the cores busy with anything but the measured processes (the idle server of the other route, the gateway, the receiver, Postgres's own processes and whatever else runs on the machine: a large figure means the run shared the machine).",
    "- Options: `BENCH_CONNECTIONS` (64), `BENCH_DURATION` (10), `BENCH_WARMUP` (3), `BENCH_RUNS` (3), `BENCH_GATEWAY_DELAY_MS` (20), `BENCH_WORKER_CONCURRENCY` (32), `BENCH_PHASES` (`worker-off,worker-on`), `BENCH_DRAIN_TIMEOUT` (900 s), `BENCH_WRITE_DOCS=0` (print only), `BENCH_LOG_LEVEL` (the API's), `BENCH_PROFILE=1` (the API under `--cpu-prof`; prints where its CPU went and writes nothing here).",
    '',
    `### Latest run (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `Machine: ${machine.cpus} CPUs (\`nproc\`), ${machine.cpuModel}, Node.js ${machine.node}, PostgreSQL ${machine.postgres}; load average before the run ${machine.loadAverage}.`,
    `Settings: ${options.connections} connections, warm-up ${options.warmupSeconds} s, ${options.durationSeconds} s measured, ${options.rounds} rounds per phase, gateway delay ${options.gatewayDelayMs} ms, worker concurrency ${options.workerConcurrency}.`,
    '',
    resultsTable(summaries),
    '',
    verdictLine(summaries),
    '',
    costLine(summaries),
    '',
    "Completions (events are counted over the whole run, so a phase's include the earlier ones; the backlog is the phase's own):",
    '',
    drainTable(drains),
    '',
    drainCpuTable(drains),
    '',
    ...(drainLines(drains).length ? [...drainLines(drains), ''] : []),
    'Where the CPU went (medians over the rounds; ms per 202 unless stated):',
    '',
    cpuTable(summaries),
    '',
    verificationLine(verification),
    '',
    'Every run, in the order they ran:',
    '',
    runsTable(runs),
  ].join('\n');
}
