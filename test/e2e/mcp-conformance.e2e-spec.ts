import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startApi, type TestApi } from '../support/api.js';
import { PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import { authorizeAndExchange, registerClient } from '../support/oauth-flow.js';

const run = promisify(execFile);

/**
 * The official conformance runner's server scenarios that apply to this server. The others drive
 * the runner's own fixture server (tools named test_simple_text, test_image_content, prompts,
 * subscriptions, sampling, elicitation; json-schema-2020-12 wants its json_schema_2020_12_tool), which
 * this service does not have; mcp.e2e-spec compiles every tool schema under 2020-12 instead. 0.1.16 has
 * scenarios for revisions 2025-06-18 and 2025-11-25 only; none for 2026-07-28 yet.
 */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

/** The runner needs Node 22 or newer (fs.globSync); under Node 20 it runs on the LTS binary. */
async function nodeForRunner(): Promise<string> {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const { stdout } = await run('bash', ['scripts/node-lts.sh']);
  return stdout.trim();
}

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/**
 * /mcp needs an OAuth access token and the runner sends none: a reverse proxy in front of the API
 * adds the bearer token of a real grant, as an authenticated client would, and changes nothing
 * else (Host and Origin pass through, so the DNS rebinding check meets the API's own).
 */
function tokenProxy(upstreamOf: () => { target: URL; token: string }): Server {
  return createServer((incoming, outgoing) => {
    const { target, token } = upstreamOf();
    const headers = { ...incoming.headers };
    if (incoming.url?.startsWith('/mcp') && !headers.authorization) headers.authorization = `Bearer ${token}`;
    const upstream = httpRequest(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    incoming.pipe(upstream);
  });
}

describe('the official MCP conformance runner (@modelcontextprotocol/conformance)', () => {
  let api: TestApi;
  let proxy: Server;
  let proxyUrl: string;
  let token = '';
  let output: string;

  beforeAll(async () => {
    // The proxy's port comes first: it is the API's public origin.
    proxy = tokenProxy(() => ({ target: new URL(api.url), token }));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    // The API's public origin is the proxy's, as behind any reverse proxy with PUBLIC_URL set.
    api = await startApi({ PUBLIC_URL: proxyUrl });
    const email = uniqueEmail('conformance');
    await signUp(api.url, email);
    const clientId = (await registerClient(proxyUrl)).body.client_id;
    token = (await authorizeAndExchange(proxyUrl, clientId, { email, password: PASSWORD })).tokens
      .access_token;
    output = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'));
  });
  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await api?.close();
    if (output) await rm(output, { recursive: true, force: true });
  });

  it.each(SCENARIOS)('passes %s', async (scenario) => {
    const runner = path.resolve('node_modules/@modelcontextprotocol/conformance/dist/index.js');
    const dir = path.join(output, scenario);
    const result = await run(
      await nodeForRunner(),
      [runner, 'server', '--url', `${proxyUrl}/mcp`, '--scenario', scenario, '--output-dir', dir],
      { timeout: 60_000 },
    ).catch((error: { stdout?: string; stderr?: string; code?: number }) => error);
    const files = await readdir(dir, { recursive: true });
    const checksFile = files.find((file) => file.endsWith('checks.json'));
    expect({ scenario, checksFile, result }).toMatchObject({ checksFile: expect.any(String) });
    const checks = JSON.parse(await readFile(path.join(dir, checksFile!), 'utf8')) as Check[];
    const failed = checks.filter((check) => check.status === 'FAILURE');
    expect(failed).toEqual([]);
    expect(checks.filter((check) => check.status === 'SUCCESS').length).toBeGreaterThan(0);
  });
});
