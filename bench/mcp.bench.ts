// `npm run bench:mcp`: judge_ticket over MCP (OAuth token, JSON-RPC, a server and transport per
// request) against POST /api/judge, on the same API process and the same fake gateway, at 1 and 32
// concurrent clients. Target: MCP adds under 2 ms at p50. Figures go to docs/performance.md.
import { authorizeAndExchange, callTool, registerClient } from '../test/support/oauth-flow.js';
import { TICKET } from '../test/support/packs.js';
import { median, runLoad, type LoadResult, type LoadTarget } from './harness/load.js';
import { log, runMain } from './harness/log.js';
import { num, nums, readOptions, settingsOf } from './harness/options.js';
import { printProfiles, profileFlags } from './harness/profile.js';
import { fixed, publish, runHeading, table, type Results } from './harness/report.js';
import { BenchRun, createTenant } from './harness/run.js';

const TARGET_P50_MS = 2;
const options = readOptions({
  gatewayDelayMs: num(50),
  warmup: num(3),
  duration: num(10),
  runs: num(3),
  connections: nums(1, 32),
});
const profile = options.profile ? profileFlags() : undefined;
const settings = settingsOf(options);

interface Measured {
  connections: number;
  rest: LoadResult[];
  mcp: LoadResult[];
}

interface McpResults extends Results<typeof settings> {
  measured: Measured[];
}

function render(r: McpResults): string {
  const s = r.settings;
  const two = fixed(2);
  return [
    runHeading(
      r,
      `fake gateway ${s.gatewayDelayMs} ms a call; ${s.runs} rounds of ${s.duration} s per setting after ` +
        `${s.warmup} s of warm-up, REST and MCP alternating; medians over the rounds. "MCP adds" is the median ` +
        'over rounds of (MCP p50 − REST p50) within a round',
    ),
    '',
    table(
      [
        'Clients',
        'REST p50 ms',
        'MCP p50 ms',
        'MCP adds ms',
        'REST req/s',
        'MCP req/s',
        `Target < ${TARGET_P50_MS} ms`,
      ],
      r.measured.map(({ connections, rest, mcp }) => {
        const added = median(rest.map((result, i) => mcp[i].p50 - result.p50));
        return [
          String(connections),
          two(median(rest.map((result) => result.p50))),
          two(median(mcp.map((result) => result.p50))),
          two(added),
          median(rest.map((result) => result.rps)).toFixed(0),
          median(mcp.map((result) => result.rps)).toFixed(0),
          added < TARGET_P50_MS ? 'met' : 'missed',
        ];
      }),
    ),
  ].join('\n');
}

async function checkTarget(name: string, target: LoadTarget): Promise<void> {
  const response = await fetch(target.url, { method: 'POST', headers: target.headers, body: target.body });
  const text = await response.text();
  if (response.status !== 200 || text.includes('"isError":true') || text.includes('gateway_'))
    throw new Error(`${name} answered ${response.status}: ${text.slice(0, 300)}`);
}

async function mcpBenchmark(run: BenchRun): Promise<void> {
  await run.gateway(options.gatewayDelayMs);
  const api = await run.api({ NODE_ENV: 'production' }, profile?.execArgv);
  const tenant = await createTenant(api.url);
  const client = (await registerClient(api.url, { client_name: 'bench' })).body as { client_id: string };
  const account = { email: tenant.email, password: tenant.password };
  const exchanged = await authorizeAndExchange(api.url, client.client_id, account);
  const tokens = exchanged.tokens as { access_token: string };
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
        authorization: `Bearer ${tokens.access_token}`,
      },
      body: JSON.stringify(callTool('judge_ticket', { packId: tenant.packId, ticket: TICKET })),
    },
  };
  await checkTarget('POST /api/judge', targets.rest);
  await checkTarget('judge_ticket over /mcp', targets.mcp);
  if (profile) {
    // Profile the MCP path alone: its CPU is what separates it from the REST route.
    await runLoad(targets.mcp, 32, options.duration);
    return;
  }
  log('warming both routes up for 10 s each');
  for (const target of [targets.rest, targets.mcp]) await runLoad(target, 32, 10);
  const measured: Measured[] = options.connections.map((connections) => ({ connections, rest: [], mcp: [] }));
  for (let round = 1; round <= options.runs; round++) {
    for (const setting of measured) {
      for (const kind of ['rest', 'mcp'] as const) {
        await runLoad(targets[kind], setting.connections, options.warmup);
        const result = await runLoad(targets[kind], setting.connections, options.duration);
        if (result.non2xx || result.errors)
          throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        setting[kind].push(result);
        log(
          `round ${round} ${kind} x${setting.connections}: p50 ${result.p50.toFixed(2)} ms, ${result.rps.toFixed(0)} req/s`,
        );
      }
    }
  }
  const at = new Date().toISOString();
  publish<McpResults>(
    { benchmark: 'mcp', at, machine: run.machine, settings, measured },
    render,
    options.writeDocs,
  );
}

runMain(async () => {
  await BenchRun.with('mcp', options, {}, mcpBenchmark);
  if (profile) printProfiles(profile.dir, 'API');
});
