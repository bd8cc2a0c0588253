import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { startApiProcess, type ApiProcess } from '../support/api-process.js';
import { Client, createKey, uniqueEmail } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { OtlpReceiver, type ReceivedSpan } from '../support/otlp-receiver.js';
import { createPublishedPack, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { Receiver, sign } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-traces`;

/** OTLP's span kinds. */
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/** Spans are batched: exported a tenth of a second after they end rather than five seconds. */
const QUICK_EXPORT = { OTEL_BSP_SCHEDULE_DELAY: '100' };

const marker = (name: string) => `${name}${randomBytes(9).toString('hex')}`;

const portOf = (url: string) => Number(new URL(url).port);

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  let otlp: OtlpReceiver;
  let gateway: FakeGateway;
  let receiver: Receiver;
  let api: ApiProcess;
  let worker: RunningProcess;

  beforeAll(async () => {
    otlp = await new OtlpReceiver().start();
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
    const env = {
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: PREFIX,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      ...QUICK_EXPORT,
    };
    api = await startApiProcess(env);
    worker = await startWorker({ ...env, WEBHOOK_MAX_ATTEMPTS: '3', WEBHOOK_BACKOFF_MS: '200' });
  }, 120_000);
  afterAll(async () => {
    if (worker) await stopWorker(worker);
    if (api) {
      api.child.kill('SIGTERM');
      await api.exited();
    }
    await receiver?.close();
    await gateway?.close();
    await otlp?.close();
  });

  /** Waits until the spans matching each check have arrived, and returns the trace's spans. */
  async function traceWith(traceId: string, ...checks: ((spans: ReceivedSpan[]) => boolean)[]) {
    return eventually(async () => {
      const spans = otlp.trace(traceId);
      return checks.every((check) => check(spans)) ? spans : undefined;
    }, 30_000);
  }

  const serverSpan = (path: string) => () =>
    eventually(async () =>
      otlp.spans.find((span) => span.kind === SERVER && span.attributes['url.path'] === path),
    );

  it('follows an inbound event in one trace: the request, the judge job, the model call and each delivery attempt', async () => {
    const session = new Client(api.url);
    await session.post('/api/auth/sign-up', {
      email: uniqueEmail('traces'),
      password: 'long enough password 1',
    });
    const { client: keyed } = await createKey(session);
    const pack = await createPublishedPack(keyed);
    await keyed.post('/api/webhook-endpoints', { url: receiver.url });
    receiver.next(500);
    const accepted = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(accepted.status).toBe(202);
    await eventually(async () => (receiver.calls.length >= 2 ? true : undefined));

    const inbound = await serverSpan('/api/webhooks/inbound')();
    const spans = await traceWith(
      inbound.traceId,
      (all) =>
        all.filter((span) => span.kind === CLIENT && span.attributes['server.port'] === portOf(receiver.url))
          .length === 2,
      (all) => all.filter((span) => span.kind === CONSUMER).length === 3,
    );
    const named = (name: string) => spans.filter((span) => span.name === name);

    expect(inbound).toMatchObject({ service: 'ticket-judge-api', name: 'POST /api/webhooks/inbound' });
    expect(inbound.parentSpanId).toBeUndefined();
    expect(named('add webhooks.judge-event')).toEqual([
      expect.objectContaining({ service: 'ticket-judge-api', kind: PRODUCER }),
    ]);
    // The judge job, then the delivery job's two attempts, on the worker.
    const jobs = spans.filter((span) => span.kind === CONSUMER);
    expect(jobs.map((span) => [span.service, span.name, span.attributes['bullmq.job.name']])).toEqual(
      expect.arrayContaining([
        ['ticket-judge-worker', 'process webhooks', 'judge-event'],
        ['ticket-judge-worker', 'process webhooks', 'deliver'],
        ['ticket-judge-worker', 'process webhooks', 'deliver'],
      ]),
    );
    const modelCalls = spans.filter(
      (span) => span.kind === CLIENT && span.attributes['server.port'] === portOf(gateway.url),
    );
    expect(modelCalls).toEqual([
      expect.objectContaining({
        service: 'ticket-judge-worker',
        name: 'POST',
        attributes: expect.objectContaining({
          'url.full': `${gateway.url}/chat/completions`,
          'http.response.status_code': 200,
        }),
      }),
    ]);
    const attempts = spans.filter(
      (span) => span.kind === CLIENT && span.attributes['server.port'] === portOf(receiver.url),
    );
    expect(attempts.map((span) => span.attributes['http.response.status_code']).sort()).toEqual([200, 500]);
    // Each attempt sits under its own run of the deliver job.
    const deliverRuns = new Set(
      jobs.filter((span) => span.attributes['bullmq.job.name'] === 'deliver').map((span) => span.spanId),
    );
    for (const attempt of attempts)
      expect(ancestors(spans, attempt).some((id) => deliverRuns.has(id))).toBe(true);
    // Postgres and Redis (the job's enqueueing) under the request, on both sides.
    const databases = spans.map((span) => [span.service, span.attributes['db.system.name']].join(' '));
    expect(databases).toEqual(
      expect.arrayContaining([
        'ticket-judge-api postgresql',
        'ticket-judge-api redis',
        'ticket-judge-worker postgresql',
        'ticket-judge-worker redis',
      ]),
    );
    // Every span of the trace hangs from the request's span.
    for (const span of spans) expect(ancestors(spans, span).at(-1)).toBe(inbound.spanId);
  });

  it('gives POST /api/judge one trace with its model call', async () => {
    const session = new Client(api.url);
    await session.post('/api/auth/sign-up', {
      email: uniqueEmail('traces'),
      password: 'long enough password 1',
    });
    const { client: keyed } = await createKey(session);
    const pack = await createPublishedPack(keyed);
    expect((await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).status).toBe(200);
    const request = await serverSpan('/api/judge')();
    const spans = await traceWith(request.traceId, (all) =>
      all.some((span) => span.kind === CLIENT && span.attributes['server.port'] === portOf(gateway.url)),
    );
    expect(request).toMatchObject({ service: 'ticket-judge-api', name: 'POST /api/judge' });
    expect(new Set(spans.map((span) => span.service))).toEqual(new Set(['ticket-judge-api']));
    expect(spans.map((span) => span.attributes['db.system.name'])).toContain('postgresql');
  });

  it('never exports ticket text, keys, secrets, credentials, passwords or query values', async () => {
    const password = marker('password');
    const email = uniqueEmail('traces');
    const ticketWord = marker('ticketword');
    const queryToken = marker('querytoken');
    const nextValue = marker('nextvalue');
    const endpointToken = marker('endpointtoken');

    const session = new Client(api.url);
    expect((await session.post('/api/auth/sign-up', { email, password })).status).toBe(201);
    expect((await new Client(api.url).post('/api/auth/sign-in', { email, password })).status).toBe(200);
    const { key } = await createKey(session);
    const bearer = new Client(api.url);
    const auth = { headers: { authorization: `Bearer ${key.secret}` } };
    const pack = await createPublishedPack(bearer.withKey(key.secret));
    const endpoint = (
      await bearer.post('/api/webhook-endpoints', { url: `${receiver.url}?token=${endpointToken}` }, auth)
    ).body;
    const ticket = { ...TICKET, customerMessage: `${TICKET.customerMessage} ${ticketWord}` };
    const raw = JSON.stringify({ packId: pack.id, ticket });
    const before = receiver.calls.length;
    const accepted = await bearer.post('/api/webhooks/inbound', undefined, {
      raw,
      contentType: 'application/json',
      headers: { ...auth.headers, 'x-service-signature': sign(endpoint.secret, raw) },
    });
    expect(accepted.status).toBe(202);
    expect((await bearer.post('/api/judge', { packId: pack.id, ticket }, auth)).status).toBe(200);
    await bearer.get(`/api/packs?token=${queryToken}&next=${nextValue}`, auth);
    await new Client(api.url).get(`/login?next=${encodeURIComponent(`/oauth/authorize?state=${nextValue}`)}`);
    await eventually(async () => (receiver.calls.length > before ? true : undefined));
    await serverSpan('/login')();
    await eventually(async () =>
      otlp.spans.some(
        (span) =>
          span.kind === CLIENT &&
          span.attributes['server.port'] === portOf(receiver.url) &&
          span.attributes['url.full'] === `${receiver.url}?token=[redacted]`,
      )
        ? true
        : undefined,
    );

    const exported = otlp.bodies.join('\n');
    const planted = {
      ticketWord,
      password,
      apiKey: key.secret,
      webhookSecret: endpoint.secret,
      signature: sign(endpoint.secret, raw),
      queryToken,
      nextValue,
      endpointToken,
    };
    for (const [what, value] of Object.entries(planted)) {
      expect({ what, found: exported.includes(value) }).toEqual({ what, found: false });
    }
    // The requests are there, with their query names but not their values.
    const packs = otlp.spans.find(
      (span) =>
        span.kind === SERVER &&
        span.attributes['url.path'] === '/api/packs' &&
        span.attributes['http.request.method'] === 'GET',
    );
    expect(packs?.attributes['url.query']).toBe('token=[redacted]&next=[redacted]');
    // Redis commands carry their name alone; statements their placeholders.
    const redis = otlp.spans.filter((span) => span.attributes['db.system.name'] === 'redis');
    expect(redis.length).toBeGreaterThan(0);
    for (const span of redis) expect(span.attributes['db.query.text']).toMatch(/^[a-z]+$/);
  });
});

describe('traces off (OTEL_EXPORTER_OTLP_ENDPOINT unset)', () => {
  it('starts no SDK: nothing is exported, even to the SDK’s own endpoint variable', async () => {
    const otlp = await new OtlpReceiver().start();
    const api = await startApiProcess({
      REDIS_PREFIX: `${PREFIX}-off`,
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp.url}/v1/traces`,
      ...QUICK_EXPORT,
    });
    try {
      const session = new Client(api.url);
      await session.post('/api/auth/sign-up', {
        email: uniqueEmail('traces'),
        password: 'long enough password 1',
      });
      const { client: keyed } = await createKey(session);
      const pack = await createPublishedPack(keyed);
      const judged = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
      expect(judged.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(otlp.bodies).toEqual([]);
    } finally {
      api.child.kill('SIGTERM');
      await api.exited();
      await otlp.close();
    }
  });
});

