import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPack, createPublishedPack, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { openQueue } from '../support/queues.js';
import { Receiver, sign, verifies } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';
import { queryDatabase } from '../support/db.js';
import { CompletionSender, InboundJudge } from '../../libs/webhooks/src/index.js';

const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-hooks`;

const query = queryDatabase;

describe('completion endpoint', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: PREFIX });
  });
  afterAll(async () => {
    await api.close();
  });

  it('saves one endpoint per user with a secret shown once, replaces it, lists it without the secret, deletes it', async () => {
    const { keyed } = await newTenant(api.url);
    const first = await keyed.post('/api/webhook-endpoints', { url: 'https://example.com/hooks' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: 'https://example.com/hooks',
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      requireInboundSignature: false,
    });
    const second = await keyed.post('/api/webhook-endpoints', { url: 'https://example.org/other' });
    expect(second.body.secret).not.toBe(first.body.secret);
    const list = await keyed.get('/api/webhook-endpoints');
    expect(list.body).toEqual([
      { id: second.body.id, url: 'https://example.org/other', requireInboundSignature: false },
    ]);
    await keyed.post('/api/webhook-endpoints', {
      url: 'https://example.org/signed',
      requireInboundSignature: true,
    });
    expect((await keyed.get('/api/webhook-endpoints')).body).toEqual([
      expect.objectContaining({ url: 'https://example.org/signed', requireInboundSignature: true }),
    ]);
    expect(list.text).not.toContain('whsec_');
    expect((await keyed.delete(`/api/webhook-endpoints/${first.body.id}`)).status).toBe(404);
    const current = (await keyed.get('/api/webhook-endpoints')).body[0].id;
    expect((await keyed.delete(`/api/webhook-endpoints/${current}`)).status).toBe(204);
    expect((await keyed.get('/api/webhook-endpoints')).body).toEqual([]);
  });

  it('refuses URLs that are not absolute http(s), and answers 404 for a foreign endpoint', async () => {
    const { keyed } = await newTenant(api.url);
    for (const url of ['ftp://example.com/x', '/relative', 'not a url', 'javascript:alert(1)']) {
      const res = await keyed.post('/api/webhook-endpoints', { url });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('absolute http or https');
    }
    const other = await newTenant(api.url);
    const theirs = (await other.keyed.post('/api/webhook-endpoints', { url: 'https://example.com' })).body;
    const res = await keyed.delete(`/api/webhook-endpoints/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'webhook endpoint not found' });
  });

  it('refuses private addresses in production unless WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
    await api.close();
    api = await startApi({ REDIS_PREFIX: PREFIX, NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) });
    const { keyed } = await newTenant(api.url);
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://localhost/x',
      'http://10.1.2.3/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
    ]) {
      const res = await keyed.post('/api/webhook-endpoints', { url });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('private');
    }
    await api.close();
    api = await startApi({
      REDIS_PREFIX: PREFIX,
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
    });
    const allowed = await (
      await newTenant(api.url)
    ).keyed.post('/api/webhook-endpoints', { url: 'http://127.0.0.1:8080/x' });
    expect(allowed.status).toBe(201);
  });

  it('needs packs:write to save and packs:read to list', async () => {
    const { session } = await newTenant(api.url);
    const { client: reader } = await createKey(session, ['packs:read']);
    const { client: writer } = await createKey(session, ['packs:write']);
    expect((await reader.post('/api/webhook-endpoints', { url: 'https://example.com' })).body).toEqual({
      error: 'missing permission packs:write',
    });
    expect((await writer.get('/api/webhook-endpoints')).body).toEqual({
      error: 'missing permission packs:read',
    });
  });
});

