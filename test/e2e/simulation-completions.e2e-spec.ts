import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant, type Client } from '../support/client.js';
import { createDataset } from '../support/datasets.js';
import { queryDatabase } from '../support/db.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { Receiver, verifies } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/** Its own Redis namespace: only this file's workers take these jobs. */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-simcompletions`;

interface Tenant {
  keyed: Client;
  secret: string;
}

async function tenantWithEndpoint(api: TestApi, receiver: Receiver): Promise<Tenant> {
  const { keyed } = await newTenant(api.url);
  const saved = await keyed.post('/api/webhook-endpoints', { url: receiver.url });
  expect(saved.status).toBe(201);
  return { keyed, secret: saved.body.secret };
}

describe('simulation completions to the user endpoint', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let receiver: Receiver;
  let worker: RunningProcess | undefined;
  const workerEnv = () => ({
    MODEL_GATEWAY_URL: gateway.url,
    REDIS_PREFIX: PREFIX,
    WEBHOOK_MAX_ATTEMPTS: '2',
    WEBHOOK_BACKOFF_MS: '200',
  });

  beforeAll(async () => {
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    worker = await startWorker(workerEnv());
  });
  afterAll(async () => {
    if (worker) await stopWorker(worker);
    await api.close();
    await receiver.close();
    await gateway.close();
  });

  const callsFor = (simulationId: string) =>
    receiver.calls.filter((call) => call.body.simulation?.id === simulationId);

  it('sends one signed simulation.completed with the final counts, listed among the deliveries', async () => {
    const { keyed, secret } = await tenantWithEndpoint(api, receiver);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 12);
    const { id } = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id })).body;

    const [call] = await eventually(async () => {
      const calls = callsFor(id);
      return calls.length ? calls : undefined;
    });
    expect(verifies(secret, call.raw, call.headers['x-service-signature'])).toBe(true);
    expect(call.headers['x-service-simulation-id']).toBe(id);
    expect(call.headers['x-service-delivery-id']).toBe(call.body.deliveryId);
    expect(call.headers['x-service-event-id']).toBeUndefined();
    const byStatus = call.body.simulation.byStatus;
    expect(call.body).toEqual({
      type: 'simulation.completed',
      deliveryId: expect.any(String),
      sentAt: expect.any(String),
      simulation: {
        id,
        datasetId: dataset.id,
        packId: pack.id,
        packVersionId: pack.liveVersionId,
        status: 'completed',
        reason: null,
        total: 12,
        completed: 12,
        byStatus: { accept: expect.any(Number), review: expect.any(Number), reject: expect.any(Number) },
        createdAt: expect.any(String),
        startedAt: expect.any(String),
        finishedAt: expect.any(String),
      },
    });
    expect(byStatus.accept + byStatus.review + byStatus.reject).toBe(12);
    // What the GET route reports is what was sent.
    const view = (await keyed.get(`/api/simulations/${id}`)).body;
    expect(view).toMatchObject({
      status: 'completed',
      completed: 12,
      byStatus,
      finishedAt: call.body.simulation.finishedAt,
    });

    const deliveries = await eventually(async () => {
      const items = (await keyed.get('/api/webhook-deliveries')).body.items;
      return items[0]?.status === 'succeeded' ? items : undefined;
    });
    expect(deliveries).toEqual([
      expect.objectContaining({
        id: call.body.deliveryId,
        type: 'simulation.completed',
        simulationId: id,
        eventId: null,
        evaluationId: null,
        attempts: 1,
        lastStatusCode: 200,
      }),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(callsFor(id)).toHaveLength(1);
  });

  it('sends simulation.failed with the reason when a run cannot finish', async () => {
    const { keyed } = await tenantWithEndpoint(api, receiver);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 5);
    await stopWorker(worker!);
    worker = undefined;
    const { id } = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id })).body;
    // A ticket vanishes between the start and the run: the worker cannot judge the whole dataset.
    await queryDatabase(
      `DELETE FROM dataset_tickets WHERE id = (SELECT id FROM dataset_tickets WHERE dataset_id = $1 LIMIT 1)`,
      [dataset.id],
    );
    worker = await startWorker(workerEnv());

    const [call] = await eventually(async () => {
      const calls = callsFor(id);
      return calls.length ? calls : undefined;
    });
    expect(call.body.type).toBe('simulation.failed');
    expect(call.body.simulation).toMatchObject({
      id,
      status: 'failed',
      reason: 'the dataset holds 4 of its 5 tickets',
      total: 5,
      completed: 0,
    });
  }, 90_000);

  it('sends simulation.completed for an empty dataset, which completes at once', async () => {
    const { keyed } = await tenantWithEndpoint(api, receiver);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 0);
    const { id } = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id })).body;
    const [call] = await eventually(async () => {
      const calls = callsFor(id);
      return calls.length ? calls : undefined;
    });
    expect(call.body.simulation).toMatchObject({ status: 'completed', total: 0, completed: 0 });
  });

  it('sends nothing for a cancelled simulation, or when no endpoint is saved', async () => {
    const { keyed } = await tenantWithEndpoint(api, receiver);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 40);
    gateway.set({ kind: 'answer', delayMs: 200 });
    try {
      const cancelled = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id }))
        .body;
      expect((await keyed.post(`/api/simulations/${cancelled.id}/cancel`)).status).toBe(200);

      const { keyed: silent } = await newTenant(api.url);
      const silentPack = await createPublishedPack(silent);
      const silentDataset = await createDataset(silent, 3);
      const quiet = (
        await silent.post('/api/simulations', { datasetId: silentDataset.id, packId: silentPack.id })
      ).body;
      await eventually(async () => {
        const status = (await silent.get(`/api/simulations/${quiet.id}`)).body.status;
        return status === 'completed' ? true : undefined;
      });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(callsFor(cancelled.id)).toEqual([]);
      expect(callsFor(quiet.id)).toEqual([]);
      const rows = await queryDatabase(
        `SELECT id FROM webhook_deliveries WHERE simulation_id = ANY($1::uuid[])`,
        [[cancelled.id, quiet.id]],
      );
      expect(rows).toEqual([]);
    } finally {
      gateway.reset();
    }
  });

  it('retries a refused simulation completion, and keeps it out of the stats, which name evaluations', async () => {
    const { keyed } = await tenantWithEndpoint(api, receiver);
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 2);
    receiver.next(503, 503);
    const { id } = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id })).body;
    const delivery = await eventually(async () => {
      const item = (await keyed.get('/api/webhook-deliveries?status=failed')).body.items[0];
      return item ?? undefined;
    }, 30_000);
    expect(delivery).toMatchObject({ simulationId: id, attempts: 2, lastStatusCode: 503 });
    expect(callsFor(id).map((call) => call.body.deliveryId)).toEqual([delivery.id, delivery.id]);
    const stats = (await keyed.get('/api/stats')).body;
    expect(stats.webhookFailureCount).toBe(0);
    expect(stats.recentWebhookFailures).toEqual([]);

    const redelivered = await keyed.post(`/api/webhook-deliveries/${delivery.id}/redeliver`);
    expect(redelivered.status).toBe(202);
    await eventually(async () => (callsFor(id).length === 3 ? true : undefined));
    expect(callsFor(id)[2].body.simulation.status).toBe('completed');
  });
});
