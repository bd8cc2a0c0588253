// `npm run bench:memory`: the API's resident memory and V8 heap under a mixed load (judgments over
// REST and MCP, the evaluation list, statistics and the review queue), with V8's old generation
// unbounded and bounded by `--max-old-space-size`. See docs/performance.md.
import { authorizeAndExchange, callTool, registerClient } from '../test/support/oauth-flow.js';
import { TICKET } from '../test/support/packs.js';
import { runLoad, type LoadResult, type LoadTarget } from './harness/load.js';
import { log, runMain, sleep } from './harness/log.js';
import { num, nums, readOptions, settingsOf } from './harness/options.js';
import { cpuBetween, loadAverage, processPeakRssMb, processRssMb } from './harness/probes.js';
import { PRODUCTION_NODE_FLAGS, type Service } from './harness/processes.js';
import { publish } from './harness/report.js';
import { BenchRun, createTenant, type Tenant } from './harness/run.js';
import {
  render,
  STREAMS,
  summarizeMemory,
  type MemoryResults,
  type MemorySample,
  type Measured,
  type Stream,
} from './memory.report.js';

const options = readOptions({
  gatewayDelayMs: num(50),
  /** Seconds of measured mixed load per configuration. */
  duration: num(180),
  /** Seconds of the same load before it, not measured (V8's optimizing compiler, pools filling). */
  warmup: num(15),
  /** Seconds without load after it, then one more RSS reading: what the process gives back. */
  settle: num(10),
  runs: num(1),
  /** The `--max-old-space-size` values tried besides no bound (production has 384). */
  oldSpaceMb: nums(256, 384),
  /**
   * The `--max-semi-space-size` values tried with each bound (the API has 32 in production; V8 takes
   * the last of repeated flags, so each replaces the shared 64). No bound always runs with 64.
   */
  semiSpaceMb: nums(32),
  judgeConnections: num(32),
  mcpConnections: num(8),
  /** Connections for each of the three read routes. */
  readConnections: num(2),
  sampleMs: num(1000),
});
const settings = settingsOf(options);

/** What `harness/serve-api.js` answers to `memory`: process.memoryUsage() and V8's heap limit, in bytes. */
interface ApiMemory {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  heapLimit: number;
}

const MB = 1024 * 1024;

/** The semi-space size every process starts with (`PRODUCTION_NODE_FLAGS`: 64); the API adds its own. */
const PRODUCTION_SEMI_SPACE_MB = Number(
  /^--max-semi-space-size=(\d+)$/.exec(PRODUCTION_NODE_FLAGS.find((f) => f.startsWith('--max-semi'))!)![1],
);

const CONNECTIONS: Record<Stream, number> = {
  judge: options.judgeConnections,
  mcp: options.mcpConnections,
  evaluations: options.readConnections,
  stats: options.readConnections,
  reviews: options.readConnections,
};

/**
 * The routes under load, for `tenant` on the API at `apiUrl`. An access token is for the API that
 * issued it (its URL is the resource), so each API process gets its own OAuth grant.
 */
async function targetsFor(apiUrl: string, tenant: Tenant): Promise<Record<Stream, LoadTarget>> {
  const client = (await registerClient(apiUrl, { client_name: 'bench' })).body as { client_id: string };
  const exchanged = await authorizeAndExchange(apiUrl, client.client_id, {
    email: tenant.email,
    password: tenant.password,
  });
  const token = (exchanged.tokens as { access_token: string }).access_token;
  const keyed = { 'x-api-key': tenant.apiKey };
  return {
    judge: {
      url: `${apiUrl}/api/judge`,
      headers: { 'content-type': 'application/json', ...keyed },
      body: JSON.stringify({ packId: tenant.packId, ticket: TICKET }),
    },
    mcp: {
      url: `${apiUrl}/mcp`,
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
        authorization: `Bearer ${token}`,
      },
      body: JSON.stringify(callTool('judge_ticket', { packId: tenant.packId, ticket: TICKET })),
    },
    evaluations: { url: `${apiUrl}/api/evaluations`, method: 'GET', headers: keyed },
    stats: { url: `${apiUrl}/api/stats`, method: 'GET', headers: keyed },
    reviews: { url: `${apiUrl}/api/reviews`, method: 'GET', headers: keyed },
  };
}

async function check(stream: Stream, target: LoadTarget): Promise<void> {
  const response = await fetch(target.url, {
    method: target.method ?? 'POST',
    headers: target.headers,
    body: target.body,
  });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true') || text.includes('gateway_'))
    throw new Error(`${stream} answered ${response.status}: ${text.slice(0, 300)}`);
}

/** Every stream at once, each on its own connections, for `seconds`. */
async function mixedLoad(
  targets: Record<Stream, LoadTarget>,
  seconds: number,
): Promise<Record<Stream, LoadResult>> {
  const results = await Promise.all(
    STREAMS.map((stream) => runLoad(targets[stream], CONNECTIONS[stream], seconds)),
  );
  return Object.fromEntries(STREAMS.map((stream, i) => [stream, results[i]])) as Record<Stream, LoadResult>;
}

