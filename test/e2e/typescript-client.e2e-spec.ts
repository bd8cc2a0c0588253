import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import {
  createTicketJudgeClient,
  judge,
  paginate,
  SignatureVerificationError,
  TicketJudgeError,
  verifyEvent,
  type JudgeRequest,
  type ServiceEvent,
  type TicketJudgeClient,
} from '../../clients/typescript/src/index.js';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * The TypeScript client (clients/typescript) used as its users would: against the real API, with
 * a proxy in front of it that fails requests the way networks and load balancers do.
 */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-ts-client`;
const CLIENT_DIR = 'clients/typescript';
const FAST = { baseDelayMs: 10, maxDelayMs: 2000 };
const TICKET: JudgeRequest['ticket'] = {
  externalId: 'ZD-1001',
  subject: 'Charged twice',
  customerMessage: 'I was charged twice for my subscription. Please refund one payment.',
  messages: [{ role: 'agent', text: 'Thanks, looking into it.' }],
};

type Fault = 'drop-response' | '503';

/**
 * A TCP proxy to the API. Each request it is told to fail (one per connection, as the client
 * opens a new connection after a failure): `drop-response` forwards the request and cuts the
 * connection when the API's answer starts (the API ran it; the client never learns the outcome);
 * `503` answers as an overloaded load balancer would, without forwarding.
 */
class FaultyProxy {
  private readonly faults: Fault[] = [];
  url = '';
  private server!: Server;
  private readonly sockets = new Set<Socket>();

  async start(target: string): Promise<this> {
    const { hostname, port } = new URL(target);
    this.server = createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      const fault = this.faults.shift();
      if (fault === '503') {
        client.once('data', () =>
          client.end(
            'HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain\r\nretry-after: 0\r\nconnection: close\r\ncontent-length: 11\r\n\r\nunavailable',
          ),
        );
        return;
      }
      const upstream = connect(Number(port), hostname);
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
      client.pipe(upstream);
      if (fault === 'drop-response') {
        upstream.once('data', () => {
          client.destroy();
          upstream.destroy();
        });
      } else {
        upstream.pipe(client);
      }
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /**
   * Faults apply per connection, so before queueing them the connections the client keeps alive
   * are cut (and the client given a moment to see it): the next request opens a new one.
   */
  async fail(...faults: Fault[]): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    this.faults.push(...faults);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A receiver written as the client's README says: the raw body and header into `verifyEvent`. */
class VerifyingReceiver {
  readonly events: ServiceEvent[] = [];
  readonly refused: string[] = [];
  readonly raw: Array<{ body: Buffer; signature: string | undefined }> = [];
  secret = '';
  url = '';
  private server!: HttpServer;

  async start(): Promise<this> {
    this.server = createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const signature = req.headers['x-service-signature'] as string | undefined;
        this.raw.push({ body, signature });
        try {
          this.events.push(verifyEvent(this.secret, body, signature));
          res.writeHead(204).end();
        } catch (error) {
          const reason = error instanceof SignatureVerificationError ? error.reason : 'error';
          this.refused.push(reason);
          res.writeHead(reason === 'signature' ? 401 : 400).end();
        }
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('the TypeScript client against the real API', () => {
  let gateway: FakeGateway;
  let api: TestApi;
  let proxy: FaultyProxy;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    proxy = await new FaultyProxy().start(api.url);
  });
  afterAll(async () => {
    await proxy?.close();
    await api?.close();
    await gateway?.close();
  });

  async function tenant() {
    const { keyed, key } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const client = createTicketJudgeClient({ baseUrl: `${proxy.url}/`, apiKey: key.secret });
    return { keyed, pack, client };
  }

  async function evaluationIds(client: TicketJudgeClient): Promise<string[]> {
    const ids: string[] = [];
    for await (const item of paginate((cursor) =>
      client.GET('/api/evaluations', { params: { query: { cursor } } }),
    ))
      ids.push(item.id);
    return ids;
  }

  it('retries a judgment whose response was lost with the same key: one model call, one evaluation', async () => {
    const { client, pack } = await tenant();
    const calls = gateway.calls;
    await proxy.fail('drop-response');
    const outcome = await judge(client, { packId: pack.id, ticket: TICKET }, FAST);
    expect(outcome.attempts).toBe(2);
    expect(gateway.calls - calls).toBe(1);
    expect(await evaluationIds(client)).toEqual([outcome.evaluationId]);
    // The key of that call replays the stored evaluation.
    const replay = await judge(
      client,
      { packId: pack.id, ticket: TICKET },
      { idempotencyKey: outcome.idempotencyKey },
    );
    expect([replay.evaluationId, replay.attempts]).toEqual([outcome.evaluationId, 1]);
    expect(gateway.calls - calls).toBe(1);
  });

  it('retries after a 503 with Retry-After, and after it a dropped response, under a key of its own', async () => {
    const { client, pack } = await tenant();
    const calls = gateway.calls;
    await proxy.fail('503', 'drop-response');
    const outcome = await judge(
      client,
      { packId: pack.id, ticket: TICKET },
      { ...FAST, idempotencyKey: 'ZD-1001' },
    );
    expect([outcome.attempts, outcome.idempotencyKey, outcome.result.status]).toEqual([
      3,
      'ZD-1001',
      expect.any(String),
    ]);
    expect(gateway.calls - calls).toBe(1);
    expect(await evaluationIds(client)).toEqual([outcome.evaluationId]);
  });

  it('does not retry a 4xx, and rejects with the error of the contract', async () => {
    const { client } = await tenant();
    const error = await judge(
      client,
      { packId: '7c2e5a90-1b4d-4e8f-9a36-0d5f2c8b1e47', ticket: TICKET },
      FAST,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TicketJudgeError);
    expect(error).toMatchObject({ status: 404, message: 'pack not found', attempts: 1 });
    const invalid = await judge(
      client,
      { packId: 'x', ticket: TICKET },
      { ...FAST, idempotencyKey: 'k'.repeat(129) },
    ).catch((e: unknown) => e);
    expect(invalid).toMatchObject({
      status: 400,
      message: 'invalid request',
      issues: [{ path: 'headers.idempotency-key', message: 'Idempotency-Key must be 1 to 128 characters' }],
    });
  });

  it('iterates a cursor list over more than one page, every item once', async () => {
    const { client, pack } = await tenant();
    const judged: string[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const outcomes = await Promise.all(
        Array.from({ length: 9 }, () => judge(client, { packId: pack.id, ticket: TICKET }, FAST)),
      );
      judged.push(...outcomes.map((outcome) => outcome.evaluationId));
    }
    const pages: number[] = [];
    const listed: string[] = [];
    for await (const item of paginate(async (cursor) => {
      const answer = await client.GET('/api/evaluations', { params: { query: { cursor, order: 'oldest' } } });
      pages.push(answer.data?.items.length ?? -1);
      return answer;
    }))
      listed.push(item.id);
    expect(pages).toEqual([50, 4]);
    expect([...listed].sort()).toEqual([...judged].sort());
    expect(new Set(listed).size).toBe(54);
  }, 60_000);

  it('refuses a tampered cursor with the contract error', async () => {
    const { client } = await tenant();
    const tampered = paginate(() =>
      client.GET('/api/evaluations', { params: { query: { cursor: 'tampered' } } }),
    );
    await expect(tampered.next()).rejects.toMatchObject({ status: 400, message: 'invalid cursor' });
  });
});

describe('signed requests to a receiver that verifies with the client', () => {
  let gateway: FakeGateway;
  let api: TestApi;
  let worker: RunningProcess;
  let receiver: VerifyingReceiver;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    receiver = await new VerifyingReceiver().start();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: `${PREFIX}-signed` });
    worker = await startWorker({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: `${PREFIX}-signed` });
  }, 60_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await api?.close();
    await receiver?.close();
    await gateway?.close();
  });

  it('verifies a real completion and a test event, and refuses them tampered or under another secret', async () => {
    const { keyed, key } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const client = createTicketJudgeClient({ baseUrl: api.url, apiKey: key.secret });
    const saved = await client.POST('/api/webhook-endpoints', { body: { url: receiver.url } });
    receiver.secret = saved.data!.secret;

    const inbound = await client.POST('/api/webhooks/inbound', { body: { packId: pack.id, ticket: TICKET } });
    const completion = await eventually(async () =>
      receiver.events.find((event) => event.type === 'evaluation.completed'),
    );
    expect(completion).toMatchObject({ type: 'evaluation.completed', eventId: inbound.data!.eventId });

    const tested = await client.POST('/api/webhook-endpoints/{id}/test', {
      params: { path: { id: saved.data!.id } },
    });
    expect(tested.data).toEqual({ ok: true, status: 204, durationMs: expect.any(Number), error: null });
    expect(receiver.events.at(-1)).toMatchObject({ type: 'endpoint.test', endpointId: saved.data!.id });

    // The bytes as delivered verify; one byte changed, or another signature, does not.
    const { body, signature } = receiver.raw[0];
    expect(() => verifyEvent(receiver.secret, body, signature)).not.toThrow();
    const otherLast = (c: string) => (c === '0' ? '1' : '0');
    const tampered = Buffer.from(body.toString('utf8').replace(pack.id, pack.id.replace(/.$/, otherLast)));
    expect(tampered.equals(body)).toBe(false);
    expect(() => verifyEvent(receiver.secret, tampered, signature)).toThrow('invalid signature');
    expect(() => verifyEvent(receiver.secret, body, signature!.replace(/.$/, otherLast))).toThrow(
      'invalid signature',
    );
    expect(() => verifyEvent(receiver.secret, JSON.parse(body.toString('utf8')), signature)).toThrow(
      /raw body/,
    );

    // A receiver holding another secret refuses, and the test route reports its 401.
    receiver.secret = 'whsec_not-the-saved-one';
    const refused = await client.POST('/api/webhook-endpoints/{id}/test', {
      params: { path: { id: saved.data!.id } },
    });
    expect(refused.data).toMatchObject({ ok: false, status: 401, error: 'HTTP 401' });
    expect(receiver.refused).toEqual(['signature']);
  }, 60_000);
});

describe('the TypeScript client package', () => {
  it('has types that match the served OpenAPI document (regenerate with `npm run client:types`)', async () => {
    const api = await startApi({ REDIS_PREFIX: `${PREFIX}-types` });
    try {
      const document = (await (await fetch(`${api.url}/docs/openapi.json`)).json()) as Parameters<
        typeof openapiTS
      >[0];
      // As `npm run client:types` generates them: a field with a default stays optional to callers.
      const generated = astToString(await openapiTS(document, { defaultNonNullable: false }));
      const committed = readFileSync(`${CLIENT_DIR}/src/schema.ts`, 'utf8');
      // The CLI writes a banner before the types; the types themselves must be the same.
      expect(committed.slice(committed.indexOf('export interface paths'))).toBe(
        generated.slice(generated.indexOf('export interface paths')),
      );
    } finally {
      await api.close();
    }
  });

  it('builds into the files its package.json exports and publishes', async () => {
    const manifest = JSON.parse(readFileSync(`${CLIENT_DIR}/package.json`, 'utf8'));
    expect(manifest).toMatchObject({
      name: '@ticket-judge/client',
      type: 'module',
      files: ['dist', 'README.md'],
    });
    expect(manifest.private).toBeUndefined();
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', `${CLIENT_DIR}/tsconfig.json`], {
      stdio: 'pipe',
    });
    const exported = manifest.exports['.'];
    for (const file of [exported.types, exported.import, manifest.types, manifest.main, './README.md'])
      expect({ file, exists: existsSync(path.join(CLIENT_DIR, file)) }).toEqual({ file, exists: true });
    // The built entry runs on its own: a signature made by the service's scheme verifies.
    const built = await import(pathToFileURL(path.resolve(CLIENT_DIR, exported.import)).href);
    const signature = built.signatureOf('whsec_x', '{"type":"endpoint.test"}');
    expect(built.verifySignature('whsec_x', Buffer.from('{"type":"endpoint.test"}'), signature)).toBe(true);
    expect(typeof built.judge).toBe('function');
    expect(typeof built.createTicketJudgeClient).toBe('function');
  }, 60_000);
});
