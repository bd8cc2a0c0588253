// `npm run bench:mcp`: judge_ticket over MCP (OAuth token, JSON-RPC, a server and transport per
// request) against POST /api/judge, on the same API process and the same fake gateway, at 1 and 32
// concurrent clients. Target: MCP adds under 2 ms at p50. Figures go to docs/performance.md.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchChild } from './child-process.js';
import { summarizeCpuProfile, type ProfileLine } from './cpu-profile.js';
import { writeNamedSection } from './docs-section.js';
import { median, runLoad, type LoadResult, type LoadTarget } from './load.js';
import {
  createScratchDatabase,
  deleteRedisNamespace,
  dropScratchDatabase,
  postgresVersion,
} from './scratch-stores.js';
import { createTenant, TICKET } from './tenant.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_BENCH = path.dirname(fileURLToPath(import.meta.url));
const TARGET_P50_MS = 2;
/** BENCH_PROFILE=1: profile the API under MCP load only, print where its CPU goes, write no figures. */
const PROFILE = process.env.BENCH_PROFILE === '1';

const env = process.env;
const OPTIONS = {
  gatewayDelayMs: Number(env.BENCH_GATEWAY_DELAY_MS ?? 50),
  warmupSeconds: Number(env.BENCH_WARMUP ?? 3),
  durationSeconds: Number(env.BENCH_DURATION ?? 10),
  rounds: Number(env.BENCH_RUNS ?? 3),
  connections: (env.BENCH_CONNECTIONS || '1,32').split(',').map(Number),
  databaseUrl: env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge',
  redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
};

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** Cookies of one browser, enough for the sign-up, consent and token steps. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as object), cookie },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }
}

