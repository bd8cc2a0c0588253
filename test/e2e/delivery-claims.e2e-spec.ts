import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { newTenant } from '../support/client.js';
import { queryDatabase as query } from '../support/db.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';
import { openQueue } from '../support/queues.js';
import { Receiver, verifies } from '../support/receiver.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';
import { QUEUES } from '../../libs/jobs/src/index.js';
import { EndpointLookup, WebhookRepository } from '../../libs/persistence/src/index.js';
import { CompletionSender, DELIVER_JOB, InboundJudge } from '../../libs/webhooks/src/index.js';

/**
 * A delivery's claim has an owner, the attempt that took it (issue 20): the attempt renews it while
 * it runs and records only while it holds it, and a run that finds the delivery claimed by another
 * comes back when that claim ends.
 */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-claims`;
/** Short enough that a receiver answering in three of them outlives an unrenewed claim. */
const CLAIM_MS = 600;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('delivery claims', () => {
  let gateway: FakeGateway;
  let receiver: Receiver;
  let api: TestApi;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    receiver = await new Receiver().start();
    api = await startApi({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: PREFIX,
      WEBHOOK_CLAIM_MS: String(CLAIM_MS),
    });
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
    await gateway.close();
  });

  /** A judged inbound event's delivery, not yet attempted. */
  async function judgedDelivery(): Promise<{
    id: string;
    keyed: Awaited<ReturnType<typeof newTenant>>['keyed'];
  }> {
    const { keyed } = await newTenant(api.url);
    await keyed.post('/api/webhook-endpoints', { url: receiver.url });
    const pack = await createPublishedPack(keyed);
    const { eventId } = (await keyed.post('/api/webhooks/inbound', { packId: pack.id, ticket: TICKET })).body;
    await api.app.get(InboundJudge).judgeEvent(eventId);
    const [{ id }] = await query(`SELECT id FROM webhook_deliveries WHERE event_id = $1`, [eventId]);
    return { id, keyed };
  }

  const row = async (id: string) =>
    (
      await query(
        `SELECT status, attempts, claim_owner AS "claimOwner", claimed_until AS "claimedUntil"
           FROM webhook_deliveries WHERE id = $1`,
        [id],
      )
    )[0];
  const sends = (id: string) => receiver.calls.filter((call) => call.body.deliveryId === id);

  it('sends once when a second run starts after the claim would have lapsed but the first still runs', async () => {
    const { id } = await judgedDelivery();
    const sender = api.app.get(CompletionSender);
    receiver.delayMs = 3 * CLAIM_MS;
    try {
      const first = sender.deliver(id, 0);
      await sleep(2 * CLAIM_MS);
      const second = await sender.deliver(id, 0);
      expect(second).toEqual({ kind: 'claimed', retryInMs: expect.any(Number) });
      expect(await first).toEqual({ kind: 'succeeded' });
    } finally {
      receiver.delayMs = 0;
    }
    expect(await sender.deliver(id, 0)).toEqual({ kind: 'skipped' });
    expect(sends(id)).toHaveLength(1);
    expect(await row(id)).toEqual({ status: 'succeeded', attempts: 1, claimOwner: null, claimedUntil: null });
  });

  it('signs with the endpoint as the claim reads it, never a cached one; a deleted endpoint gives up', async () => {
    const { id } = await judgedDelivery();
    // The endpoint is cached, then its secret changed behind the cache (as another process's write
    // would, before its invalidation arrives): the attempt still signs with the stored secret.
    const [{ userId }] = await query(`SELECT user_id AS "userId" FROM webhook_deliveries WHERE id = $1`, [
      id,
    ]);
    const lookup = api.app.get(EndpointLookup);
    // Loaded afresh, so its lifetime (5 s) outlasts the next few statements.
    await lookup.invalidate(userId);
    const cached = await lookup.find(userId);
    const secret = 'whsec_changed_behind_the_cache';
    await query(`UPDATE webhook_endpoints SET secret = $2 WHERE user_id = $1`, [userId, secret]);
    expect((await lookup.find(userId))?.secret).toBe(cached?.secret);
    const sender = api.app.get(CompletionSender);
    expect(await sender.deliver(id, 0)).toEqual({ kind: 'succeeded' });
    const [call] = sends(id);
    expect(verifies(secret, call.raw, call.headers['x-service-signature'])).toBe(true);

    const second = await judgedDelivery();
    const [endpoint] = (await second.keyed.get('/api/webhook-endpoints')).body;
    expect((await second.keyed.delete(`/api/webhook-endpoints/${endpoint.id}`)).status).toBe(204);
    expect(await sender.deliver(second.id, 0)).toEqual({ kind: 'failed' });
    expect(sends(second.id)).toHaveLength(0);
    const [failed] = await query(
      `SELECT status, last_error AS "lastError" FROM webhook_deliveries WHERE id = $1`,
      [second.id],
    );
    expect(failed).toEqual({ status: 'failed', lastError: 'no completion endpoint saved' });
  });

  it('records nothing for an attempt whose lapsed claim another attempt took', async () => {
    const { id } = await judgedDelivery();
    const webhooks = api.app.get(WebhookRepository);
    const [late, current] = [randomUUID(), randomUUID()];
    expect(await webhooks.claimDelivery(id, late, 100)).not.toBeNull();
    await sleep(200);
    expect(await webhooks.claimDelivery(id, current, 10_000)).not.toBeNull();
    const attempt = { status: 'succeeded' as const, statusCode: 200, error: null, nextAttemptAt: null };
    expect(await webhooks.recordAttempt(id, late, attempt)).toBe(false);
    expect(await webhooks.renewClaim(id, late, 60_000)).toBe(false);
    expect(await row(id)).toMatchObject({ status: 'pending', attempts: 0, claimOwner: current });
    expect(await webhooks.recordAttempt(id, current, attempt)).toBe(true);
    expect(await row(id)).toEqual({ status: 'succeeded', attempts: 1, claimOwner: null, claimedUntil: null });
  });

  it('puts back a job that finds its delivery claimed, and sends once a dead owner’s claim lapses', async () => {
    // The worker has a queue of its own: the delivery's first job, queued on the API's, never runs,
    // and the test queues one once the row is claimed. Test workers sweep hourly, so only that job,
    // put back, can send the delivery in time.
    const workerPrefix = `${PREFIX}-worker`;
    const worker = await startWorker({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: workerPrefix });
    const queue = openQueue(QUEUES.webhooks, workerPrefix);
    try {
      const { id } = await judgedDelivery();
      // The claim of an attempt whose worker died before recording it.
      const [{ claimedUntil }] = await query(
        `UPDATE webhook_deliveries SET claimed_until = clock_timestamp() + interval '3 seconds',
                claim_owner = gen_random_uuid() WHERE id = $1 RETURNING claimed_until AS "claimedUntil"`,
        [id],
      );
      await queue.add(
        DELIVER_JOB.name,
        { deliveryId: id },
        { ...DELIVER_JOB.options(3, 200), jobId: DELIVER_JOB.jobId(id, 0) },
      );
      const [sent] = await eventually(async () => (sends(id).length > 0 ? sends(id) : undefined), 20_000);
      expect(Date.parse(sent.body.sentAt)).toBeGreaterThanOrEqual(new Date(claimedUntil).getTime());
      await eventually(async () => ((await row(id)).status === 'succeeded' ? true : undefined), 10_000);
      expect(await row(id)).toEqual({
        status: 'succeeded',
        attempts: 1,
        claimOwner: null,
        claimedUntil: null,
      });
      expect(sends(id)).toHaveLength(1);
      // One run found the claim held and was put back rather than completed.
      const job = await queue.getJob(DELIVER_JOB.jobId(id, 0));
      expect(job?.returnvalue).toBe('succeeded');
      expect(job?.attemptsStarted).toBeGreaterThanOrEqual(2);
    } finally {
      await queue.close();
      await stopWorker(worker);
    }
  }, 90_000);
});
