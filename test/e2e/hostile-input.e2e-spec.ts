import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { startApi, type TestApi } from '../support/api.js';
import { Client, newTenant, PASSWORD, uniqueEmail } from '../support/client.js';
import { createPublishedPack, TICKET, triageDocument } from '../support/packs.js';

/** A raw HTTP exchange, for requests fetch refuses to send (oversized or malformed). */
function rawHttp(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

function statusAndBody(answer: string): { status: number; body: unknown } {
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(head.split(' ')[1]), body: JSON.parse(body) };
}

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + '1' + close.repeat(depth);

/** Defects found by a black-box probe: each request here once answered 500 or a non-contract body. */
describe('hostile and careless input', () => {
  let api: TestApi;
  let keyed: Client;
  let session: Client;
  let packId: string;
  let datasetId: string;

  beforeAll(async () => {
    api = await startApi();
    ({ keyed, session } = await newTenant(api.url));
    packId = (await createPublishedPack(keyed)).id;
    datasetId = (await keyed.post('/api/datasets', { name: 'probe' })).body.id;
  });
  afterAll(async () => {
    await api.close();
  });

  const expectInvalid = (res: { status: number; body: any }, path?: string) => {
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid request');
    expect(Object.keys(res.body).sort()).toEqual(['error', 'issues']);
    if (path) expect(res.body.issues.map((issue: { path: string }) => issue.path)).toContain(path);
  };

  describe('arrays where a ticket or a message object belongs', () => {
    const tickets = [[], [{ ...TICKET }], { ...TICKET, messages: [[]] }, { ...TICKET, messages: ['text'] }];

    it.each(tickets.map((ticket) => [JSON.stringify(ticket).slice(0, 40), ticket]))(
      'judge and inbound refuse %s with 400',
      async (_name, ticket) => {
        for (const route of ['/api/judge', '/api/webhooks/inbound'])
          expectInvalid(await keyed.post(route, { packId, ticket }));
      },
    );

    it('dataset uploads refuse tickets that are arrays', async () => {
      expectInvalid(await keyed.post(`/api/datasets/${datasetId}/tickets`, { tickets: [[]] }), 'tickets');
      expectInvalid(
        await keyed.post(`/api/datasets/${datasetId}/tickets`, { tickets: [TICKET, [TICKET]] }),
        'tickets',
      );
    });
  });

  describe('NUL and unpaired surrogates never reach Postgres', () => {
    const BAD = ['a\u0000b', 'a\ud800b', '\udc00'];

    it.each(BAD.map((text) => [JSON.stringify(text), text]))(
      '%s in names, documents and tickets: 400',
      async (_name, text) => {
        expectInvalid(await keyed.post('/api/packs', { name: text }), 'name');
        expectInvalid(await keyed.post('/api/datasets', { name: text }), 'name');
        expectInvalid(await session.post('/app/keys', { name: text }), 'name');
        const document = triageDocument();
        document.questions[0].instructions = text;
        expectInvalid(
          await keyed.post('/api/packs', { name: 'ok', document }),
          'document.questions.0.instructions',
        );
        expectInvalid(
          await keyed.post('/api/judge', { packId, ticket: { ...TICKET, subject: text } }),
          'ticket.subject',
        );
        expectInvalid(
          await keyed.post('/api/webhooks/inbound', {
            packId,
            ticket: { ...TICKET, metadata: { note: text } },
          }),
          'ticket.metadata.note',
        );
        expectInvalid(
          await keyed.post(`/api/datasets/${datasetId}/tickets`, {
            tickets: [{ ...TICKET, customerMessage: text }],
          }),
        );
      },
    );

    it('in a JSON key', async () => {
      expectInvalid(
        await keyed.post('/api/judge', { packId, ticket: { ...TICKET, metadata: { 'a\u0000': 1 } } }),
      );
    });

    it('in the sign-in and sign-up email', async () => {
      for (const email of ['a\u0000@example.com', 'a\ud800@example.com']) {
        expectInvalid(
          await new Client(api.url).post('/api/auth/sign-in', { email, password: PASSWORD }),
          'email',
        );
        expectInvalid(
          await new Client(api.url).post('/api/auth/sign-up', { email, password: PASSWORD }),
          'email',
        );
      }
    });

    it('in a query string', async () => {
      const res = await keyed.get('/api/reviews?questionId=%00');
      expectInvalid(res, 'questionId');
    });

    it('in a CSV cell, naming the line', async () => {
      const res = await keyed.post(`/api/datasets/${datasetId}/tickets`, undefined, {
        raw: 'subject,customerMessage\nfine,fine\nbad,has a \u0000 in it\n',
        contentType: 'text/csv',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid CSV at line 3: a NUL character or an unpaired surrogate' });
      expect((await keyed.get(`/api/datasets/${datasetId}`)).body.ticketCount).toBe(0);
    });
  });

  it('refuses bodies nested deeper than 32 levels on every JSON route, before validation', async () => {
    for (const body of [nested(10_000, '{"a":', '}'), nested(10_000, '[', ']'), nested(33, '{"a":', '}')]) {
      for (const [client, route] of [
        [new Client(api.url), '/api/auth/sign-up'],
        [keyed, '/api/judge'],
        [keyed, '/api/packs'],
        [keyed, '/api/webhooks/inbound'],
        [session, '/app/keys'],
      ] as const) {
        const res = await client.post(route, undefined, { raw: body, contentType: 'application/json' });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid request',
          issues: [{ path: expect.any(String), message: 'must not be nested deeper than 32 levels' }],
        });
      }
    }
    const deepTicket = { packId, ticket: { ...TICKET, metadata: JSON.parse(nested(40, '{"a":', '}')) } };
    expectInvalid(await keyed.post('/api/judge', deepTicket));
  });

  it('refuses a body that is not an object where a DTO is expected', async () => {
    const pack = (await keyed.post('/api/packs', { name: 'p' })).body;
    for (const raw of ['null', '[]', '"text"', '42']) {
      const res = await keyed.patch(`/api/packs/${pack.id}`, undefined, {
        raw,
        contentType: 'application/json',
      });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'invalid request',
        issues: [{ path: 'body', message: 'body must be a JSON object' }],
      });
    }
  });

  it('refuses keys named like built-in object properties, which validation would not see', async () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf']) {
      const metadata = JSON.parse(`{"${key}": [1, 2]}`);
      for (const route of ['/api/judge', '/api/webhooks/inbound']) {
        const res = await keyed.post(route, { packId, ticket: { ...TICKET, metadata } });
        expectInvalid(res, 'ticket.metadata');
      }
      expectInvalid(
        await keyed.post(`/api/datasets/${datasetId}/tickets`, { tickets: [{ ...TICKET, metadata }] }),
      );
    }
  });

  it('refuses query keys named like built-in object properties, as any unknown field', async () => {
    const routes = [
      '/api/evaluations',
      '/api/reviews',
      `/api/packs/${packId}/calibration`,
      `/api/datasets/${datasetId}/tickets`,
      '/api/webhook-deliveries',
    ];
    for (const route of routes) {
      for (const key of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'prototype']) {
        const res = await keyed.get(`${route}?${key}=1`);
        expectInvalid(res, key);
        expect(res.body.issues).toContainEqual({ path: key, message: `property ${key} should not exist` });
      }
    }
    // With other issues, one answer names them all.
    const mixed = await keyed.get('/api/evaluations?constructor=1&status=nope&foo=1');
    expect(mixed.body.issues.map((issue: { path: string }) => issue.path).sort()).toEqual([
      'constructor',
      'foo',
      'status',
    ]);
  });

  it('refuses top-level body keys named like built-in object properties', async () => {
    for (const raw of ['{"name":"x","constructor":1}', '{"name":"x","__proto__":{"name":"y"}}']) {
      for (const route of ['/api/datasets', '/api/webhook-endpoints']) {
        const res = await keyed.post(route, undefined, { raw, contentType: 'application/json' });
        expect(res.status).toBe(400);
        expect(['invalid request', 'invalid JSON']).toContain(res.body.error);
      }
    }
  });

  it('refuses null for every optional field instead of storing it', async () => {
    for (const field of ['externalId', 'metadata', 'messages', 'createdAt'] as const) {
      const res = await keyed.post('/api/judge', { packId, ticket: { ...TICKET, [field]: null } });
      expectInvalid(res, `ticket.${field}`);
      expect(res.body.issues).toEqual([{ path: `ticket.${field}`, message: `${field} must not be null` }]);
    }
    const endpoint = await keyed.post('/api/webhook-endpoints', {
      url: 'https://example.com/hook',
      requireInboundSignature: null,
    });
    expectInvalid(endpoint, 'requireInboundSignature');
    expectInvalid(
      await keyed.post('/api/simulations', { datasetId, packId, packVersionId: null }),
      'packVersionId',
    );
  });

  it('bounds a ticket before redaction, the prompt or storage see it', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...TICKET, subject: 's'.repeat(1001) }, 'ticket.subject'],
      [{ ...TICKET, externalId: 'e'.repeat(257) }, 'ticket.externalId'],
      [{ ...TICKET, customerMessage: 'm'.repeat(100_001) }, 'ticket.customerMessage'],
      [
        { ...TICKET, messages: Array.from({ length: 201 }, () => ({ role: 'agent', text: 'x' })) },
        'ticket.messages',
      ],
      [
        { ...TICKET, metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) },
        'ticket.metadata',
      ],
      [{ ...TICKET, metadata: { note: 'n'.repeat(2001) } }, 'ticket.metadata'],
    ];
    for (const [ticket, path] of cases)
      expectInvalid(await keyed.post('/api/judge', { packId, ticket }), path);
  });

  it("judges the probe's whitespace ticket at once, and /healthz is not held up meanwhile", async () => {
    // Once 13 s with the API blocked; now a few milliseconds. The bound is a hundred times looser
    // than the measurement (bench:redaction) and only catches a return of the backtracking.
    const ticket = { ...TICKET, customerMessage: `x${' '.repeat(99_000)}x` };
    const started = Date.now();
    const [judged, health] = await Promise.all([
      keyed.post('/api/judge', { packId, ticket }),
      new Promise((resolve) => setTimeout(resolve, 5)).then(() => new Client(api.url).get('/healthz')),
    ]);
    const elapsedMs = Date.now() - started;
    expect([judged.status, health.status]).toEqual([200, 200]);
    expect(judged.body.result).toMatchObject({ status: 'review', reviewReasons: ['invalid_ticket'] });
    expect(elapsedMs).toBeLessThan(2000);
  });

  it('refuses label answers with unknown fields or bad probabilities', async () => {
    const judged = await keyed.post('/api/judge', { packId, ticket: TICKET });
    const route = `/api/evaluations/${judged.body.evaluationId}/labels`;
    for (const answer of [
      { type: 'choice', choice: 'billing', extra: true },
      { type: 'choice', choice: 'billing', probabilities: 'sure' },
      { type: 'choice', choice: 'billing', probabilities: { billing: 7 } },
    ]) {
      const res = await keyed.post(route, { questionId: 'department', answer });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(/^label does not fit: /);
    }
    const kept = await keyed.post(route, {
      questionId: 'department',
      answer: { type: 'choice', choice: 'billing', probabilities: { billing: 0.9, technical: 0.1 } },
    });
    expect(kept.status).toBe(201);
    expect(kept.body.answer.probabilities).toEqual({ billing: 0.9, technical: 0.1 });
  });

  describe('refusals by Fastify and Node have the contract body too', () => {
    it('a path segment over 100 characters reaches the route: its own 404', async () => {
      const res = await keyed.get(`/api/packs/${'a'.repeat(300)}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'pack not found' });
    });

    it('bad percent-encoding in the path: 400', async () => {
      for (const path of ['/api/packs/%ff', '/api/datasets/%E0%A4%A']) {
        const res = await keyed.get(path);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          error: 'invalid request',
          issues: [{ path: 'url', message: 'must be valid percent-encoded UTF-8' }],
        });
        expect(res.headers.get('x-request-id')).toBeTruthy();
      }
    });

    it('an oversized URL or header: 431 with the error body', async () => {
      const longUrl = await rawHttp(
        api.url,
        `GET /api/packs?x=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(statusAndBody(longUrl)).toEqual({
        status: 431,
        body: { error: 'request header fields too large' },
      });
      const header = await rawHttp(
        api.url,
        `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
      );
      expect(statusAndBody(header)).toEqual({
        status: 431,
        body: { error: 'request header fields too large' },
      });
    });

    it('an HTTP/1.1 request without Host: 400 with the error body, as JSON', async () => {
      for (const path of ['/healthz', '/api/packs', '/nowhere']) {
        const answer = await rawHttp(api.url, `GET ${path} HTTP/1.1\r\n\r\n`);
        expect(statusAndBody(answer)).toEqual({ status: 400, body: { error: 'invalid request' } });
        expect(answer).toMatch(/\r\ncontent-type: application\/json/i);
      }
      // An empty Host names no origin either (the issuer would be `http://`).
      const empty = await rawHttp(api.url, 'GET /healthz HTTP/1.1\r\nHost:\r\n\r\n');
      expect(statusAndBody(empty)).toEqual({ status: 400, body: { error: 'invalid request' } });
      // HTTP/1.0 has no Host header: served, as Node serves it.
      const old = await rawHttp(api.url, 'GET /healthz HTTP/1.0\r\n\r\n');
      expect(statusAndBody(old)).toEqual({ status: 200, body: { status: 'ok' } });
    });

    it('a request Node cannot parse: 400 with the error body', async () => {
      for (const request of [
        'GARBAGE\r\n\r\n',
        'GET / HTTP/1.1\r\nHost x\r\n\r\n',
        'GET /healthz HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n',
      ]) {
        expect(statusAndBody(await rawHttp(api.url, request))).toEqual({
          status: 400,
          body: { error: 'invalid request' },
        });
      }
    });
  });

  it('stays healthy after all of it', async () => {
    expect((await new Client(api.url).get('/healthz')).status).toBe(200);
    const fresh = await new Client(api.url).post('/api/auth/sign-up', {
      email: uniqueEmail(),
      password: PASSWORD,
    });
    expect(fresh.status).toBe(201);
  });
});
