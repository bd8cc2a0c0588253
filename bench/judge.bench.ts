// `npm run bench:judge`: the overhead of POST /api/judge above a fake model gateway with a fixed
// latency, at several connection counts. See docs/performance.md for the method and the figures.
import type { Answer } from '@app/domain';
import type { Client } from '../test/support/client.js';
import { createPublishedPack, TICKET, triageDocument } from '../test/support/packs.js';
import { growthInputs, type GrowthInput, type GrowthRun } from './harness/growth.js';
import { runLoad, type LoadTarget } from './harness/load.js';
import { log, runMain } from './harness/log.js';
import { flag, num, nums, readOptions, settingsOf } from './harness/options.js';
import { printProfiles, profileFlags } from './harness/profile.js';
import { cpuBetween, type Probe } from './harness/probes.js';
import type { Service } from './harness/processes.js';
import { publish } from './harness/report.js';
import type { CollectorStats } from './harness/serve-collector.js';
import { BenchRun, createTenant } from './harness/run.js';
import { render, summarize, type JudgeResults, type Run } from './judge.report.js';

const options = readOptions({
  gatewayDelayMs: num(50),
  warmup: num(3),
  duration: num(10),
  runs: num(3),
  connections: nums(32, 128),
  // A second API process with tracing on, exporting to a local collector (issue 25 §3).
  traced: flag(true),
  // Cost growth (issue 26): the plain API on larger tickets and a larger pack, at one connection count.
  growth: flag(true),
  growthConnections: num(32),
});

/** One judgment through the whole stack, then the exact chat request the API sent the gateway. */
async function checkJudgeAndCaptureRequest(judge: LoadTarget, gateway: Service): Promise<string> {
  const response = await fetch(judge.url, { method: 'POST', headers: judge.headers, body: judge.body });
  const body = (await response.json()) as { result?: { reviewReasons?: string[] } };
  if (response.status !== 200)
    throw new Error(
      `POST /api/judge answered ${response.status} ${JSON.stringify(body)} (BENCH_LOG_LEVEL=error shows the API's log)`,
    );
  const reasons = body.result?.reviewReasons ?? [];
  if (reasons.some((reason) => reason.startsWith('gateway_') || reason === 'invalid_model_output'))
    throw new Error(`the judgment did not go through the gateway: ${reasons.join(', ')}`);
  const captured = await gateway.ask('last-request');
  if (typeof captured !== 'string' || captured === 'null') throw new Error('the gateway saw no request');
  return captured;
}

type Target = Run['target'];
/**
 * What autocannon sends to each server; set once the tenant and the captured chat request exist.
 * `traced` only with `BENCH_TRACED` (the default).
 */
let targets: Record<Exclude<Target, 'traced'>, LoadTarget> & { traced?: LoadTarget };

/** Each round's order: every judge variant sits right after the gateway and bare runs it is compared with. */
function measuredTargets(): Target[] {
  return ['gateway', 'bare', 'judge', 'audited', ...(targets.traced ? (['traced'] as const) : [])];
}

/** One measured load, with the CPU the server under test and the scratch database's backends spent on it. */
async function measureOnce(
  probe: Probe,
  target: Target,
  servers: Partial<Record<Target, Service>>,
  connections: number,
) {
  const server = servers[target]!;
  // After the warm-up, the server's pool has opened all the connections it will use (the other
  // server's backends are idle meanwhile, so counting them too changes nothing).
  const postgres = target === 'gateway' ? [] : await probe.postgresPids();
  const watched = { server: [server.pid], postgres };
  const before = await probe.snapshot(watched);
  const result = await runLoad(targets[target]!, connections, options.duration);
  const cpu = cpuBetween(before, await probe.snapshot(watched));
  const responses = Math.max(1, result.responses);
  const cpuMsPerResponse = {
    server: cpu.groups.server / responses,
    postgres: cpu.groups.postgres / responses,
  };
  return { result, cpuMsPerResponse, loadGeneratorCpuMs: cpu.own / responses, serverRssMb: cpu.rssMb.server };
}