/** RSS from /proc and the heap over IPC, every `sampleMs`, until stopped. */
function sampleMemory(api: Service): { stop: () => Promise<MemorySample[]> } {
  const samples: MemorySample[] = [];
  const started = performance.now();
  let stopped = false;
  const running = (async () => {
    while (!stopped) {
      const tick = performance.now();
      const heap = (await api.ask('memory')) as ApiMemory;
      samples.push({
        atS: (tick - started) / 1000,
        rssMb: processRssMb(api.pid),
        heapUsedMb: heap.heapUsed / MB,
        heapTotalMb: heap.heapTotal / MB,
        externalMb: (heap.external + heap.arrayBuffers) / MB,
        heapLimitMb: heap.heapLimit / MB,
      });
      await sleep(Math.max(0, options.sampleMs - (performance.now() - tick)));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await running;
      return samples;
    },
  };
}

/** A configuration: the old generation's bound (null: none) and the young generation's semi-space, in MB. */
interface Configuration {
  oldSpaceMb: number | null;
  semiSpaceMb: number;
}

async function measureConfiguration(
  run: BenchRun,
  round: number,
  { oldSpaceMb, semiSpaceMb }: Configuration,
  tenants: { current?: Tenant },
): Promise<Measured> {
  const flags = [
    ...(oldSpaceMb ? [`--max-old-space-size=${oldSpaceMb}`] : []),
    ...(semiSpaceMb === PRODUCTION_SEMI_SPACE_MB ? [] : [`--max-semi-space-size=${semiSpaceMb}`]),
  ];
  // In place of the API's production flags, so the first configuration has no bound at all.
  const api = await run.api({ NODE_ENV: 'production' }, [], flags);
  // One tenant for the whole run, so every configuration lists and counts the same growing data.
  tenants.current ??= await createTenant(api.url);
  const here = await targetsFor(api.url, tenants.current);
  for (const stream of STREAMS) await check(stream, here[stream]);
  const name = `${oldSpaceMb ? `old space ${oldSpaceMb} MB` : 'no bound'}, semi-space ${semiSpaceMb} MB`;
  log(`round ${round}, ${name}: warming up for ${options.warmup} s`);
  await mixedLoad(here, options.warmup);
  const probe = await run.probe();
  const watched = { api: [api.pid] };
  const before = await probe.snapshot(watched);
  const loadAverageBefore = loadAverage();
  log(`round ${round}, ${name}: measuring for ${options.duration} s`);
  const sampler = sampleMemory(api);
  const streams = await mixedLoad(here, options.duration);
  const samples = await sampler.stop();
  const cpu = cpuBetween(before, await probe.snapshot(watched));
  await sleep(options.settle * 1000);
  const measured: Measured = {
    round,
    oldSpaceMb,
    semiSpaceMb,
    flags,
    streams,
    memory: summarizeMemory(samples, processPeakRssMb(api.pid), processRssMb(api.pid)),
    apiCpuMsPerRequest:
      cpu.groups.api /
      Math.max(
        1,
        STREAMS.reduce((n, s) => n + streams[s].responses, 0),
      ),
    machineBusy: cpu.machineBusy,
    loadAverageBefore,
    samples,
  };
  await api.stop();
  const { memory } = measured;
  log(
    `round ${round}, ${name}: RSS median ${memory.rssMedianMb.toFixed(0)} MB, peak ${memory.rssPeakMb.toFixed(0)} ` +
      `(high-water ${memory.rssHighWaterMb.toFixed(0)}), heap used peak ${memory.heapUsedPeakMb.toFixed(0)} MB; ` +
      `judge ${streams.judge.rps.toFixed(0)} req/s, p99 ${streams.judge.p99.toFixed(1)} ms`,
  );
  return measured;
}

async function memoryBenchmark(run: BenchRun): Promise<void> {
  await run.gateway(options.gatewayDelayMs);
  const configurations: Configuration[] = [
    { oldSpaceMb: null, semiSpaceMb: PRODUCTION_SEMI_SPACE_MB },
    ...options.oldSpaceMb.flatMap((oldSpaceMb) =>
      options.semiSpaceMb.map((semiSpaceMb) => ({ oldSpaceMb, semiSpaceMb })),
    ),
  ];
  const measured: Measured[] = [];
  const tenants: { current?: Tenant } = {};
  for (let round = 1; round <= options.runs; round++) {
    // Later rounds go in the other order, so a slow phase of a shared machine does not always land on one.
    const order = round % 2 ? configurations : [...configurations].reverse();
    for (const configuration of order)
      measured.push(await measureConfiguration(run, round, configuration, tenants));
  }
  for (const m of measured)
    for (const stream of STREAMS)
      if (m.streams[stream].non2xx || m.streams[stream].errors)
        log(
          `warning: ${stream} had ${m.streams[stream].non2xx} non-2xx and ${m.streams[stream].errors} errors`,
        );
  publish<MemoryResults>(
    { benchmark: 'memory', at: new Date().toISOString(), machine: run.machine, settings, measured },
    render,
    options.writeDocs,
  );
}

runMain(() => BenchRun.with('memory', options, {}, memoryBenchmark));
