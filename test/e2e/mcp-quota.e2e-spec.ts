import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import { queryDatabase } from '../support/db.js';
import { authorizeAndExchange, callTool, mcpCall, registerClient } from '../support/oauth-flow.js';
import { createPack, TICKET } from '../support/packs.js';

const LIMIT = 150;

/** Approves a client (a newly registered one unless given) as the user; its access token. */
async function connect(baseUrl: string, email: string, clientId?: string): Promise<string> {
  const id = clientId ?? (await registerClient(baseUrl)).body.client_id;
  const { tokens } = await authorizeAndExchange(baseUrl, id, { email, password: PASSWORD });
  return tokens.access_token as string;
}

const judgeCall = (packId: string, id: number) => callTool('judge_ticket', { packId, ticket: TICKET }, id);

/** Tool results of one answer (a batch answers an array), in order. */
function results(body: any): Array<{ isError?: boolean; content: Array<{ text: string }> }> {
  return (Array.isArray(body) ? body : [body]).map((message) => message.result);
}

describe('MCP tool calls within the daily budget of each grant', () => {
  let api: TestApi;
  let email: string;
  let packId: string;

  beforeAll(async () => {
    api = await startApi({
      REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-mcp-quota`,
      API_RATE_LIMIT_PER_DAY: String(LIMIT),
    });
    email = uniqueEmail('mcp-quota');
    const { client: session } = await signUp(api.url, email);
    const pack = await createPack(session);
    expect((await session.post(`/api/packs/${pack.id}/publish`)).status).toBe(200);
    packId = pack.id;
  });
  afterAll(() => api?.close());

  it('admits exactly the limit from 100-call batches and parallel calls, then says when it resets', async () => {
    const clientId = (await registerClient(api.url)).body.client_id as string;
    const token = await connect(api.url, email, clientId);
    // A client of 2025-03-26 (no MCP-Protocol-Version header) may batch; every message counts.
    const noVersion = { 'mcp-protocol-version': null };
    const batch = (offset: number) =>
      Array.from({ length: 100 }, (_, index) => judgeCall(packId, offset + index));
    const answers = await Promise.all([
      mcpCall(api.url, token, batch(0), noVersion),
      mcpCall(api.url, token, batch(100), noVersion),
      ...Array.from({ length: 30 }, (_, index) => mcpCall(api.url, token, judgeCall(packId, 200 + index))),
    ]);
    for (const answer of answers) expect(answer.status).toBe(200);
    const all = answers.flatMap((answer) => results(answer.body));
    expect(all).toHaveLength(230);
    const admitted = all.filter((result) => !result.isError);
    const refused = all.filter((result) => result.isError);
    expect(admitted).toHaveLength(LIMIT);
    expect(refused).toHaveLength(230 - LIMIT);
    for (const result of refused) {
      expect(result.content[0].text).toMatch(
        new RegExp(
          `^rate limit exceeded: this client's daily budget of ${LIMIT} calls resets in \\d+ s \\(at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\)$`,
        ),
      );
    }
    const [{ count }] = await queryDatabase<{ count: string }>(
      "SELECT count(*) FROM evaluations WHERE pack_id = $1 AND source = 'mcp'",
      [packId],
    );
    expect(Number(count)).toBe(LIMIT);

    // Any tool counts, not only judgments, and so do resource reads; listing tools does not.
    expect((await mcpCall(api.url, token, callTool('list_packs', {}))).body.result.isError).toBe(true);
    const read = { jsonrpc: '2.0', id: 10, method: 'resources/read', params: { uri: `pack://${packId}` } };
    expect((await mcpCall(api.url, token, read)).body.error).toMatchObject({
      code: -32000,
      message: expect.stringMatching(
        /rate limit exceeded: this client's daily budget of 150 calls resets in/,
      ),
    });
    const listing = await mcpCall(api.url, token, { jsonrpc: '2.0', id: 9, method: 'tools/list' });
    expect(listing.body.result.tools.length).toBeGreaterThan(0);

    // Approving the same client again gives a new grant and token, but no new budget.
    const again = await connect(api.url, email, clientId);
    expect(again).not.toBe(token);
    expect((await mcpCall(api.url, again, callTool('list_packs', {}))).body.result.isError).toBe(true);

    // Another connected client of the same user has a budget of its own.
    const other = await connect(api.url, email);
    const fresh = await mcpCall(api.url, other, callTool('list_packs', {}));
    expect(fresh.body.result.isError).toBeUndefined();
  });

  it('refuses batches from clients of revisions without them, before running any call', async () => {
    const token = await connect(api.url, email);
    for (const version of ['2025-06-18', '2025-11-25']) {
      const res = await mcpCall(api.url, token, [judgeCall(packId, 1), judgeCall(packId, 2)], {
        'mcp-protocol-version': version,
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: null,
        error: {
          code: -32600,
          message: `Invalid Request: protocol revision ${version} has no JSON-RPC batches; send one message per request`,
        },
      });
    }
    const [{ count }] = await queryDatabase<{ count: string }>(
      "SELECT count(*) FROM evaluations WHERE pack_id = $1 AND source = 'mcp'",
      [packId],
    );
    expect(Number(count)).toBe(LIMIT);
  });
});