async function measure(probe: Probe, servers: Partial<Record<Target, Service>>): Promise<Run[]> {
  const runs: Run[] = [];
  // A few seconds of load do not get Nest, TypeORM and the gateway's HTTP client through V8's optimizing
  // compiler; without this, the first round measures the JIT.
  const firstWarmup = Math.max(10, options.warmup);
  const most = Math.max(...options.connections);
  log(`warming the API and the bare route up for ${firstWarmup} s each`);
  await runLoad(targets.judge, most, firstWarmup);
  await runLoad(targets.bare, most, firstWarmup);
  await runLoad(targets.audited, most, options.warmup);
  if (targets.traced) await runLoad(targets.traced, most, firstWarmup);
  // Rounds go across every setting, so slow phases of a noisy machine spread over all of them,
  // and each judge run sits right after the gateway run it is compared with.
  for (let round = 1; round <= options.runs; round++) {
    for (const connections of options.connections) {
      for (const target of measuredTargets()) {
        await runLoad(targets[target]!, connections, options.warmup);
        const measured = await measureOnce(probe, target, servers, connections);
        const { result, cpuMsPerResponse: cpu } = measured;
        const dead = Object.values(servers).find((service) => service?.died);
        if (dead) throw new Error(`${dead.name} died during the run`);
        runs.push({
          round,
          connections,
          target,
          result,
          cpuMsPerResponse: cpu,
          serverRssMb: measured.serverRssMb,
        });
        log(
          `round ${round}/${options.runs} ${target} x${connections}: ${result.rps.toFixed(0)} rps, ` +
            `p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms, ` +
            `CPU/req ${cpu.server.toFixed(2)} ms (+ Postgres ${cpu.postgres.toFixed(2)} ms, ` +
            `autocannon ${measured.loadGeneratorCpuMs.toFixed(2)} ms), ` +
            `non-2xx ${result.non2xx}, errors ${result.errors}`,
        );
      }
    }
  }
  return runs;
}

/** A reviewer's answer that agrees with the judge's. */
function agreeingLabel(answer: Answer): Answer {
  if (answer.type === 'choice') return { type: 'choice', choice: answer.choice };
  if (answer.type === 'score') return { type: 'score', score: answer.score };
  return { type: 'boolean', probability: answer.probability >= 0.5 ? 1 : 0 };
}

/**
 * The tenant's second pack, the triage document with `review.useCalibrated` on every question, its
 * maps fitted on 12 agreeing labels, then the audit on at 0.05 with the `uncertainty` strategy: each
 * judgment then reads the maps, draws with the pack's ū, and stores π.
 */
async function auditedPack(
  client: Client,
  judgeUrl: string,
  headers: Record<string, string>,
): Promise<string> {
  const document = triageDocument();
  for (const question of document.questions) Object.assign(question.review, { useCalibrated: true });
  const pack = (await createPublishedPack(client, document, 'Audited triage')) as { id: string };
  for (let i = 0; i < 12; i++) {
    const response = await fetch(judgeUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify({ packId: pack.id, ticket: TICKET }),
    });
    const { evaluationId, result } = (await response.json()) as {
      evaluationId: string;
      result: { answers: Record<string, Answer> };
    };
    for (const [questionId, answer] of Object.entries(result.answers)) {
      const labeled = await client.post(`/api/evaluations/${evaluationId}/labels`, {
        questionId,
        answer: agreeingLabel(answer),
      });
      if (labeled.status !== 201) throw new Error(`label: ${labeled.status} ${labeled.text}`);
    }
  }
  const fit = await client.post<{ questions: Array<{ map: unknown }> }>(
    `/api/packs/${pack.id}/calibration/fit`,
  );
  if (fit.status !== 200 || fit.body.questions.some((question) => !question.map))
    throw new Error(`calibration fit: ${fit.status} ${fit.text}`);
  const audit = await client.put(`/api/packs/${pack.id}/audit`, { rate: 0.05, strategy: 'uncertainty' });
  if (audit.status !== 200) throw new Error(`audit settings: ${audit.status} ${audit.text}`);
  return pack.id;
}

