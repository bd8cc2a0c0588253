// `npm run bench:judge`: the overhead of POST /api/judge above a fake model gateway with a fixed
// latency, at several connection counts. See docs/performance.md for the method and the figures.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BenchChild } from './child-process.js';
import { summarizeCpuProfile, type ProfileLine } from './cpu-profile.js';
import { processCpuMs, totalCpuMs } from './cpu-usage.js';
import { runLoad, type LoadTarget } from './load.js';
import {
  resultsSection,
  resultsTable,
  runsTable,
  summarize,
  writeResultsSection,
  type BenchSettings,
  type Machine,
  type Run,
} from './report.js';
import {
  backendPids,
  createScratchDatabase,
  deleteRedisNamespace,
  dropScratchDatabase,
  postgresVersion,
} from './scratch-stores.js';
import { createTenant, TICKET } from './tenant.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_BENCH = path.dirname(fileURLToPath(import.meta.url));

interface Options extends BenchSettings {
  connections: number[];
  databaseUrl: string;
  redisUrl: string;
  profile: boolean;
  writeDocs: boolean;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

/** The benchmark's own knobs; the API itself is configured through its usual variables. */
function readOptions(env: NodeJS.ProcessEnv): Options {
  const profile = env.BENCH_PROFILE === '1';
  return {
    gatewayDelayMs: positive(env, 'BENCH_GATEWAY_DELAY_MS', 50),
    warmupSeconds: positive(env, 'BENCH_WARMUP', 3),
    durationSeconds: positive(env, 'BENCH_DURATION', 10),
    rounds: Math.round(positive(env, 'BENCH_RUNS', 3)),
    connections: (env.BENCH_CONNECTIONS || '32,128').split(',').map(Number),
    databaseUrl: env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    profile,
    // A profiled run is slower than a real one, so its figures never reach the docs.
    writeDocs: env.BENCH_WRITE_DOCS !== '0' && !profile,
  };
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

function describeMachine(postgres: string): Machine {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  return {
    cpus: os.availableParallelism(),
    cpuModel: /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown CPU',
    node: process.version,
    postgres,
    loadAverage: os
      .loadavg()
      .map((value) => value.toFixed(2))
      .join(' / '),
  };
}

async function ensureServices(databaseUrl: string, redisUrl: string): Promise<void> {
  const services = (await import(pathToFileURL(path.join(ROOT, 'scripts/services.mjs')).href)) as {
    ensureServices(urls: { databaseUrl: string; redisUrl: string }): Promise<void>;
  };
  await services.ensureServices({ databaseUrl, redisUrl });
}

/** One judgment through the whole stack, then the exact chat request the API sent the gateway. */
async function checkJudgeAndCaptureGatewayRequest(judge: LoadTarget, gatewayUrl: string): Promise<string> {
  const response = await fetch(judge.url, { method: 'POST', headers: judge.headers, body: judge.body });
  const body = (await response.json()) as { result?: { status?: string; reviewReasons?: string[] } };
  if (response.status !== 200)
    throw new Error(
      `POST /api/judge answered ${response.status} ${JSON.stringify(body)} (BENCH_LOG_LEVEL=error shows the API's log)`,
    );
  const reasons = body.result?.reviewReasons ?? [];
  if (reasons.some((reason) => reason.startsWith('gateway_') || reason === 'invalid_model_output'))
    throw new Error(`the judgment did not go through the gateway: ${reasons.join(', ')}`);
  const captured = await fetch(new URL('/last-request', gatewayUrl));
  if (captured.status !== 200) throw new Error('the gateway saw no request');
  return captured.text();
}

interface Servers {
  gateway: BenchChild;
  bare: BenchChild;
  api: BenchChild;
  databaseName: string;
}

/** One measured load, with the CPU the server under test and its Postgres backends spent on it. */
async function measureOnce(
  options: Options,
  target: LoadTarget,
  server: BenchChild,
  postgresPids: number[],
  connections: number,
) {
  const before = { server: processCpuMs(server.pid!), postgres: totalCpuMs(postgresPids) };
  const loadGenerator = process.cpuUsage();
  const result = await runLoad(target, connections, options.durationSeconds);
  const responses = Math.max(1, result.responses);
  const { user, system } = process.cpuUsage(loadGenerator);
  const cpuMsPerResponse = {
    server: (processCpuMs(server.pid!) - before.server) / responses,
    postgres: (totalCpuMs(postgresPids) - before.postgres) / responses,
  };
  return { result, cpuMsPerResponse, loadGeneratorCpuMs: (user + system) / 1000 / responses };
}

async function measure(
  options: Options,
  targets: Record<Run['target'], LoadTarget>,
  servers: Servers,
): Promise<Run[]> {
  const runs: Run[] = [];
  // A few seconds of load do not get Nest, TypeORM and the OpenAI client through V8's optimizing
  // compiler; without this, the first round measures the JIT.
  const firstWarmup = Math.max(10, options.warmupSeconds);
  log(`warming the API and the bare route up for ${firstWarmup} s each`);
  await runLoad(targets.judge, Math.max(...options.connections), firstWarmup);
  await runLoad(targets.bare, Math.max(...options.connections), firstWarmup);
  // Rounds go across every setting, so slow phases of a noisy machine spread over all of them,
  // and each judge run sits right after the gateway run it is compared with.
  for (let round = 1; round <= options.rounds; round++) {
    for (const connections of options.connections) {
      for (const target of ['gateway', 'bare', 'judge'] as const) {
        await runLoad(targets[target], connections, options.warmupSeconds);
        // After the warm-up, the server's pool has opened all the connections it will use (the
        // other server's backends are idle meanwhile, so counting them too changes nothing).
        const postgresPids =
          target === 'gateway' ? [] : await backendPids(options.databaseUrl, servers.databaseName);
        const server = { gateway: servers.gateway, bare: servers.bare, judge: servers.api }[target];
        const { result, cpuMsPerResponse, loadGeneratorCpuMs } = await measureOnce(
          options,
          targets[target],
          server,
          postgresPids,
          connections,
        );
        const dead = [servers.gateway, servers.bare, servers.api].find((child) => child.died);
        if (dead) throw new Error(`${dead.name} died during the run`);
        runs.push({ round, connections, target, result, cpuMsPerResponse });
        log(
          `round ${round}/${options.rounds} ${target} x${connections}: ${result.rps.toFixed(0)} rps, ` +
            `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
            `CPU/req ${cpuMsPerResponse.server.toFixed(2)} ms (+ Postgres ${cpuMsPerResponse.postgres.toFixed(2)} ms, ` +
            `autocannon ${loadGeneratorCpuMs.toFixed(2)} ms), ` +
            `non-2xx ${result.non2xx}, errors ${result.errors}`,
        );
      }
    }
  }
  return runs;
}

function printProfile(directory: string): void {
  const files = readdirSync(directory).filter((file) => file.endsWith('.cpuprofile'));
  const lines = (title: string, entries: ProfileLine[]) => [
    title,
    ...entries.map(
      (e) => `  ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.ms.toFixed(0).padStart(7)} ms  ${e.name}`,
    ),
  ];
  for (const file of files) {
    const summary = summarizeCpuProfile(path.join(directory, file));
    console.log(
      [
        '',
        `API CPU profile ${path.join(directory, file)}: ${summary.busyMs.toFixed(0)} ms busy ` +
          `(plus ${summary.startupMs.toFixed(0)} ms loading modules at boot, left out)`,
        ...lines('Inclusive time by package or app folder (on the stack):', summary.inclusiveByArea),
        ...lines('Self time by package or app folder:', summary.selfByArea),
        ...lines('Self time by function:', summary.selfByFunction),
      ].join('\n'),
    );
  }
}

async function main(): Promise<void> {
  const options = readOptions(process.env);
  const stamp = Date.now();
  const databaseName = `ticket_judge_bench_${stamp}`;
  const redisPrefix = `tjbench-${stamp}`;
  const profileDir = options.profile ? mkdtempSync(path.join(os.tmpdir(), 'tjbench-profile-')) : undefined;
  const children: BenchChild[] = [];
  let databaseCreated = false;

  let cleaning: Promise<void> | undefined;
  const cleanUp = () =>
    (cleaning ??= (async () => {
      await Promise.allSettled(children.map((child) => child.stop()));
      if (databaseCreated) await dropScratchDatabase(options.databaseUrl, databaseName);
      await deleteRedisNamespace(options.redisUrl, redisPrefix);
      log(
        `cleaned up: children stopped, database ${databaseName} dropped, Redis keys ${redisPrefix}:* deleted`,
      );
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  }

  try {
    await ensureServices(options.databaseUrl, options.redisUrl);
    const databaseUrl = await createScratchDatabase(options.databaseUrl, databaseName);
    databaseCreated = true;
    const machine = describeMachine(await postgresVersion(options.databaseUrl));

    const gateway = await BenchChild.start('fake gateway', path.join(DIST_BENCH, 'serve-gateway.js'), {
      env: { ...process.env, BENCH_GATEWAY_DELAY_MS: String(options.gatewayDelayMs) },
    });
    children.push(gateway);
    const api = await BenchChild.start('API', path.join(DIST_BENCH, 'serve-api.js'), {
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'silent',
        MIGRATE_ON_START: 'true',
        API_RATE_LIMIT_PER_DAY: '100000000',
        DATABASE_URL: databaseUrl,
        REDIS_URL: options.redisUrl,
        REDIS_PREFIX: redisPrefix,
        MODEL_GATEWAY_URL: gateway.url,
      },
      execArgv: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
    });
    children.push(api);
    log(
      `gateway ${gateway.url} (pid ${gateway.pid}), API ${api.url} (pid ${api.pid}), database ${databaseName}`,
    );

    const tenant = await createTenant(api.url);
    const judge: LoadTarget = {
      url: `${api.url}/api/judge`,
      headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
      body: JSON.stringify({ packId: tenant.packId, ticket: TICKET }),
    };
    const chatRequest = await checkJudgeAndCaptureGatewayRequest(judge, gateway.url);
    const bare = await BenchChild.start('bare judge route', path.join(DIST_BENCH, 'serve-bare-judge.js'), {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        BENCH_GATEWAY_URL: gateway.url,
        BENCH_CHAT_REQUEST: chatRequest,
        BENCH_PACK_ID: tenant.packId,
      },
    });
    children.push(bare);
    const targets = {
      judge,
      bare: { url: `${bare.url}/bare`, headers: judge.headers, body: judge.body },
      gateway: {
        url: `${gateway.url}/chat/completions`,
        headers: { 'content-type': 'application/json', authorization: 'Bearer not-set' },
        body: chatRequest,
      },
    };

    const runs = await measure(options, targets, { gateway, bare, api, databaseName });
    const summaries = options.connections.map((connections) => summarize(runs, connections));
    console.log(
      `\nPOST /api/judge over a ${options.gatewayDelayMs} ms gateway (medians of ${options.rounds} rounds, ms)\n`,
    );
    console.log(resultsTable(summaries));
    console.log(`\nEvery run:\n\n${runsTable(runs)}`);
    if (options.writeDocs) {
      const docs = path.join(ROOT, 'docs/performance.md');
      writeResultsSection(docs, resultsSection(summaries, runs, machine, options));
      log(`wrote the results to ${path.relative(ROOT, docs)}`);
    }
  } finally {
    await cleanUp();
  }
  if (profileDir) printProfile(profileDir);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `[bench] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
