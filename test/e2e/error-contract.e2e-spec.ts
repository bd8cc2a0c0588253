import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { startApi, type TestApi } from '../support/api.js';
import { Client, newTenant, PASSWORD, uniqueEmail } from '../support/client.js';
import { ProbeModule } from '../support/probe.module.js';
import { eventually } from '../support/worker.js';

/** Starts an upload announcing 500 kB, sends its first bytes, then drops the connection. */
function abandonUpload(url: string, head: string, firstBytes: string): Promise<void> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(`${head}\r\nHost: x\r\nContent-Length: 500000\r\n\r\n${firstBytes}`);
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 200);
    });
  });
}

describe('error contract', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ BODY_LIMIT_BYTES: '4096' }, { extraModules: [ProbeModule] });
  });
  afterAll(async () => {
    await api.close();
  });

  it('answers invalid JSON with 400 invalid JSON', async () => {
    const res = await new Client(api.url).post('/api/auth/sign-up', undefined, {
      raw: '{"email": "a@b.c", "password": ',
      contentType: 'application/json',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'invalid JSON' });
    const empty = await new Client(api.url).post('/api/auth/sign-up', undefined, {
      raw: '',
      contentType: 'application/json',
    });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ error: 'invalid JSON' });
  });

  it('answers a schema failure with invalid request and issues naming each path', async () => {
    const res = await new Client(api.url).post('/api/auth/sign-up', { email: 42, password: ['x'], extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid request');
    const paths = res.body.issues.map((issue: { path: string }) => issue.path);
    expect(new Set(paths)).toEqual(new Set(['email', 'password', 'extra']));
    for (const issue of res.body.issues)
      expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) });
    const notAnObject = await new Client(api.url).post('/api/auth/sign-up', [1, 2, 3]);
    expect(notAnObject.status).toBe(400);
    expect(notAnObject.body.error).toBe('invalid request');
  });

  it('answers an unknown route with 404 not found, authenticated or not', async () => {
    const { keyed } = await newTenant(api.url);
    for (const res of [
      await new Client(api.url).get('/api/nope'),
      await keyed.get('/api/nope'),
      await keyed.delete('/nowhere/at/all'),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'not found' });
    }
  });

  it('answers a body over the limit with 413', async () => {
    const res = await new Client(api.url).post('/api/auth/sign-up', {
      email: uniqueEmail(),
      password: 'x'.repeat(10_000),
    });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'request body too large' });
  });

  it('answers a body that is not JSON with 415', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await new Client(api.url).post('/api/auth/sign-up', undefined, {
        raw: `email=${uniqueEmail()}&password=${PASSWORD}`,
        contentType,
      });
      expect(res.status).toBe(415);
      expect(res.body).toEqual({ error: 'unsupported media type' });
    }
  });

  it('answers an unexpected failure with 500 internal error, never its cause', async () => {
    const { keyed } = await newTenant(api.url);
    const res = await keyed.get('/api/probe-failure');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: 'internal error' });
    expect(res.text).not.toContain('hunter2');
  });

  it('logs a failed query by statement and error code, never its parameters or the values it echoes', async () => {
    const logged = await startApi({}, { extraModules: [ProbeModule], captureLogs: true });
    try {
      const { keyed } = await newTenant(logged.url);
      const res = await keyed.get('/api/probe-query-failure');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ error: 'internal error' });
      const line = logged.logs
        .text()
        .split('\n')
        .find((l) => l.includes('unhandled error'));
      expect(line).toBeDefined();
      const entry = JSON.parse(line!);
      expect(entry.err).toMatchObject({
        type: 'QueryFailedError',
        code: '22P02',
        statement: expect.stringMatching(/^SELECT/),
      });
      expect(entry.reqId).toBe(res.headers.get('x-request-id'));
      expect(entry.err).not.toHaveProperty('parameters');
      const text = logged.logs.text();
      expect(text).not.toContain('PLANTED');
      expect(text).not.toContain('whsec_');
      expect(text).not.toContain('parameters');
    } finally {
      await logged.close();
    }
  });

  it('logs an upload the client abandons midway at info, as a client gone away, never as an error', async () => {
    const logged = await startApi({}, { captureLogs: true });
    try {
      const { keyed } = await newTenant(logged.url);
      const dataset = await keyed.post('/api/datasets', { name: 'abandoned' });
      const key = `x-api-key: ${keyed.apiKey}`;
      logged.logs.clear();
      await abandonUpload(
        logged.url,
        `POST /api/judge HTTP/1.1\r\n${key}\r\nContent-Type: application/json`,
        '{"ticket": {"messages": [',
      );
      await abandonUpload(
        logged.url,
        `POST /api/datasets/${dataset.body.id}/tickets HTTP/1.1\r\n${key}\r\nContent-Type: text/csv`,
        'externalId,text\nT-1,hello\n',
      );
      const lines = () =>
        logged.logs
          .text()
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as { level: number; msg: string; reqId: string });
      const gone = await eventually(async () => {
        const found = lines().filter((line) => line.msg === 'client went away before its request was read');
        return found.length === 2 ? found : undefined;
      }, 5_000);
      expect(gone.map((line) => line.level)).toEqual([30, 30]);
      expect(lines().filter((line) => line.level >= 50)).toEqual([]);
    } finally {
      await logged.close();
    }
  });

  it('carries a request id on every response, keeping a sane one given by the caller', async () => {
    const generated = await new Client(api.url).get('/healthz');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await new Client(api.url).get('/api/nope', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
  });
});