/** An OAuth access token for the tenant's user, through registration, consent and the code exchange. */
async function accessToken(baseUrl: string, email: string, password: string): Promise<string> {
  const jar = new CookieJar();
  const json = { 'content-type': 'application/json' };
  const signIn = await jar.fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);
  const redirectUri = 'http://127.0.0.1:49152/callback';
  const registered = (await (
    await fetch(`${baseUrl}/oauth/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        client_name: 'bench',
        redirect_uris: [redirectUri],
        token_endpoint_auth_method: 'none',
      }),
    })
  ).json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: registered.client_id,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  const page = await (await jar.fetch(`${baseUrl}/consent?${query.toString()}`)).text();
  const fields = Object.fromEntries(
    [...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
      m[1],
      m[2].replace(/&amp;/g, '&'),
    ]),
  );
  const approved = await jar.fetch(`${baseUrl}/consent`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: baseUrl },
    body: new URLSearchParams({ ...fields, decision: 'approve' }).toString(),
  });
  const code = new URL(approved.headers.get('location') ?? 'http://x/').searchParams.get('code');
  if (!code) throw new Error(`consent answered ${approved.status} without a code`);
  const tokens = (await (
    await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: registered.client_id,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      }).toString(),
    })
  ).json()) as { access_token: string };
  return tokens.access_token;
}

async function checkTarget(name: string, target: LoadTarget): Promise<void> {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true') || text.includes('gateway_')) {
    throw new Error(`${name} answered ${response.status}: ${text.slice(0, 300)}`);
  }
}

interface Measured {
  connections: number;
  rest: LoadResult[];
  mcp: LoadResult[];
}

function report(measured: Measured[], postgres: string): string {
  const rows = measured.map(({ connections, rest, mcp }) => {
    const restP50 = median(rest.map((r) => r.p50));
    const mcpP50 = median(mcp.map((r) => r.p50));
    const added = median(rest.map((r, i) => mcp[i].p50 - r.p50));
    return `| ${connections} | ${restP50.toFixed(2)} | ${mcpP50.toFixed(2)} | ${added.toFixed(2)} | ${median(rest.map((r) => r.rps)).toFixed(0)} | ${median(mcp.map((r) => r.rps)).toFixed(0)} | ${added < TARGET_P50_MS ? 'met' : 'missed'} |`;
  });
  return [
    `### Latest run (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `Machine: ${os.availableParallelism()} CPUs, Node ${process.version}, ${postgres}. Fake gateway ${OPTIONS.gatewayDelayMs} ms a call; ${OPTIONS.rounds} rounds of ${OPTIONS.durationSeconds} s per setting after ${OPTIONS.warmupSeconds} s of warm-up, REST and MCP alternating; medians over the rounds. "MCP adds" is the median over rounds of (MCP p50 − REST p50) within a round.`,
    '',
    '| Clients | REST p50 ms | MCP p50 ms | MCP adds ms | REST req/s | MCP req/s | Target < 2 ms |',
    '| -: | -: | -: | -: | -: | -: | - |',
    ...rows,
  ].join('\n');
}

function printProfile(file: string): void {
  const summary = summarizeCpuProfile(file);
  const lines = (title: string, entries: ProfileLine[]) => [
    title,
    ...entries.map(
      (e) => `  ${(e.share * 100).toFixed(1).padStart(5)}%  ${e.ms.toFixed(0).padStart(7)} ms  ${e.name}`,
    ),
  ];
  console.log(
    [
      `API CPU profile ${file}: ${summary.busyMs.toFixed(0)} ms busy`,
      ...lines('Inclusive time by package or app folder:', summary.inclusiveByArea),
      ...lines('Self time by function:', summary.selfByFunction),
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  const name = `tj_bench_mcp_${Date.now()}`;
  const prefix = `tjbench-mcp-${Date.now()}`;
  const databaseUrl = await createScratchDatabase(OPTIONS.databaseUrl, name);
  const children: BenchChild[] = [];
  try {
    const gateway = await BenchChild.start('gateway', path.join(DIST_BENCH, 'serve-gateway.js'), {
      env: { ...env, BENCH_GATEWAY_DELAY_MS: String(OPTIONS.gatewayDelayMs) },
    });
    children.push(gateway);
    const profileDir = PROFILE ? mkdtempSync(path.join(os.tmpdir(), 'mcp-profile-')) : undefined;
    const api = await BenchChild.start('api', path.join(DIST_BENCH, 'serve-api.js'), {
      execArgv: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [],
      env: {
        ...env,
        NODE_ENV: 'production',
        SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
        DATABASE_URL: databaseUrl,
        REDIS_URL: OPTIONS.redisUrl,
        REDIS_PREFIX: prefix,
        MODEL_GATEWAY_URL: gateway.url,
        API_RATE_LIMIT_PER_DAY: '100000000',
        MIGRATE_ON_START: 'true',
        LOG_LEVEL: env.BENCH_LOG_LEVEL ?? 'silent',
      },
    });
    children.push(api);
    const email = `bench-${randomBytes(6).toString('hex')}@example.com`;
    const password = `bench-${randomBytes(6).toString('hex')}`;
    const tenant = await createTenant(api.url, { email, password });
    const token = await accessToken(api.url, email, password);
    const targets: Record<'rest' | 'mcp', LoadTarget> = {
      rest: {
        url: `${api.url}/api/judge`,
        headers: { 'content-type': 'application/json', 'x-api-key': tenant.apiKey },
        body: JSON.stringify({ packId: tenant.packId, ticket: TICKET }),
      },
      mcp: {
        url: `${api.url}/mcp`,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'judge_ticket', arguments: { packId: tenant.packId, ticket: TICKET } },
        }),
      },
    };
    await checkTarget('POST /api/judge', targets.rest);
    await checkTarget('judge_ticket over /mcp', targets.mcp);
    if (profileDir) {
      // Profile the MCP path alone: its CPU is what separates it from the REST route.
      await runLoad(targets.mcp, 32, OPTIONS.durationSeconds);
      await api.stop();
      for (const file of readdirSync(profileDir)) printProfile(path.join(profileDir, file));
      return;
    }
    log('warming both routes up for 10 s each');
    for (const target of [targets.rest, targets.mcp]) await runLoad(target, 32, 10);
    const measured: Measured[] = OPTIONS.connections.map((connections) => ({
      connections,
      rest: [],
      mcp: [],
    }));
    for (let round = 1; round <= OPTIONS.rounds; round++) {
      for (const setting of measured) {
        for (const kind of ['rest', 'mcp'] as const) {
          await runLoad(targets[kind], setting.connections, OPTIONS.warmupSeconds);
          const result = await runLoad(targets[kind], setting.connections, OPTIONS.durationSeconds);
          if (result.non2xx || result.errors)
            throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
          setting[kind].push(result);
          log(
            `round ${round} ${kind} x${setting.connections}: p50 ${result.p50.toFixed(2)} ms, ${result.rps.toFixed(0)} req/s`,
          );
        }
      }
    }
    const section = report(measured, await postgresVersion(OPTIONS.databaseUrl));
    console.log(section);
    if (env.BENCH_WRITE_DOCS !== '0')
      writeNamedSection(path.join(ROOT, 'docs/performance.md'), 'mcp', section);
  } finally {
    for (const child of children.reverse()) await child.stop();
    await dropScratchDatabase(OPTIONS.databaseUrl, name).catch(() => undefined);
    await deleteRedisNamespace(OPTIONS.redisUrl, prefix).catch(() => undefined);
  }
}

await main();
