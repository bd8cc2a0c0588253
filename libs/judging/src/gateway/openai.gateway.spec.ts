import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@app/config';
import { checkPackDocument, type PackDocument, type Ticket } from '@app/domain';
import { createModelGateway } from '../judging.module.js';
import { OpenAiGateway } from './openai.gateway.js';
import { buildUserPrompt, responseSchemaOf, SYSTEM_PROMPT } from './prompt.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const checked = checkPackDocument({
  questions: [
    {
      type: 'boolean',
      id: 'angry',
      name: 'Angry',
      instructions: 'Is the customer angry?',
      criteria: {},
      review: { minSelectedProbability: 0.5 },
    },
  ],
});
if (!checked.ok) throw new Error('the test document does not validate');
const document: PackDocument = checked.document;
const ticket: Ticket = { subject: 'Charged twice', customerMessage: 'Please refund one payment.' };

const completion = (content: string, extra: object = {}) =>
  JSON.stringify({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gateway-model-1',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 120, completion_tokens: 8, total_tokens: 128 },
    ...extra,
  });
const ANGRY = JSON.stringify({ angry: { probability: 0.8 } });

describe('OpenAiGateway over a real HTTP server', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let reply: (res: ServerResponse) => void;
  let gateway: OpenAiGateway;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push({
          method: req.method!,
          url: req.url!,
          headers: req.headers,
          body: Buffer.concat(chunks).toString(),
        });
        reply(res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    gateway = new OpenAiGateway({
      url: `${base}/v1/`,
      apiKey: 'sk-test',
      model: 'asked-model',
      timeoutMs: 2000,
    });
  });

  afterAll(async () => {
    await gateway.onApplicationShutdown();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  const json = (status: number, body: string) => (res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(body);

  it('posts one strict structured-output Chat Completions request with the bearer key', async () => {
    reply = json(200, completion(ANGRY));
    const outcome = await gateway.judge({ document, ticket });
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/chat/completions' });
    expect(seen[0].headers).toMatchObject({
      authorization: 'Bearer sk-test',
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'ticket-judge',
    });
    expect(seen[0].headers).not.toHaveProperty('openai-organization');
    expect(seen[0].headers).not.toHaveProperty('openai-project');
    expect(JSON.parse(seen[0].body)).toEqual({
      model: 'asked-model',
      temperature: 0,
      messages: [
        { role: 'system', content: SYSTEM_PROMPT },
        { role: 'user', content: buildUserPrompt(document, ticket) },
      ],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'ticket_judgment', strict: true, schema: responseSchemaOf(document) },
      },
    });
    expect(outcome).toEqual({
      ok: true,
      answers: { angry: { type: 'boolean', probability: 0.8 } },
      modelId: 'gateway-model-1',
      latencyMs: expect.any(Number),
      usage: { inputTokens: 120, outputTokens: 8 },
    });
  });

  it('sends the placeholder key when none is set, and keeps the asked model when none is reported', async () => {
    const keyless = new OpenAiGateway({ url: `${base}/v1`, model: 'asked-model', timeoutMs: 2000 });
    reply = json(200, completion(ANGRY, { model: '', usage: undefined }));
    const outcome = await keyless.judge({ document, ticket });
    await keyless.onApplicationShutdown();
    expect(seen[0].url).toBe('/v1/chat/completions');
    expect(seen[0].headers.authorization).toBe('Bearer not-set');
    expect(outcome).toMatchObject({ ok: true, modelId: 'asked-model' });
    expect(outcome).not.toHaveProperty('usage.inputTokens');
  });

  it('keeps a query string of the base URL after the path, as the official client does', async () => {
    const versioned = new OpenAiGateway({
      url: `${base}/openai/v1/?api-version=preview#ignored`,
      model: 'm',
      timeoutMs: 2000,
    });
    reply = json(200, completion(ANGRY));
    expect(await versioned.judge({ document, ticket })).toMatchObject({ ok: true });
    await versioned.onApplicationShutdown();
    expect(seen[0].url).toBe('/openai/v1/chat/completions?api-version=preview');
  });

  it('trims the key (one read from a secret file ends in a newline) and refuses one no header can carry', async () => {
    const trimmed = new OpenAiGateway({
      url: `${base}/v1`,
      apiKey: ' sk-file\n',
      model: 'm',
      timeoutMs: 2000,
    });
    reply = json(200, completion(ANGRY));
    expect(await trimmed.judge({ document, ticket })).toMatchObject({ ok: true });
    await trimmed.onApplicationShutdown();
    expect(seen[0].headers.authorization).toBe('Bearer sk-file');
    expect(
      () => new OpenAiGateway({ url: `${base}/v1`, apiKey: 'sk-a\nsk-b', model: 'm', timeoutMs: 2000 }),
    ).toThrow('MODEL_GATEWAY_API_KEY holds a character an HTTP header cannot carry');
  });

  it('sends OPENAI_ORG_ID and OPENAI_PROJECT_ID as OpenAI-Organization and OpenAI-Project, trimmed, as the official client did', async () => {
    // From the environment, through the module's factory, as the API and the worker build it.
    const billed = createModelGateway(
      loadConfig({
        MODEL_GATEWAY_URL: `${base}/v1`,
        MODEL_GATEWAY_API_KEY: 'sk-test',
        OPENAI_ORG_ID: 'org-abc\n',
        OPENAI_PROJECT_ID: ' proj_abc',
      }),
    ) as OpenAiGateway;
    reply = json(200, completion(ANGRY));
    expect(await billed.judge({ document, ticket })).toMatchObject({ ok: true });
    await billed.onApplicationShutdown();
    expect(seen[0].headers).toMatchObject({
      authorization: 'Bearer sk-test',
      'openai-organization': 'org-abc',
      'openai-project': 'proj_abc',
    });
    const blank = { url: `${base}/v1`, model: 'm', timeoutMs: 2000, organization: ' ', project: '' };
    const unbilled = new OpenAiGateway(blank);
    expect(await unbilled.judge({ document, ticket })).toMatchObject({ ok: true });
    await unbilled.onApplicationShutdown();
    expect(Object.keys(seen[1].headers).filter((name) => name.startsWith('openai-'))).toEqual([]);
    for (const [setting, variable] of [
      ['organization', 'OPENAI_ORG_ID'],
      ['project', 'OPENAI_PROJECT_ID'],
    ])
      expect(
        () => new OpenAiGateway({ url: `${base}/v1`, model: 'm', timeoutMs: 2000, [setting]: 'a\rb' }),
      ).toThrow(`${variable} holds a character an HTTP header cannot carry`);
  });

  it.each([
    [401, 'gateway_auth'],
    [403, 'gateway_auth'],
    [429, 'gateway_unavailable'],
    [500, 'gateway_unavailable'],
    [503, 'gateway_unavailable'],
    [404, 'gateway_unavailable'],
  ] as const)('reports a %i as %s, with the gateway’s message', async (status, kind) => {
    reply = json(status, JSON.stringify({ error: { message: 'Incorrect API key provided' } }));
    expect(await gateway.judge({ document, ticket })).toEqual({
      ok: false,
      kind,
      modelId: 'asked-model',
      latencyMs: expect.any(Number),
      detail: `${status} Incorrect API key provided`,
    });
  });

  it('reports the error when the gateway sends it as a string', async () => {
    reply = json(404, JSON.stringify({ error: 'model not found' }));
    expect(await gateway.judge({ document, ticket })).toMatchObject({
      kind: 'gateway_unavailable',
      detail: '404 model not found',
    });
  });

  it('reports a failing status whose body is not JSON by its status alone, never its body', async () => {
    reply = (res) => res.writeHead(502).end('<html>bad gateway for: Please refund one payment.</html>');
    expect(await gateway.judge({ document, ticket })).toMatchObject({
      ok: false,
      kind: 'gateway_unavailable',
      detail: '502 status code (no error message)',
    });
  });

  it('stops reading an answer past 4 MiB, as gateway_unavailable', async () => {
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"padding":"${'x'.repeat(5 * 1024 * 1024)}"}`);
    };
    expect(await gateway.judge({ document, ticket })).toMatchObject({
      ok: false,
      kind: 'gateway_unavailable',
    });
  });

  it.each([
    ['a body that is not JSON', (res: ServerResponse) => res.writeHead(200).end('Sure! Angry.')],
    ['an empty body', (res: ServerResponse) => res.writeHead(204).end()],
    ['JSON null', json(200, 'null')],
    ['content that is not JSON', json(200, completion('The customer is angry.'))],
    ['a completion without choices', json(200, JSON.stringify({ model: 'm', choices: [] }))],
    ['an answer out of range', json(200, completion(JSON.stringify({ angry: { probability: 2 } })))],
  ])('reports %s as invalid_model_output', async (_, answer) => {
    reply = answer;
    expect(await gateway.judge({ document, ticket })).toMatchObject({
      ok: false,
      kind: 'invalid_model_output',
      detail: expect.any(String),
    });
  });

  it('follows a redirect with the same POST, as fetch does', async () => {
    reply = (res) => {
      if (seen.length === 1) res.writeHead(307, { location: '/v2/chat/completions' }).end();
      else json(200, completion(ANGRY))(res);
    };
    const outcome = await gateway.judge({ document, ticket });
    expect(outcome).toMatchObject({ ok: true });
    expect(seen.map((request) => request.url)).toEqual(['/v1/chat/completions', '/v2/chat/completions']);
    expect(seen[1].body).toBe(seen[0].body);
    expect(seen[1].headers.authorization).toBe('Bearer sk-test');
  });

  it('gives up after MODEL_TIMEOUT_MS when no answer comes, as gateway_unavailable', async () => {
    const impatient = new OpenAiGateway({ url: `${base}/v1`, model: 'm', timeoutMs: 150 });
    reply = () => undefined;
    const started = performance.now();
    const outcome = await impatient.judge({ document, ticket });
    await impatient.onApplicationShutdown();
    const waited = performance.now() - started;
    expect(outcome).toMatchObject({ ok: false, kind: 'gateway_unavailable', detail: /^TimeoutError:/ });
    expect(waited).toBeGreaterThanOrEqual(140);
    expect(waited).toBeLessThan(1000);
  });

  it('gives up after MODEL_TIMEOUT_MS in all when the body trickles in', async () => {
    const impatient = new OpenAiGateway({ url: `${base}/v1`, model: 'm', timeoutMs: 300 });
    // Headers at once, then a byte every 100 ms: each chunk comes within the body timeout, the whole
    // answer never within the call's.
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => clearInterval(timer));
    };
    const started = performance.now();
    const outcome = await impatient.judge({ document, ticket });
    const waited = performance.now() - started;
    await impatient.onApplicationShutdown();
    expect(outcome).toMatchObject({ ok: false, kind: 'gateway_unavailable', detail: /^TimeoutError:/ });
    expect(waited).toBeLessThan(1000);
  });

  it('reports a body cut off midway as gateway_unavailable, not as unusable output', async () => {
    reply = (res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.write(completion(ANGRY).slice(0, 40));
      setTimeout(() => res.destroy(), 20);
    };
    expect(await gateway.judge({ document, ticket })).toMatchObject({
      ok: false,
      kind: 'gateway_unavailable',
    });
  });

  it('reports a gateway nobody listens on as gateway_unavailable', async () => {
    const nowhere = new OpenAiGateway({ url: 'http://127.0.0.1:1/v1', model: 'm', timeoutMs: 2000 });
    const outcome = await nowhere.judge({ document, ticket });
    await nowhere.onApplicationShutdown();
    expect(outcome).toMatchObject({ ok: false, kind: 'gateway_unavailable', modelId: 'm' });
  });

  it('keeps its connections alive: calls one after another open none', async () => {
    reply = json(200, completion(ANGRY));
    await gateway.judge({ document, ticket });
    let opened = 0;
    const count = () => opened++;
    server.on('connection', count);
    for (let call = 0; call < 3; call++) await gateway.judge({ document, ticket });
    server.off('connection', count);
    expect(seen).toHaveLength(4);
    expect(opened).toBe(0);
  });
});