/** The growth inputs, each checked with one judgment that answers every question. */
async function checkedGrowthInputs(client: Client, judge: LoadTarget, packId: string) {
  const inputs = await growthInputs(client, packId);
  for (const input of inputs) {
    const response = await fetch(judge.url, { method: 'POST', headers: judge.headers, body: input.body });
    const body = (await response.json()) as { result?: { answers?: object; reviewReasons?: string[] } };
    const answered = Object.keys(body.result?.answers ?? {}).length;
    const reasons = body.result?.reviewReasons ?? [];
    if (
      response.status !== 200 ||
      answered !== input.questions ||
      reasons.some((r) => r.startsWith('gateway_'))
    )
      throw new Error(`growth input ${input.name}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  return inputs;
}

/** Each round, each input in turn on the plain API: warmed up, then measured as the main rounds are. */
async function measureGrowth(
  probe: Probe,
  api: Service,
  judge: LoadTarget,
  inputs: Array<GrowthInput & { body: string }>,
): Promise<GrowthRun[]> {
  const runs: GrowthRun[] = [];
  const connections = options.growthConnections;
  for (let round = 1; round <= options.runs; round++) {
    for (const input of inputs) {
      const target = { ...judge, body: input.body };
      await runLoad(target, connections, options.warmup);
      const postgres = await probe.postgresPids();
      const before = await probe.snapshot({ server: [api.pid], postgres });
      const result = await runLoad(target, connections, options.duration);
      const cpu = cpuBetween(before, await probe.snapshot({ server: [api.pid], postgres }));
      if (api.died) throw new Error('the API died during the growth runs');
      if (result.non2xx || result.errors)
        throw new Error(`growth input ${input.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      const responses = Math.max(1, result.responses);
      const cpuMs = { API: cpu.groups.server / responses, Postgres: cpu.groups.postgres / responses };
      const { rps, p50, p99 } = result;
      runs.push({ round, input: input.name, connections, rps, p50, p99, cpuMs });
      log(
        `growth round ${round}/${options.runs} ${input.name} x${connections}: ${rps.toFixed(0)} rps, ` +
          `p50 ${p50.toFixed(1)} ms, CPU/req ${cpuMs.API.toFixed(2)} ms (+ Postgres ${cpuMs.Postgres.toFixed(2)} ms)`,
      );
    }
  }
  return runs;
}

/**
 * A second API process on the same database and Redis with OTEL_EXPORTER_OTLP_ENDPOINT set, so
 * every judgment is traced (request, Redis, Postgres and the model call) and exported in batches to
 * a local collector; the first API, the `judge` target, runs with it unset, as by default.
 */
async function tracedApi(run: BenchRun, judge: LoadTarget) {
  const collector = await run.serve('OTLP collector', 'harness/serve-collector.js', process.env);
  const api = await run.api({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.url }, profile?.execArgv);
  log(`traced API ${api.url} (pid ${api.pid}), exporting to ${collector.url}`);
  const response = await fetch(`${api.url}/api/judge`, {
    method: 'POST',
    headers: judge.headers,
    body: judge.body,
  });
  if (response.status !== 200) throw new Error(`the traced API answered ${response.status}`);
  return { api, collector };
}

const profile = options.profile ? profileFlags() : undefined;
async function judgeBenchmark(run: BenchRun): Promise<void> {
  const gateway = await run.gateway(options.gatewayDelayMs);
  const api = await run.api({}, profile?.execArgv);
  log(
    `gateway ${gateway.url} (pid ${gateway.pid}), API ${api.url} (pid ${api.pid}), database ${run.databaseName}`,
  );
  const tenant = await createTenant(api.url);
  const judge: LoadTarget = {
    url: `${api.url}/api/judge`,
    headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
    body: JSON.stringify({ packId: tenant.packId, ticket: TICKET }),
  };
  const chatRequest = await checkJudgeAndCaptureRequest(judge, gateway);
  const bare = await run.serve('bare judge route', 'judge.bare.js', {
    ...process.env,
    DATABASE_URL: run.database('tj-bare'),
    BENCH_GATEWAY_URL: gateway.url,
    BENCH_CHAT_REQUEST: chatRequest,
    BENCH_PACK_ID: tenant.packId,
  });
  const auditedPackId = await auditedPack(tenant.client, judge.url, judge.headers);
  targets = {
    judge,
    audited: { ...judge, body: JSON.stringify({ packId: auditedPackId, ticket: TICKET }) },
    bare: { url: `${bare.url}/bare`, headers: judge.headers, body: judge.body },
    gateway: {
      url: `${gateway.url}/chat/completions`,
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-set' },
      body: chatRequest,
    },
  };
  const traced = options.traced ? await tracedApi(run, judge) : undefined;
  if (traced) targets.traced = { ...judge, url: `${traced.api.url}/api/judge` };
  const runs = await measure(await run.probe(), {
    gateway,
    bare,
    judge: api,
    audited: api,
    ...(traced ? { traced: traced.api } : {}),
  });
  const collected = traced ? ((await traced.collector.ask('stats')) as CollectorStats) : undefined;
  const inputs = options.growth ? await checkedGrowthInputs(tenant.client, judge, tenant.packId) : [];
  const growth = inputs.length ? await measureGrowth(await run.probe(), api, judge, inputs) : [];
  if (collected && collected.exports === 0) throw new Error('the traced API exported no spans');
  const results: JudgeResults = {
    benchmark: 'judge',
    at: new Date().toISOString(),
    machine: run.machine,
    settings: settingsOf(options),
    summaries: options.connections.map((connections) => summarize(runs, connections)),
    ...(collected ? { collector: collected } : {}),
    runs,
    ...(growth.length
      ? {
          growth: {
            inputs: inputs.map(({ body: _body, ...input }) => input),
            groups: ['API', 'Postgres'],
            runs: growth,
          },
        }
      : {}),
  };
  publish(results, render, options.writeDocs);
}
runMain(async () => {
  await BenchRun.with('judge', options, {}, judgeBenchmark);
  if (profile) printProfiles(profile.dir, 'API');
});
