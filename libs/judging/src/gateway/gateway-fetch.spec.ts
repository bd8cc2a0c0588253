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
    expect(response).toBeInstanceOf(Response);
    expect(response.headers).toBeInstanceOf(Headers);
    expect(response.statusText).toBe('Created');
    expect(response.bodyUsed).toBe(true);
  });

  it('sends headers given as a plain object or as pairs, and keeps repeated response headers', async () => {
    reply = (res) =>
      res
        .writeHead(200, [
          ['set-cookie', 'a=1'],
          ['set-cookie', 'b=2'],
        ])
        .end('ok');
    await transport.fetch(`${base}/v1/x`, { headers: { 'X-Key': 'one' } });
    const response = await transport.fetch(`${base}/v1/x`, { headers: [['X-Key', 'two']] });
    expect(seen.map((request) => [request.method, request.headers['x-key']])).toEqual([
      ['GET', 'one'],
      ['GET', 'two'],
    ]);
    expect(response.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await response.text()).toBe('ok');
  });

  it('answers a status without a body, such as 204, with a null body', async () => {
    reply = (res) => res.writeHead(204).end();
    const response = await transport.fetch(`${base}/v1/x`, { method: 'DELETE' });
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('reads the body as a fetch Response does, whichever way it is read', async () => {
    // A byte-order mark, a non-ASCII letter and a byte that is not UTF-8: text() drops the first,
    // decodes the second and replaces the third.
    const answer = Buffer.concat([Buffer.from('\uFEFF{"a":"\u00e9'), Buffer.from([0xff]), Buffer.from('"}')]);
    reply = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    const readers: Record<string, (response: Response) => Promise<unknown>> = {
      textTwice: async (response) => [await response.text(), await response.text()],
      json: (response) => response.json(),
      arrayBuffer: async (response) => [...new Uint8Array(await response.arrayBuffer())],
      stream: async (response) => {
        const chunks: number[] = [];
        for await (const chunk of response.body!) chunks.push(...chunk);
        return [chunks, response.bodyUsed, await response.text()];
      },
      clone: async (response) => [await response.clone().text(), await response.text()],
      blob: async (response) => {
        const blob = await response.blob();
        return [blob.type, await blob.text(), response.bodyUsed];
      },
      textThenBody: async (response) => [await response.text(), response.bodyUsed, response.body !== null],
      textThenClone: async (response) => [await response.text(), response.clone()],
    };
    const outcome = (promise: Promise<unknown>) =>
      promise.then(
        (value) => ({ value }),
        (error: Error) => ({ error: error.constructor.name }),
      );
    for (const [name, read] of Object.entries(readers)) {
      const ours = await transport.fetch(`${base}/v1/x`);
      const theirs = await fetch(`${base}/v1/x`);
      expect([name, ours.bodyUsed, await outcome(read(ours))]).toEqual([
        name,
        theirs.bodyUsed,
        await outcome(read(theirs)),
      ]);
    }
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

  it('gives up after timeoutMs when no answer comes', async () => {
    const impatient = createGatewayFetch({ timeoutMs: 100 });
    reply = () => undefined;
    await expect(impatient.fetch(`${base}/v1/x`, { method: 'POST', body: '{}' })).rejects.toMatchObject({
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
    await impatient.close();
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
