import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, PASSWORD, signUp, uniqueEmail, type Client } from '../support/client.js';
import {
  authorizeInBrowser,
  Browser,
  connectMcpClient,
  connectMcpClientV2,
  recordingFetch,
  TestOAuthProvider,
  type ToolClient,
} from '../support/mcp-client.js';
import { authorizeAndExchange, callTool, mcpCall, registerClient } from '../support/oauth-flow.js';
import { createPack, createPublishedPack, TICKET } from '../support/packs.js';

const TOOLS = [
  'list_packs',
  'get_pack',
  'compare_pack_versions',
  'judge_ticket',
  'get_evaluation',
  'list_reviews',
  'label_evaluation',
  'delete_label',
  'get_stats',
  'list_datasets',
  'start_simulation',
  'get_simulation',
  'list_simulations',
  'start_shadow_run',
  'get_shadow_run',
  'get_calibration',
  'get_quality',
];

/** The two stock clients: each connects through the whole OAuth flow, in its own revision. */
const SDK_CLIENTS = [
  { sdk: 'the v1 SDK client (revision 2025-11-25, initialize)', connect: connectMcpClient, era: 'legacy' },
  { sdk: 'the v2 SDK client (revision 2026-07-28, stateless)', connect: connectMcpClientV2, era: 'modern' },
] as const;
type Connect = (typeof SDK_CLIENTS)[number]['connect'];

interface Tenant {
  email: string;
  keyed: Client;
  mcp: ToolClient;
}

/** A user, an API key for comparing with REST, and a stock MCP client signed in through OAuth. */
async function tenant(
  baseUrl: string,
  connect: Connect = connectMcpClient,
  fetchFn: typeof fetch = fetch,
): Promise<Tenant> {
  const email = uniqueEmail('mcp');
  const { client: session } = await signUp(baseUrl, email);
  const { client: keyed } = await createKey(session);
  const { client: mcp } = await connect(
    new URL(`${baseUrl}/mcp`),
    new TestOAuthProvider(),
    (url) => authorizeInBrowser(new Browser(), url, { email, password: PASSWORD }),
    fetchFn,
  );
  return { email, keyed, mcp };
}

async function structured(mcp: ToolClient, name: string, args: Record<string, unknown> = {}) {
  const result = await mcp.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent;
}

async function toolError(mcp: ToolClient, name: string, args: Record<string, unknown>): Promise<string> {
  const result = await mcp.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  return (result.content as Array<{ type: string; text: string }>)[0].text;
}