describe('inbound webhooks, judged by the worker, completed with signed deliveries', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let receiver: Receiver;
  let worker: RunningProcess;
  const prefix = `${PREFIX}-flow`;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
    worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: prefix,
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_BACKOFF_MS: '200',
    });
  });
  afterEach(() => {
    gateway.reset();
    receiver.standing = 200;
  });
  afterAll(async () => {
    await stopWorker(worker);
    await api.close();
    await receiver.close();
    await gateway.close();
  });

  async function tenantWithEndpoint() {
    const tenant = await newTenant(api.url);
    const endpoint = (await tenant.keyed.post('/api/webhook-endpoints', { url: receiver.url })).body;
    const pack = await createPublishedPack(tenant.keyed);
    return { ...tenant, endpoint, pack };
  }

  const callsFor = (eventId: string) => receiver.calls.filter((call) => call.body.eventId === eventId);

  it('answers 202 {eventId}, judges afterwards, and POSTs a completion the receiver can verify', async () => {
    const { keyed, endpoint, pack } = await tenantWithEndpoint();
    const res = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ eventId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const [call] = await eventually(async () =>
      callsFor(res.body.eventId).length ? callsFor(res.body.eventId) : undefined,
    );
    expect(verifies(endpoint.secret, call.raw, call.headers['x-service-signature'])).toBe(true);
    expect(
      verifies(endpoint.secret, call.raw.replace('reject', 'accept'), call.headers['x-service-signature']),
    ).toBe(false);
    expect(verifies('whsec_wrong', call.raw, call.headers['x-service-signature'])).toBe(false);
    expect(call.headers['x-service-event-id']).toBe(res.body.eventId);
    expect(call.headers['x-service-delivery-id']).toBe(call.body.deliveryId);
    expect(call.body).toEqual({
      type: 'evaluation.completed',
      eventId: res.body.eventId,
      deliveryId: expect.any(String),
      sentAt: expect.any(String),
      evaluation: {
        id: expect.any(String),
        packId: pack.id,
        packVersionId: pack.liveVersionId,
        source: 'webhook',
        status: 'reject',
        result: expect.objectContaining({ status: 'reject', modelId: 'fake-model-2026-01-01' }),
        createdAt: expect.any(String),
      },
    });
    expect(Date.now() - Date.parse(call.body.sentAt)).toBeLessThan(60_000);
    expect(call.raw).not.toContain('jane.doe@example.com');
    const evaluation = await keyed.get(`/api/evaluations/${call.body.evaluation.id}`);
    // The row's stamp, as the API shows it (Postgres stamps the row; the payload is given its stamp).
    expect(evaluation.body).toMatchObject({
      source: 'webhook',
      status: 'reject',
      createdAt: call.body.evaluation.createdAt,
    });
    expect(call.body.evaluation.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const deliveries = await keyed.get('/api/webhook-deliveries');
    expect(deliveries.body.items[0]).toMatchObject({
      id: call.body.deliveryId,
      eventId: res.body.eventId,
      evaluationId: call.body.evaluation.id,
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
    });
  });

  it('judges an event again when the model was unreachable, and completes with its answer', async () => {
    const { keyed, pack } = await tenantWithEndpoint();
    const before = gateway.calls;
    gateway.next({ kind: 'status', status: 503 });
    const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET })).body;
    const [call] = await eventually(async () => (callsFor(eventId).length ? callsFor(eventId) : undefined));
    expect(gateway.calls - before).toBe(2);
    expect(call.body.evaluation.result.reviewReasons).not.toContain('gateway_unavailable');
    expect(callsFor(eventId)).toHaveLength(1);
  });

  it("stores an unreachable model as review (gateway_unavailable) on the event's last attempt, and completes", async () => {
    const { keyed, pack } = await tenantWithEndpoint();
    gateway.set({ kind: 'status', status: 503 });
    try {
      const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }))
        .body;
      // The last of the job's attempts, run here rather than waiting out the backoff.
      expect(await api.app.get(InboundJudge).judgeEvent(eventId, { lastAttempt: true })).toBe('judged');
      const [call] = await eventually(async () => (callsFor(eventId).length ? callsFor(eventId) : undefined));
      expect(call.body.evaluation.status).toBe('review');
      expect(call.body.evaluation.result.reviewReasons).toEqual(['gateway_unavailable']);
    } finally {
      gateway.reset();
    }
  });

  it('retries a failed delivery: 500 then 200 succeeds on the second attempt', async () => {
    const { keyed, pack } = await tenantWithEndpoint();
    receiver.next(500);
    const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET })).body;
    const calls = await eventually(async () =>
      callsFor(eventId).length >= 2 ? callsFor(eventId) : undefined,
    );
    expect(calls[0].body.deliveryId).toBe(calls[1].body.deliveryId);
    const delivery = await eventually(async () => {
      const item = (await keyed.get('/api/webhook-deliveries')).body.items[0];
      return item?.status === 'succeeded' ? item : undefined;
    });
    expect(delivery).toMatchObject({ attempts: 2, lastStatusCode: 200 });
  });

  it('fails a delivery whose attempts are exhausted, and shows it in stats', async () => {
    const { keyed, pack } = await tenantWithEndpoint();
    receiver.standing = 500;
    const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET })).body;
    const delivery = await eventually(async () => {
      const item = (await keyed.get('/api/webhook-deliveries?status=failed')).body.items[0];
      return item ?? undefined;
    }, 30_000);
    expect(delivery).toMatchObject({
      eventId,
      status: 'failed',
      attempts: 3,
      lastStatusCode: 500,
      nextAttemptAt: null,
    });
    expect(callsFor(eventId)).toHaveLength(3);
    const stats = (await keyed.get('/api/stats')).body;
    expect(stats.webhookFailureCount).toBe(1);
    expect(stats.recentWebhookFailures).toEqual([
      {
        id: delivery.id,
        evaluationId: delivery.evaluationId,
        lastStatusCode: 500,
        updatedAt: delivery.updatedAt,
      },
    ]);

    // Redelivery: same payload and delivery id, a fresh signature. Two racing requests start one
    // round of sends: the second finds the delivery pending already. The receiver answers slowly, so
    // the round is still pending when the second arrives, however loaded the machine.
    receiver.standing = 200;
    receiver.delayMs = 2000;
    const redeliveries = await Promise.all(
      [1, 2].map(() => keyed.post(`/api/webhook-deliveries/${delivery.id}/redeliver`)),
    ).finally(() => {
      receiver.delayMs = 0;
    });
    expect(redeliveries.map((res) => res.status).sort()).toEqual([202, 409]);
    const calls = await eventually(async () =>
      callsFor(eventId).length === 4 ? callsFor(eventId) : undefined,
    );
    expect(calls[3].body.deliveryId).toBe(delivery.id);
    expect(calls[3].body.evaluation).toEqual(calls[0].body.evaluation);
    const after = await eventually(async () => {
      const item = (await keyed.get(`/api/webhook-deliveries?status=succeeded`)).body.items.find(
        (d: { id: string }) => d.id === delivery.id,
      );
      return item;
    });
    expect(after.status).toBe('succeeded');
    expect((await keyed.get('/api/stats')).body.webhookFailureCount).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(callsFor(eventId)).toHaveLength(4);
  }, 120_000);

  it('checks credential, body, pack and live version before answering', async () => {
    const { session, keyed, pack } = await tenantWithEndpoint();
    expect((await session.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET })).body).toEqual({
      error: 'API key required',
    });
    const { client: reader } = await createKey(session, ['judgments:read']);
    expect((await reader.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET })).body).toEqual({
      error: 'missing permission judgments:run',
    });
    expect(
      (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: { subject: 'x' } })).status,
    ).toBe(400);
    const missing = await keyed.post('/api/webhooks/inbound', {
      packId: '00000000-0000-4000-8000-000000000000',
      ticket: TICKET,
    });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ error: 'pack not found' });
    const draft = await createPack(keyed);
    const noLive = await keyed.post('/api/webhooks/inbound', { packId: draft.id, ticket: TICKET });
    expect(noLive.status).toBe(409);
    expect(noLive.body).toEqual({ error: 'pack has no published version' });
  });

  it('verifies an inbound signature when one is sent, and requires it when the endpoint says so', async () => {
    const { keyed, pack, endpoint } = await tenantWithEndpoint();
    const raw = JSON.stringify({ packId: pack.id, ticket: TICKET });
    const signed = await keyed.post('/api/webhooks/inbound', undefined, {
      raw,
      contentType: 'application/json',
      headers: { 'x-service-signature': sign(endpoint.secret, raw) },
    });
    expect(signed.status).toBe(202);
    const tampered = await keyed.post('/api/webhooks/inbound', undefined, {
      raw: raw.replace('Charged', 'Charges'),
      contentType: 'application/json',
      headers: { 'x-service-signature': sign(endpoint.secret, raw) },
    });
    expect(tampered.status).toBe(401);
    expect(tampered.body).toEqual({ error: 'invalid signature' });
    await keyed.post('/api/webhook-endpoints', { url: receiver.url, requireInboundSignature: true });
    const unsigned = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body).toEqual({ error: 'invalid signature' });
  });

  it('replays an Idempotency-Key with the first eventId, on its own surface', async () => {
    const { keyed, pack } = await tenantWithEndpoint();
    const headers = { 'idempotency-key': 'zendesk-4711' };
    const first = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }, { headers });
    const again = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }, { headers });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    const judged = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET }, { headers });
    expect(judged.status).toBe(200);
    expect(judged.body.evaluationId).toEqual(expect.any(String));
    const events = await query(`SELECT count(*)::int AS n FROM inbound_events WHERE id = $1`, [
      first.body.eventId,
    ]);
    expect(events).toEqual([{ n: 1 }]);
  });

  it('judges and delivers 500 inbound requests in a burst: one evaluation and one delivery each, none twice', async () => {
    const BURST = 500;
    const { keyed, pack, user } = await tenantWithEndpoint();
    const responses = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: { ...TICKET, externalId: `B-${i}` } }),
      ),
    );
    expect(responses.every((res) => res.status === 202)).toBe(true);
    const ids = new Set(responses.map((res) => res.body.eventId as string));
    expect(ids.size).toBe(BURST);
    await eventually(async () => {
      const [row] = await query(
        `SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1 AND status = 'succeeded'`,
        [user.id],
      );
      return row.n === BURST ? true : undefined;
    }, 120_000);
    const [evaluations] = await query(
      `SELECT count(*)::int AS n, count(DISTINCT inbound_event_id)::int AS events FROM evaluations WHERE user_id = $1 AND source = 'webhook'`,
      [user.id],
    );
    expect(evaluations).toEqual({ n: BURST, events: BURST });
    const received = receiver.calls.filter((call) => ids.has(call.body.eventId));
    expect(received).toHaveLength(BURST);
    expect(new Set(received.map((call) => call.body.deliveryId)).size).toBe(BURST);
  }, 180_000);
});

