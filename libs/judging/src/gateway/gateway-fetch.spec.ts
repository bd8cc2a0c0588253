import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { createGatewayFetch } from './gateway-fetch.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('createGatewayFetch', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let reply: (res: import('node:http').ServerResponse) => void;
  const transport = createGatewayFetch({ timeoutMs: 2000 });

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
  });

  afterAll(async () => {
    await transport.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  beforeEach(() => {
    seen.length = 0;
  });

  it('sends the method, headers and body, and answers with status, headers and text', async () => {
    reply = (res) =>
      res.writeHead(201, { 'content-type': 'application/json', 'x-a': '1' }).end('{"ok":true}');
    const response = await transport.fetch(`${base}/v1/x`, {
      method: 'POST',
      headers: new Headers({ authorization: 'Bearer k', 'content-type': 'application/json' }),
      body: '{"q":1}',
    });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/v1/x', body: '{"q":1}' });
    expect(seen[0].headers.authorization).toBe('Bearer k');
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get('x-a')).toBe('1');
    expect(await response.json()).toEqual({ ok: true });
  });

  it('follows a redirect as fetch does', async () => {
    reply = (res) => {
      if (seen.length === 1) res.writeHead(307, { location: '/v1/moved' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"moved":true}');
    };
    const response = await transport.fetch(`${base}/v1/x`, { method: 'POST', body: '{"q":1}' });
    expect(await response.json()).toEqual({ moved: true });
    expect(seen.map((request) => [request.url, request.body])).toEqual([
      ['/v1/x', '{"q":1}'],
      ['/v1/moved', '{"q":1}'],
    ]);
  });

  it('reports a failing status without throwing', async () => {
    reply = (res) => res.writeHead(503).end('busy');
    const response = await transport.fetch(`${base}/v1/x`, { method: 'POST', body: '{}' });
    expect(response.ok).toBe(false);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('busy');
  });

  it('stops waiting when the signal aborts, with an AbortError', async () => {
    const controller = new AbortController();
    // Aborted once the server holds the request, so it cannot arrive during the next test.
    reply = () => controller.abort();
    await expect(
      transport.fetch(`${base}/v1/x`, { method: 'POST', body: '{}', signal: controller.signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen).toHaveLength(1);
  });

  it('carries the OpenAI client: bearer key, JSON body, parsed completion and typed errors', async () => {
    const client = new OpenAI({
      baseURL: `${base}/v1`,
      apiKey: 'sk-test',
      maxRetries: 0,
      fetch: transport.fetch,
    });
    reply = (res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 'c', object: 'chat.completion', model: 'm-1', choices: [], created: 0 }));
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.model).toBe('m-1');
    expect(seen[0].headers.authorization).toBe('Bearer sk-test');
    expect(JSON.parse(seen[0].body)).toMatchObject({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });

    reply = (res) =>
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"no"}}');
    await expect(
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });

  it('fails with a connection error when nothing listens', async () => {
    const client = new OpenAI({
      baseURL: 'http://127.0.0.1:1/v1',
      apiKey: 'k',
      maxRetries: 0,
      fetch: transport.fetch,
    });
    await expect(
      client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
  });
});