describe.each(SDK_CLIENTS)('MCP tools over OAuth with $sdk, against the REST answers', ({ connect, era }) => {
  let api: TestApi;
  let a: Tenant;
  let b: Tenant;
  const recorded = recordingFetch();

  beforeAll(async () => {
    // Its own queue namespace and no worker: simulations stay queued, so both reads agree.
    api = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-mcp-${era}` });
    [a, b] = await Promise.all([tenant(api.url, connect, recorded.fetch), tenant(api.url, connect)]);
  });

  it(`speaks its own revision (${era === 'modern' ? '2026-07-28' : '2025-11-25'}) on the one endpoint`, async () => {
    await a.mcp.listTools();
    const methods = recorded.sent.map((message) => message.method);
    if (era === 'legacy') {
      expect(methods[0]).toBe('initialize');
      expect(recorded.sent[0].body.params.protocolVersion).toBe('2025-11-25');
      expect(methods).not.toContain('server/discover');
      return;
    }
    // No handshake: a discovery probe, then every request carries the revision and the client.
    expect(methods[0]).toBe('server/discover');
    expect(methods).not.toContain('initialize');
    expect(methods).toContain('tools/list');
    for (const message of recorded.sent.filter((sent) => sent.body.id !== undefined)) {
      expect(message.headers.get('mcp-protocol-version')).toBe('2026-07-28');
      expect(message.headers.get('mcp-session-id')).toBeNull();
      expect(message.body.params._meta).toMatchObject({
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'headless-test-v2' },
      });
    }
  });
  afterAll(async () => {
    await a?.mcp.close();
    await b?.mcp.close();
    await api.close();
  });

  it('lists the fourteen tools, each with a description, input and output schemas, and hints', async () => {
    const { tools } = await a.mcp.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.description!.length).toBeGreaterThan(30);
      expect(tool.description).toMatch(/Needs the [a-z]+:[a-z]+ scope\.$/);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema?.type).toBe('object');
      expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
    }
    // Valid JSON Schema 2020-12 (the dialect each names), compiled strictly: no unknown keywords
    // (formats are annotations in 2020-12, as Ajv reads them without validateFormats).
    const ajv = new Ajv2020({ strictSchema: true, strictTypes: false, validateFormats: false });
    for (const tool of tools) {
      for (const schema of [tool.inputSchema, tool.outputSchema]) {
        expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
        expect(ajv.validateSchema(schema)).toBe(true);
        expect(() => ajv.compile(schema)).not.toThrow();
      }
    }
    const judge = tools.find((tool) => tool.name === 'judge_ticket')!;
    expect(Object.keys(judge.inputSchema.properties).sort()).toEqual(['idempotencyKey', 'packId', 'ticket']);
    expect(judge.inputSchema.required).toEqual(['packId', 'ticket']);
  });

  it('answers every tool with the JSON of its REST route', async () => {
    const { keyed, mcp } = a;
    const pack = await createPublishedPack(keyed);
    await keyed.patch(`/api/packs/${pack.id}`, { name: 'Triage v2' });
    expect(await structured(mcp, 'list_packs')).toEqual({ items: (await keyed.get('/api/packs')).body });
    expect(await structured(mcp, 'get_pack', { packId: pack.id })).toEqual(
      (await keyed.get(`/api/packs/${pack.id}`)).body,
    );
    const compare = { packId: pack.id, from: pack.liveVersionId, to: pack.draftVersionId };
    expect(await structured(mcp, 'compare_pack_versions', compare)).toEqual(
      (await keyed.get(`/api/packs/${pack.id}/compare?from=${compare.from}&to=${compare.to}`)).body,
    );

    const judged = await structured(mcp, 'judge_ticket', { packId: pack.id, ticket: TICKET });
    expect(judged).toMatchObject({ evaluationId: expect.any(String), packVersionId: pack.liveVersionId });
    const evaluation = await structured(mcp, 'get_evaluation', { evaluationId: judged.evaluationId });
    expect(evaluation).toEqual((await keyed.get(`/api/evaluations/${judged.evaluationId}`)).body);
    expect(evaluation.source).toBe('mcp');
    expect(evaluation.result).toEqual(judged.result);

    const label = await structured(mcp, 'label_evaluation', {
      evaluationId: judged.evaluationId,
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing' },
      note: 'checked by an assistant',
    });
    const labels = (await keyed.get(`/api/evaluations/${judged.evaluationId}`)).body.labels;
    expect(labels).toEqual([label]);
    expect(await structured(mcp, 'list_reviews', { packId: pack.id })).toEqual(
      (await keyed.get(`/api/reviews?packId=${pack.id}`)).body,
    );
    expect(await structured(mcp, 'list_reviews', { labeled: 'true' })).toEqual(
      (await keyed.get('/api/reviews?labeled=true')).body,
    );
    // `source` as over HTTP (the tool's judgments are `mcp`'s).
    const mcpReviews = (await keyed.get('/api/reviews?source=mcp')).body;
    expect(await structured(mcp, 'list_reviews', { source: ['mcp', 'webhook'] })).toEqual(mcpReviews);
    expect(await structured(mcp, 'list_reviews', { source: ['simulation', 'playground'] })).toEqual({
      items: [],
      nextCursor: null,
      total: 0,
      totalCapped: false,
    });
    expect(mcpReviews.total).toBe(evaluation.status === 'review' ? 1 : 0);
    expect(await structured(mcp, 'get_calibration', { packId: pack.id })).toEqual(
      (await keyed.get(`/api/packs/${pack.id}/calibration`)).body,
    );
    expect(await structured(mcp, 'get_calibration', { packId: pack.id, delta: 0.05 })).toEqual(
      (await keyed.get(`/api/packs/${pack.id}/calibration?delta=0.05`)).body,
    );
    expect(await structured(mcp, 'get_quality', { packId: pack.id, confidence: 0.9 })).toEqual(
      (await keyed.get(`/api/packs/${pack.id}/quality?confidence=0.9`)).body,
    );
    expect(
      await structured(mcp, 'delete_label', { evaluationId: judged.evaluationId, labelId: label.id }),
    ).toEqual({
      evaluationId: judged.evaluationId,
      labelId: label.id,
      deleted: true,
    });
    expect((await keyed.get(`/api/evaluations/${judged.evaluationId}`)).body.labels).toEqual([]);
    expect(await structured(mcp, 'get_stats')).toEqual((await keyed.get('/api/stats')).body);
    // `source` as over HTTP: the playground's and simulations' figures apart from live traffic.
    const experiments = await structured(mcp, 'get_stats', { source: ['playground', 'simulation'] });
    expect(experiments).toEqual((await keyed.get('/api/stats?source=playground,simulation')).body);
    expect(experiments.evaluationsToday).toBe(0);
    expect((await structured(mcp, 'get_stats', { source: ['mcp'] })).evaluationsToday).toBeGreaterThan(0);

    const dataset = (await keyed.post('/api/datasets', { name: 'mcp tickets' })).body;
    await keyed.post(`/api/datasets/${dataset.id}/tickets`, {
      tickets: [TICKET, { ...TICKET, externalId: 'ZD-1002' }],
    });
    expect(await structured(mcp, 'list_datasets')).toEqual((await keyed.get('/api/datasets')).body);
    const started = await structured(mcp, 'start_simulation', { datasetId: dataset.id, packId: pack.id });
    expect(started).toEqual({ id: expect.any(String) });
    expect(await structured(mcp, 'get_simulation', { simulationId: started.id })).toEqual(
      (await keyed.get(`/api/simulations/${started.id}`)).body,
    );
    expect(await structured(mcp, 'list_simulations')).toEqual((await keyed.get('/api/simulations')).body);

    // A shadow run as over HTTP: started with the tool, read back the same both ways.
    const shadow = await structured(mcp, 'start_shadow_run', {
      packId: pack.id,
      sampleRate: 0.25,
      maxJudgments: 5,
    });
    expect(shadow).toMatchObject({ packId: pack.id, sampleRate: 0.25, maxJudgments: 5, status: 'active' });
    expect(await structured(mcp, 'get_shadow_run', { shadowRunId: shadow.id })).toEqual(
      (await keyed.get(`/api/shadow-runs/${shadow.id}`)).body,
    );
    expect(await toolError(mcp, 'start_shadow_run', { packId: pack.id })).toBe('shadow run already active');
  });

  it('serves published packs as pack:// resources with their live document', async () => {
    const pack = await createPublishedPack(a.keyed);
    const draftOnly = await createPack(a.keyed, undefined, 'Draft only');
    const { resources } = await a.mcp.listResources();
    expect(resources.map((resource) => resource.uri)).toContain(`pack://${pack.id}`);
    expect(resources.map((resource) => resource.uri)).not.toContain(`pack://${draftOnly.id}`);
    const { resourceTemplates } = await a.mcp.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'pack://{packId}' })]);
    const read = await a.mcp.readResource({ uri: `pack://${pack.id}` });
    const live = (await a.keyed.get(`/api/packs/${pack.id}`)).body;
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({
      id: pack.id,
      name: live.name,
      liveVersionId: live.liveVersionId,
      document: live.liveDocument,
    });
    await expect(b.mcp.readResource({ uri: `pack://${pack.id}` })).rejects.toThrow(/pack not found/);
    await expect(a.mcp.readResource({ uri: `pack://${draftOnly.id}` })).rejects.toThrow(
      /pack has no published version/,
    );
    await expect(a.mcp.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(/unknown resource/);
  });

  it('answers failures as tool errors with the REST message', async () => {
    const { keyed, mcp } = a;
    const missing = '00000000-0000-4000-8000-000000000000';
    expect(await toolError(mcp, 'judge_ticket', { packId: missing, ticket: TICKET })).toBe('pack not found');
    const draftOnly = await createPack(keyed);
    expect(await toolError(mcp, 'judge_ticket', { packId: draftOnly.id, ticket: TICKET })).toBe(
      'pack has no published version',
    );
    expect(await toolError(mcp, 'get_evaluation', { evaluationId: missing })).toBe('evaluation not found');
    expect(await toolError(mcp, 'get_pack', { packId: 'not-a-uuid' })).toBe('pack not found');
    const invalid = await toolError(mcp, 'judge_ticket', { packId: missing, ticket: [] });
    expect(invalid.split('\n')[0]).toBe('invalid request');
    expect(JSON.parse(invalid.slice(invalid.indexOf('\n') + 1))).toMatchObject({
      error: 'invalid request',
      issues: [expect.objectContaining({ path: 'ticket' })],
    });
    expect(await toolError(mcp, 'list_packs', { surprise: 1 })).toMatch(/^invalid request/);
    expect(await toolError(mcp, 'no_such_tool', {})).toMatch(/no_such_tool/);
  });

  it('never shows one user another user’s records', async () => {
    const pack = await createPublishedPack(a.keyed);
    const judged = await structured(a.mcp, 'judge_ticket', { packId: pack.id, ticket: TICKET });
    const dataset = (await a.keyed.post('/api/datasets', { name: 'private' })).body;
    const simulation = (await a.keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }))
      .body;
    expect(await toolError(b.mcp, 'get_pack', { packId: pack.id })).toBe('pack not found');
    expect(await toolError(b.mcp, 'judge_ticket', { packId: pack.id, ticket: TICKET })).toBe(
      'pack not found',
    );
    expect(await toolError(b.mcp, 'get_evaluation', { evaluationId: judged.evaluationId })).toBe(
      'evaluation not found',
    );
    expect(await toolError(b.mcp, 'get_simulation', { simulationId: simulation.id })).toBe(
      'simulation not found',
    );
    expect(await toolError(b.mcp, 'start_simulation', { datasetId: dataset.id, packId: pack.id })).toMatch(
      /not found$/,
    );
    const shadow = (await a.keyed.post(`/api/packs/${pack.id}/shadow-runs`, { sampleRate: 0 })).body;
    expect(await toolError(b.mcp, 'get_shadow_run', { shadowRunId: shadow.id })).toBe('shadow run not found');
    expect(await toolError(b.mcp, 'start_shadow_run', { packId: pack.id })).toBe('pack not found');
    const bLists = await Promise.all(
      ['list_packs', 'list_datasets', 'list_simulations'].map((name) => structured(b.mcp, name)),
    );
    const ids = JSON.stringify(bLists);
    for (const id of [pack.id, dataset.id, simulation.id]) expect(ids).not.toContain(id);
    expect((await structured(b.mcp, 'list_reviews')).items).toEqual([]);
  });

  it('keeps judge_ticket idempotency keys apart from /api/judge', async () => {
    const pack = await createPublishedPack(a.keyed);
    const first = await structured(a.mcp, 'judge_ticket', {
      packId: pack.id,
      ticket: TICKET,
      idempotencyKey: 'same-key',
    });
    const replay = await structured(a.mcp, 'judge_ticket', {
      packId: pack.id,
      ticket: TICKET,
      idempotencyKey: 'same-key',
    });
    expect(replay.evaluationId).toBe(first.evaluationId);
    const rest = await a.keyed.post(
      '/api/judge',
      { packId: pack.id, ticket: TICKET },
      { headers: { 'idempotency-key': 'same-key' } },
    );
    expect(rest.status).toBe(200);
    expect(rest.body.evaluationId).not.toBe(first.evaluationId);
    expect((await a.keyed.get(`/api/evaluations/${rest.body.evaluationId}`)).body.source).toBe('api');
    expect(
      await toolError(a.mcp, 'judge_ticket', { packId: pack.id, ticket: TICKET, idempotencyKey: '' }),
    ).toMatch(/^invalid request/);
  });
});