describe('MCP JSON-RPC error codes', () => {
  let api: TestApi;
  let token: string;

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-mcp-codes` });
    const email = uniqueEmail('mcp-codes');
    await signUp(api.url, email);
    token = await connect(api.url, email);
  });
  afterAll(() => api?.close());

  async function raw(body: string, { batching = false } = {}) {
    const res = await fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        // A client of 2025-03-26 (batches allowed) sends no version header.
        ...(batching ? {} : { 'mcp-protocol-version': '2025-11-25' }),
      },
      body,
    });
    return { status: res.status, body: (await res.json()) as any };
  }

  it('answers text that is not JSON with a parse error (-32700)', async () => {
    for (const body of ['{"jsonrpc":', 'not json', '']) {
      const res = await raw(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    }
  });

  it('answers JSON that is not a JSON-RPC message with an invalid request (-32600)', async () => {
    const bodies = [
      {},
      { jsonrpc: '1.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, method: 42 },
      { jsonrpc: '2.0', id: { nested: true }, method: 'tools/list' },
      'a string',
      42,
      null,
    ];
    for (const body of bodies) {
      const res = await raw(JSON.stringify(body));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    }
    const empty = await raw('[]', { batching: true });
    expect(empty.body.error).toEqual({ code: -32600, message: 'Invalid Request: empty batch' });
    const tooMany = Array.from({ length: 101 }, (_, id) => ({ jsonrpc: '2.0', id, method: 'tools/list' }));
    const oversized = await raw(JSON.stringify(tooMany), { batching: true });
    expect(oversized.status).toBe(400);
    expect(oversized.body.error).toEqual({
      code: -32600,
      message: 'Invalid Request: Batch must not exceed 100 messages',
    });
    const nested = await raw(`${'['.repeat(200)}${']'.repeat(200)}`);
    expect(nested.status).toBe(400);
    expect(nested.body.error.code).toBe(-32600);
  });

  it('answers an unknown method with method not found (-32601)', async () => {
    const res = await mcpCall(api.url, token, { jsonrpc: '2.0', id: 7, method: 'tools/explode' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32601 } });
  });

  it('answers parameters that do not fit the method with invalid params (-32602)', async () => {
    for (const params of [{}, { name: 42 }, { name: 'list_packs', arguments: 'text' }]) {
      const res = await mcpCall(api.url, token, { jsonrpc: '2.0', id: 8, method: 'tools/call', params });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 8, error: { code: -32602 } });
    }
    const read = await mcpCall(api.url, token, {
      jsonrpc: '2.0',
      id: 9,
      method: 'resources/read',
      params: {},
    });
    expect(read.body).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32602 } });
  });
});
