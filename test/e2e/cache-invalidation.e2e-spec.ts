import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { startApi, type TestApi } from '../support/api.js';
import { Client, newTenant, type TestResponse } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET, triageDocument } from '../support/packs.js';
import { REDIS_URL } from '../support/queues.js';
import { sign } from '../support/receiver.js';
import { eventually } from '../support/worker.js';

/**
 * Two API instances on one database and one Redis namespace, as in production: a write on A must
 * reach B's in-process caches (keys, live versions, webhook endpoints) through Redis pub/sub. The
 * caches keep an entry 5 s (HOT_PATH_CACHE) and each write follows B's caching read at once, so
 * within the 2 s these tests allow only the invalidation can make B see it.
 * Every test first makes B cache the entry with a successful request, then writes on A.
 *
 * Each app checks keys with its own ApiKeyService (and cache), so B's answers come from B's cache.
 */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-cache`;
const CHANNEL = `${PREFIX}:cache-invalidation`;
/** Well below the caches' 5 s lifetime. */
const PROPAGATION_MS = 2_000;
const UNKNOWN_PACK = '00000000-0000-4000-8000-000000000000';

/** Repeats `read` until `done` accepts its answer or the time is up; returns the last answer. */
async function settled<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + PROPAGATION_MS;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() >= deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const status =
  (expected: number) =>
  (res: TestResponse): boolean =>
    res.status === expected;

async function deleteKeys(redis: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}

describe('cache invalidation across two API instances', () => {
  let gateway: FakeGateway;
  let a: TestApi;
  let b: TestApi;
  let redis: Redis;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX };
    a = await startApi(env);
    b = await startApi(env);
    // Caches serve entries only once subscribed: wait for both instances' subscriptions.
    await eventually(async () => {
      const [, subscribers] = (await redis.pubsub('NUMSUB', CHANNEL)) as [string, number];
      return subscribers >= 2 ? true : undefined;
    }, 10_000);
  });
  afterEach(() => gateway.reset());
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await gateway?.close();
    await deleteKeys(redis, PREFIX);
    redis.disconnect();
  });

  const keyedOn = (api: TestApi, secret: string) => new Client(api.url).withKey(secret);

  it('a key used on B and revoked on A is refused on B', async () => {
    const { session, key } = await newTenant(a.url);
    const onB = keyedOn(b, key.secret);
    expect((await onB.get('/api/packs')).status).toBe(200);

    expect((await session.delete(`/app/keys/${key.id}`)).status).toBe(204);
    const after = await settled(() => onB.get('/api/packs'), status(401));
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: 'invalid API key' });
  });

  it('a key used on B and rotated on A: B refuses the old secret and takes the new one', async () => {
    const { session, key } = await newTenant(a.url);
    expect((await keyedOn(b, key.secret).get('/api/packs')).status).toBe(200);

    const rotated = await session.post(`/app/keys/${key.id}/rotate`);
    expect(rotated.status).toBe(200);
    const old = await settled(() => keyedOn(b, key.secret).get('/api/packs'), status(401));
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: 'invalid API key' });
    expect((await keyedOn(b, rotated.body.secret).get('/api/packs')).status).toBe(200);
  });

  it('a pack judged on B, a new version published on A: B judges with the new version', async () => {
    const { key, keyed: onA } = await newTenant(a.url);
    const onB = keyedOn(b, key.secret);
    const pack = await createPublishedPack(onA);
    const first = await onB.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(first.status).toBe(200);
    expect(first.body.packVersionId).toBe(pack.liveVersionId);

    // The next version drops the score question, so B's model call shows which document it used.
    const document = triageDocument();
    document.questions.splice(2, 1);
    expect((await onA.patch(`/api/packs/${pack.id}`, { document })).status).toBe(200);
    const published = await onA.post(`/api/packs/${pack.id}/publish`);
    expect(published.status).toBe(200);
    const next = published.body.liveVersionId as string;
    expect(next).not.toBe(pack.liveVersionId);
    gateway.reset();
    const judged = await settled(
      () => onB.post('/api/judge', { packId: pack.id, ticket: TICKET }),
      (res) => res.body.packVersionId === next,
    );
    expect(judged.status).toBe(200);
    expect(judged.body.packVersionId).toBe(next);
    expect(Object.keys(judged.body.result.answers).sort()).toEqual(['abusive', 'department']);
    expect((gateway.requests.at(-1)!.response_format.json_schema.schema as any).required).toEqual([
      'department',
      'abusive',
    ]);
  });

  it('a pack judged on B, deleted on A: B answers 404 pack not found', async () => {
    const { key, keyed: onA } = await newTenant(a.url);
    const onB = keyedOn(b, key.secret);
    const pack = await createPublishedPack(onA);
    expect((await onB.post('/api/judge', { packId: pack.id, ticket: TICKET })).status).toBe(200);

    expect((await onA.delete(`/api/packs/${pack.id}`)).status).toBe(204);
    const deleted = await settled(
      () => onB.post('/api/judge', { packId: pack.id, ticket: TICKET }),
      status(404),
    );
    expect(deleted.status).toBe(404);
    expect(deleted.body).toEqual({ error: 'pack not found' });
  });

  const unsignedOn = (client: Client) => () =>
    client.post('/api/webhooks/inbound', { packId: UNKNOWN_PACK, ticket: TICKET });

  it('a webhook endpoint read on B, replaced on A with requireInboundSignature: B lists and enforces the new one', async () => {
    const { key, keyed: onA } = await newTenant(a.url);
    const onB = keyedOn(b, key.secret);
    const unsigned = unsignedOn(onB);
    const first = (await onA.post('/api/webhook-endpoints', { url: 'https://example.com/hooks' })).body;
    expect((await onB.get('/api/webhook-endpoints')).body).toEqual([
      { id: first.id, url: first.url, requireInboundSignature: false },
    ]);
    // No signature required yet: the request gets past the signature check to the pack check.
    expect((await unsigned()).body).toEqual({ error: 'pack not found' });

    const second = await onA.post('/api/webhook-endpoints', {
      url: 'https://example.org/other',
      requireInboundSignature: true,
    });
    expect(second.status).toBe(201);
    const refused = await settled(unsigned, status(401));
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'invalid signature' });
    expect((await onB.get('/api/webhook-endpoints')).body).toEqual([
      { id: second.body.id, url: 'https://example.org/other', requireInboundSignature: true },
    ]);
    // Signed with the new secret it passes; the replaced secret no longer does.
    const raw = JSON.stringify({ packId: UNKNOWN_PACK, ticket: TICKET });
    const signedWith = (secret: string) =>
      onB.post('/api/webhooks/inbound', undefined, {
        raw,
        contentType: 'application/json',
        headers: { 'x-service-signature': sign(secret, raw) },
      });
    expect((await signedWith(second.body.secret)).body).toEqual({ error: 'pack not found' });
    expect((await signedWith(first.secret)).body).toEqual({ error: 'invalid signature' });
  });

  it('a webhook endpoint requiring signatures read on B, deleted on A: B lists none and requires none', async () => {
    const { key, keyed: onA } = await newTenant(a.url);
    const onB = keyedOn(b, key.secret);
    const unsigned = unsignedOn(onB);
    const endpoint = await onA.post('/api/webhook-endpoints', {
      url: 'https://example.com/hooks',
      requireInboundSignature: true,
    });
    expect((await unsigned()).body).toEqual({ error: 'invalid signature' });

    expect((await onA.delete(`/api/webhook-endpoints/${endpoint.body.id}`)).status).toBe(204);
    const accepted = await settled(unsigned, status(404));
    expect(accepted.status).toBe(404);
    expect(accepted.body).toEqual({ error: 'pack not found' });
    expect((await onB.get('/api/webhook-endpoints')).body).toEqual([]);
  });
});

describe('with Redis away: caches bypassed', () => {
  let gateway: FakeGateway;
  let online: TestApi;
  let offline: TestApi;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    const env = { MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: `${PREFIX}-away` };
    online = await startApi(env);
    // Booted last, so its key strategy (and its key cache) checks the keys here.
    offline = await startApi({ ...env, REDIS_URL: 'redis://127.0.0.1:1' });
  });
  afterAll(async () => {
    await offline?.close();
    await online?.close();
    await gateway?.close();
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await deleteKeys(redis, `${PREFIX}-away`);
    redis.disconnect();
  });

  it('authenticates keys and judges, and sees writes made elsewhere at once, with no invalidation to hear', async () => {
    const { session, key, keyed: onOnline } = await newTenant(online.url);
    const onOffline = new Client(offline.url).withKey(key.secret);
    const pack = await createPublishedPack(onOnline);
    for (let i = 0; i < 2; i++) {
      const judged = await onOffline.post('/api/judge', { packId: pack.id, ticket: TICKET });
      expect(judged.status).toBe(200);
      expect(judged.body.packVersionId).toBe(pack.liveVersionId);
    }

    // Writes on the online instance: no message reaches the offline one, whose caches keep nothing.
    const published = await onOnline.post(`/api/packs/${pack.id}/publish`);
    expect(published.status).toBe(200);
    const judged = await onOffline.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(judged.status).toBe(200);
    expect(judged.body.packVersionId).toBe(published.body.liveVersionId);

    const rotated = await session.post(`/app/keys/${key.id}/rotate`);
    expect(rotated.status).toBe(200);
    const old = await onOffline.get('/api/packs');
    expect(old.status).toBe(401);
    expect(old.body).toEqual({ error: 'invalid API key' });
    const fresh = new Client(offline.url).withKey(rotated.body.secret);
    expect((await fresh.get('/api/packs')).status).toBe(200);

    expect((await onOnline.withKey(rotated.body.secret).delete(`/api/packs/${pack.id}`)).status).toBe(204);
    const gone = await fresh.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ error: 'pack not found' });
  });

  it('still answers writes on the instance that cannot publish their invalidation', async () => {
    const { key } = await newTenant(online.url);
    const onOffline = new Client(offline.url).withKey(key.secret);
    const pack = await createPublishedPack(onOffline);
    const published = await onOffline.post(`/api/packs/${pack.id}/publish`);
    expect(published.status).toBe(200);
    const judged = await onOffline.post('/api/judge', { packId: pack.id, ticket: TICKET });
    expect(judged.body.packVersionId).toBe(published.body.liveVersionId);
    expect((await onOffline.delete(`/api/packs/${pack.id}`)).status).toBe(204);
    expect((await onOffline.post('/api/judge', { packId: pack.id, ticket: TICKET })).status).toBe(404);
  });
});