describe('inbound webhooks with Redis away, and a worker killed mid-flight', () => {
  let gateway: FakeGateway;
  let receiver: Receiver;
  const prefix = `${PREFIX}-faults`;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
  });
  afterAll(async () => {
    await receiver.close();
    await gateway.close();
  });

  it('accepts events with 202 while Redis is down; afterwards each is judged and completed exactly once', async () => {
    const offline = await startApi({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: prefix,
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    let apiKey: string;
    const eventIds: string[] = [];
    let userId: string;
    try {
      const tenant = await newTenant(offline.url);
      apiKey = tenant.key.secret;
      userId = tenant.user.id;
      await tenant.keyed.post('/api/webhook-endpoints', { url: receiver.url });
      const pack = await createPublishedPack(tenant.keyed);
      for (let i = 0; i < 5; i++) {
        const res = await tenant.keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
        expect(res.status).toBe(202);
        eventIds.push(res.body.eventId);
      }
    } finally {
      await offline.close();
    }
    const worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: prefix,
      WORKER_SWEEP_MS: '500',
    });
    try {
      await eventually(
        async () =>
          eventIds.every((id) => receiver.calls.some((c) => c.body.eventId === id)) ? true : undefined,
        30_000,
      );
      const [row] = await query(
        `SELECT count(*)::int AS n, count(DISTINCT inbound_event_id)::int AS events FROM evaluations WHERE user_id = $1`,
        [userId!],
      );
      expect(row).toEqual({ n: 5, events: 5 });
      const perEvent = eventIds.map((id) => receiver.calls.filter((c) => c.body.eventId === id).length);
      expect(perEvent).toEqual([1, 1, 1, 1, 1]);
      expect(apiKey!).toBeDefined();
    } finally {
      await stopWorker(worker);
    }
  }, 120_000);

  it('refuses to redeliver a delivery whose retries are still scheduled (409)', async () => {
    const api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: `${prefix}-pending` });
    const worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: `${prefix}-pending`,
      WEBHOOK_MAX_ATTEMPTS: '3',
      WEBHOOK_BACKOFF_MS: '600000',
    });
    try {
      const { keyed } = await newTenant(api.url);
      await keyed.post('/api/webhook-endpoints', { url: receiver.url });
      const pack = await createPublishedPack(keyed);
      receiver.next(503);
      await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
      const delivery = await eventually(async () => {
        const item = (await keyed.get('/api/webhook-deliveries')).body.items[0];
        return item?.attempts === 1 ? item : undefined;
      });
      expect(delivery).toMatchObject({
        status: 'pending',
        lastStatusCode: 503,
        nextAttemptAt: expect.any(String),
      });
      const res = await keyed.post(`/api/webhook-deliveries/${delivery.id}/redeliver`);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'delivery is still pending' });
      const foreign = await (
        await newTenant(api.url)
      ).keyed.post(`/api/webhook-deliveries/${delivery.id}/redeliver`);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toEqual({ error: 'delivery not found' });
    } finally {
      await stopWorker(worker);
      await api.close();
    }
  }, 90_000);

  it("records WORKER_NAME on the jobs a worker runs (Bull Board's processedBy)", async () => {
    const namedPrefix = `${prefix}-named`;
    const api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: namedPrefix });
    const worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: namedPrefix,
      WORKER_NAME: 'judge-worker-7',
    });
    const queue = openQueue('webhooks', namedPrefix);
    try {
      expect(worker.output()).toMatch(/"worker":"judge-worker-7"/);
      const { keyed } = await newTenant(api.url);
      await keyed.post('/api/webhook-endpoints', { url: receiver.url });
      const pack = await createPublishedPack(keyed);
      const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }))
        .body;
      await eventually(async () =>
        receiver.calls.some((c) => c.body.eventId === eventId) ? true : undefined,
      );
      const completed = await eventually(async () => {
        const jobs = await queue.getCompleted();
        return jobs.length >= 2 ? jobs : undefined;
      });
      expect(new Set(completed.map((job) => job.processedBy))).toEqual(new Set(['judge-worker-7']));
    } finally {
      await queue.close();
      await stopWorker(worker);
      await api.close();
    }
  }, 90_000);

  it('sends a pending delivery whose job Redis lost (the sweeper recreates it), once, counting attempts from the row', async () => {
    const lostPrefix = `${prefix}-lost`;
    const api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: lostPrefix });
    const worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: lostPrefix,
      WEBHOOK_MAX_ATTEMPTS: '5',
      // Long enough that the retry is still waiting when the test looks, on a loaded machine too.
      WEBHOOK_BACKOFF_MS: '6000',
      WORKER_SWEEP_MS: '500',
    });
    const queue = openQueue('webhooks', lostPrefix);
    try {
      const { keyed } = await newTenant(api.url);
      await keyed.post('/api/webhook-endpoints', { url: receiver.url });
      const pack = await createPublishedPack(keyed);
      receiver.next(503);
      const accepted = await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET });
      const delivery = await eventually(async () => {
        const item = (await keyed.get('/api/webhook-deliveries')).body.items[0];
        return item?.attempts === 1 ? item : undefined;
      });
      // The retry waits in BullMQ's delayed set; losing it is what a Redis restart without persistence does.
      // The attempt is recorded before its job throws, so the job is briefly still active.
      const job = await eventually(async () => {
        const found = await queue.getJob(`delivery-${delivery.id}-0`);
        return (await found?.getState()) === 'delayed' ? found : undefined;
      }, 5_000);
      await job.remove();
      const done = await eventually(async () => {
        const item = (await keyed.get('/api/webhook-deliveries')).body.items[0];
        return item?.status === 'succeeded' ? item : undefined;
      }, 30_000);
      expect(done).toMatchObject({ attempts: 2, lastStatusCode: 200 });
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const calls = receiver.calls.filter((call) => call.body.eventId === accepted.body.eventId);
      expect(calls.map((call) => call.body.deliveryId)).toEqual([delivery.id, delivery.id]);
    } finally {
      await queue.close();
      await stopWorker(worker);
      await api.close();
    }
  }, 60_000);

  it('sends a delivery once when two attempts run at the same time (a job taken over while it still sends)', async () => {
    const api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: `${prefix}-claims` });
    try {
      const { keyed } = await newTenant(api.url);
      await keyed.post('/api/webhook-endpoints', { url: receiver.url });
      const pack = await createPublishedPack(keyed);
      const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }))
        .body;
      await api.app.get(InboundJudge).judgeEvent(eventId);
      const sender = api.app.get(CompletionSender);
      const [{ id }] = await query(`SELECT id FROM webhook_deliveries WHERE event_id = $1`, [eventId]);
      receiver.delayMs = 300;
      const outcomes = await Promise.all([sender.deliver(id, 0), sender.deliver(id, 0)]).finally(() => {
        receiver.delayMs = 0;
      });
      expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['claimed', 'succeeded']);
      expect(receiver.calls.filter((call) => call.body.deliveryId === id)).toHaveLength(1);
      expect(await sender.deliver(id, 1)).toEqual({ kind: 'skipped' });
    } finally {
      await api.close();
    }
  });

  it('after a SIGKILL mid-flight, every accepted event has exactly one evaluation and one succeeded delivery', async () => {
    const api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix });
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: prefix, WORKER_CONCURRENCY: '8' };
    try {
      const { keyed, user } = await newTenant(api.url);
      await keyed.post('/api/webhook-endpoints', { url: receiver.url });
      const pack = await createPublishedPack(keyed);
      gateway.set({ kind: 'answer', delayMs: 100 });
      const first = await startWorker(env);
      const responses = await Promise.all(
        Array.from({ length: 60 }, () =>
          keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }),
        ),
      );
      expect(responses.every((res) => res.status === 202)).toBe(true);
      await eventually(async () => {
        const [row] = await query(`SELECT count(*)::int AS n FROM evaluations WHERE user_id = $1`, [user.id]);
        return row.n >= 10 ? true : undefined;
      });
      await stopWorker(first, 'SIGKILL');
      gateway.set({ kind: 'answer' });
      const second = await startWorker(env);
      try {
        await eventually(async () => {
          const [row] = await query(
            `SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1 AND status = 'succeeded'`,
            [user.id],
          );
          return row.n === 60 ? true : undefined;
        }, 100_000);
        const [evaluations] = await query(
          `SELECT count(*)::int AS n, count(DISTINCT inbound_event_id)::int AS events FROM evaluations WHERE user_id = $1`,
          [user.id],
        );
        expect(evaluations).toEqual({ n: 60, events: 60 });
        const [deliveries] = await query(
          `SELECT count(*)::int AS n FROM webhook_deliveries WHERE user_id = $1`,
          [user.id],
        );
        expect(deliveries).toEqual({ n: 60 });
      } finally {
        await stopWorker(second);
      }
    } finally {
      await api.close();
    }
  }, 180_000);
});