describe('traces sampled (OTEL_TRACES_SAMPLER_ARG=0)', () => {
  it('starts no trace of its own, yet continues a caller’s sampled trace', async () => {
    const otlp = await new OtlpReceiver().start();
    const api = await startApiProcess({
      REDIS_PREFIX: `${PREFIX}-sampled`,
      OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url,
      OTEL_TRACES_SAMPLER_ARG: '0',
      ...QUICK_EXPORT,
    });
    try {
      const unsampled = await fetch(`${api.url}/api/packs`);
      expect(unsampled.status).toBe(401);
      const traceId = randomBytes(16).toString('hex');
      const continued = await fetch(`${api.url}/api/judge`, {
        method: 'POST',
        headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
      });
      expect(continued.status).toBe(401);
      const spans = await eventually(async () => {
        const trace = otlp.trace(traceId);
        return trace.some((span) => span.kind === SERVER) ? trace : undefined;
      }, 30_000);
      expect(spans.find((span) => span.kind === SERVER)?.attributes['url.path']).toBe('/api/judge');
      // The caller's trace arrived; the request before it, with no traceparent, made none.
      expect(
        otlp.spans.filter((span) => span.kind === SERVER).map((span) => span.attributes['url.path']),
      ).toEqual(['/api/judge']);
    } finally {
      api.child.kill('SIGTERM');
      await api.exited();
      await otlp.close();
    }
  });
});

/** A span's ancestors' ids within its trace, nearest first. */
function ancestors(spans: ReceivedSpan[], span: ReceivedSpan): string[] {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  const ids: string[] = [];
  let parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
  while (parent) {
    ids.push(parent.spanId);
    parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined;
  }
  return ids.length ? ids : [span.spanId];
}
