import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';
import { Receiver } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';
import { queryDatabase } from '../support/db.js';

const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-guard`;
const PRODUCTION = { NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) };
const REFUSED = { error: 'url must not point to a loopback, private, link-local or metadata address' };

const query = queryDatabase;

describe('completion URLs saved in production', () => {
  let api: TestApi;
  let keyed: Client;

  beforeAll(async () => {
    api = await startApi({ ...PRODUCTION, REDIS_PREFIX: PREFIX });
    ({ keyed } = await newTenant(api.url));
  });
  afterAll(async () => {
    await api.close();
  });

  it('saves public IPv4 and IPv6 literals, and mapped or NAT64 forms of a public IPv4 address', async () => {
    for (const url of [
      'https://8.8.8.8/hook',
      'https://1.1.1.1:8443/hook',
      'https://[2606:4700:4700::1111]/hook',
      'https://[2001:4860:4860::8888]/hook',
      'https://[::ffff:8.8.8.8]/hook',
      'https://[64:ff9b::808:808]/hook',
    ]) {
      const res = await keyed.post('/api/webhook-endpoints', { url });
      expect({ url, status: res.status, saved: res.body.url }).toEqual({ url, status: 201, saved: url });
    }
  });

  it('refuses private addresses, however spelled or embedded in IPv6, with 400', async () => {
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://2130706433/x',
      'http://0x7f.1/x',
      'http://127.1/x',
      'http://0177.0.0.1/x',
      'http://10.1.2.3/x',
      'http://172.16.0.1/x',
      'http://192.168.0.1/x',
      'http://100.64.0.1/x',
      'http://169.254.169.254/latest',
      'http://0.0.0.0/x',
      'http://255.255.255.255/x',
      'http://224.0.0.1/x',
      'http://[::1]/x',
      'http://[::]/x',
      'http://[fd00::1]/x',
      'http://[fe80::1]/x',
      'http://[ff02::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[::ffff:10.0.0.1]/x',
      'http://[64:ff9b::7f00:1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[64:ff9b:1::808:808]/',
      'http://[2002:7f00:1::]/',
      'http://[::127.0.0.1]/',
      'http://[2001::]/',
      'http://localhost/x',
    ]) {
      const res = await keyed.post('/api/webhook-endpoints', { url });
      expect({ url, status: res.status, body: res.body }).toEqual({ url, status: 400, body: REFUSED });
    }
    const zoned = await keyed.post('/api/webhook-endpoints', { url: 'http://[fe80::1%25eth0]/x' });
    expect(zoned.body).toEqual({ error: 'url must be an absolute http or https URL' });
  });

  it('sends no test event to a stored private endpoint, and reports the refusal', async () => {
    const { keyed, user } = await newTenant(api.url);
    const saved = (await keyed.post('/api/webhook-endpoints', { url: 'https://8.8.8.8/hook' })).body;
    const receiver = await new Receiver().start();
    try {
      // As if saved while private URLs were allowed: the stored row points at the loopback receiver.
      await query(`UPDATE webhook_endpoints SET url = $1 WHERE user_id = $2`, [receiver.url, user.id]);
      const res = await keyed.post(`/api/webhook-endpoints/${saved.id}/test`);
      expect([res.status, res.body]).toEqual([
        200,
        {
          ok: false,
          status: null,
          durationMs: expect.any(Number),
          error: 'Error: refusing private address 127.0.0.1 (loopback)',
        },
      ]);
      expect(receiver.calls).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe('a stored private endpoint and a production worker', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let receiver: Receiver;
  // The API enqueues redeliveries, so it takes the same short retry schedule as the workers.
  const env = {
    ...PRODUCTION,
    REDIS_PREFIX: `${PREFIX}-deliver`,
    WEBHOOK_MAX_ATTEMPTS: '2',
    WEBHOOK_BACKOFF_MS: '100',
  };
  const workerEnv = () => ({ ...env, MODEL_GATEWAY_URL: gateway.url });

  beforeAll(async () => {
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
    api = await startApi(env);
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
    await gateway.close();
  });

  it('sends nothing to it, first delivery or redelivery, until WEBHOOK_ALLOW_PRIVATE_URLS=true', async () => {
    const { keyed, user } = await newTenant(api.url);
    expect((await keyed.post('/api/webhook-endpoints', { url: 'https://8.8.8.8/hook' })).status).toBe(201);
    // As if saved while private URLs were allowed: the stored row points at the loopback receiver.
    const storeUrl = (url: string) =>
      query(`UPDATE webhook_endpoints SET url = $1 WHERE user_id = $2`, [url, user.id]);
    await storeUrl(receiver.url);
    const pack = await createPublishedPack(keyed);
    const failedDelivery = (attempts: number) =>
      eventually(async () => {
        const item = (await keyed.get('/api/webhook-deliveries?status=failed')).body.items[0];
        return item?.attempts === attempts ? item : undefined;
      });

    const worker = await startWorker(workerEnv());
    let deliveryId: string;
    try {
      const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET }))
        .body;
      const first = await failedDelivery(2);
      deliveryId = first.id;
      expect(first).toMatchObject({
        eventId,
        lastStatusCode: null,
        lastError: 'Error: refusing private address 127.0.0.1 (loopback)',
        nextAttemptAt: null,
      });

      await storeUrl(receiver.url.replace('127.0.0.1', '[::ffff:127.0.0.1]'));
      expect((await keyed.post(`/api/webhook-deliveries/${deliveryId}/redeliver`)).status).toBe(202);
      expect(await failedDelivery(4)).toMatchObject({
        id: deliveryId,
        lastStatusCode: null,
        lastError: 'Error: refusing private address ::ffff:7f00:1 (loopback)',
      });
      expect(receiver.calls).toEqual([]);
    } finally {
      await stopWorker(worker);
    }

    const allowed = await startWorker({ ...workerEnv(), WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    try {
      expect((await keyed.post(`/api/webhook-deliveries/${deliveryId}/redeliver`)).status).toBe(202);
      const [call] = await eventually(async () => (receiver.calls.length ? receiver.calls : undefined));
      expect(call.headers['x-service-delivery-id']).toBe(deliveryId);
      const done = await eventually(async () => {
        const item = (await keyed.get('/api/webhook-deliveries?status=succeeded')).body.items[0];
        return item ?? undefined;
      });
      expect(done).toMatchObject({ id: deliveryId, attempts: 5, lastStatusCode: 200, lastError: null });
    } finally {
      await stopWorker(allowed);
    }
  }, 60_000);
});