describe('MCP over raw JSON-RPC, and the v1 SDK refreshing', () => {
  let api: TestApi;
  let a: Tenant;

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-mcp-raw` });
    a = await tenant(api.url);
  });
  afterAll(async () => {
    await a?.mcp.close();
    await api.close();
  });

  it('holds only the approved scopes: a call needing another gets insufficient_scope with the scope', async () => {
    const clientId = (await registerClient(api.url)).body.client_id;
    const { tokens } = await authorizeAndExchange(
      api.url,
      clientId,
      { email: a.email, password: PASSWORD },
      { scope: 'packs:read' },
    );
    const pack = await createPublishedPack(a.keyed);
    const before = (await a.keyed.get('/api/stats')).body.evaluationsToday;
    const listed = await mcpCall(api.url, tokens.access_token, callTool('list_packs', {}));
    expect(listed.body.result.isError).toBeFalsy();
    const judged = await mcpCall(
      api.url,
      tokens.access_token,
      callTool('judge_ticket', { packId: pack.id, ticket: TICKET }, 7),
    );
    expect(judged.status).toBe(403);
    expect(judged.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", error_description="this call needs the judgments:run scope", resource_metadata="${api.url}/.well-known/oauth-protected-resource/mcp", scope="packs:read judgments:run"`,
    );
    expect(judged.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32000, message: 'insufficient_scope: this call needs the judgments:run scope' },
    });
    expect((await a.keyed.get('/api/stats')).body.evaluationsToday).toBe(before);

    // Resources need packs:read; a token without it is told so, whichever revision it speaks.
    const judgeOnly = await authorizeAndExchange(
      api.url,
      clientId,
      { email: a.email, password: PASSWORD },
      { scope: 'judgments:run' },
    );
    for (const version of ['2025-11-25', '2026-07-28']) {
      const read = await mcpCall(
        api.url,
        judgeOnly.tokens.access_token,
        { jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: `pack://${pack.id}` } },
        { 'mcp-protocol-version': version },
      );
      expect(read.status).toBe(403);
      expect(read.headers.get('www-authenticate')).toContain('scope="judgments:run packs:read"');
    }
    // A batch of a revision that has them is answered message by message, as a tool error.
    const batch = await mcpCall(
      api.url,
      tokens.access_token,
      [callTool('list_packs', {}, 1), callTool('judge_ticket', { packId: pack.id, ticket: TICKET }, 2)],
      { 'mcp-protocol-version': null },
    );
    expect(batch.status).toBe(200);
    expect(batch.body[0].result.isError).toBeFalsy();
    expect(batch.body[1].result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'missing permission judgments:run' }],
    });
  });

  it('survives malformed JSON-RPC and arguments without a protocol crash', async () => {
    const clientId = (await registerClient(api.url)).body.client_id;
    const { tokens } = await authorizeAndExchange(api.url, clientId, { email: a.email, password: PASSWORD });
    for (const args of ['text', 42, null, [1, 2], { packId: { nested: true }, ticket: 'x' }]) {
      const res = await mcpCall(api.url, tokens.access_token, callTool('judge_ticket', args));
      expect(res.status).toBe(200);
      expect(res.body.jsonrpc).toBe('2.0');
      if (res.body.result) expect(res.body.result.isError).toBe(true);
      else expect(res.body.error.code).toBeLessThan(0);
    }
    const broken = await mcpCall(api.url, tokens.access_token, { jsonrpc: '2.0', method: 'tools/call' });
    expect(broken.status).toBeLessThan(500);
    const notJson = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokens.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: '{"jsonrpc":',
    });
    expect(notJson.status).toBe(400);
    expect((await mcpCall(api.url, tokens.access_token, callTool('list_packs', {}))).status).toBe(200);
  });

  it('refreshes through the SDK, rotating the refresh token', async () => {
    const provider = new TestOAuthProvider();
    const mcpUrl = new URL(`${api.url}/mcp`);
    const { client } = await connectMcpClient(mcpUrl, provider, (url) =>
      authorizeInBrowser(new Browser(), url, { email: a.email, password: PASSWORD }),
    );
    await client.close();
    const before = provider.savedTokens!;
    expect(await auth(provider, { serverUrl: mcpUrl })).toBe('AUTHORIZED');
    const after = provider.savedTokens!;
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect((await mcpCall(api.url, after.access_token, callTool('list_packs', {}))).status).toBe(200);
  });
});
