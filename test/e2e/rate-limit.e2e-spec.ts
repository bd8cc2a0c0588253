import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { startApi, type TestApi } from '../support/api.js';
import { Client, createKey, newTenant } from '../support/client.js';
import { ProbeModule } from '../support/probe.module.js';
import { expectDailyLimitRefusal } from '../support/rate-limit.js';

const LIMIT = 20;

describe('per-key rate limit', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ API_RATE_LIMIT_PER_DAY: String(LIMIT) }, { extraModules: [ProbeModule] });
  });
  afterAll(async () => {
    await api.close();
  });

  it('admits exactly the limit out of more parallel requests, then answers 429 with Retry-After', async () => {
    const { keyed, session } = await newTenant(api.url);
    const responses = await Promise.all(
      Array.from({ length: LIMIT * 3 }, () => keyed.get('/api/probe/packs/read')),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT * 2);
    expectDailyLimitRefusal(responses.find((res) => res.status === 429)!);

    // Sessions are not API keys: the app keeps working for the signed-in user.
    expect((await session.get('/api/probe/packs/read')).status).toBe(200);
  });

  it('sends the IETF RateLimit-Policy and RateLimit headers on every keyed response', async () => {
    const { keyed } = await newTenant(api.url);
    const first = await keyed.get('/api/probe/packs/read');
    expect(first.headers.get('ratelimit-policy')).toBe(`"daily";q=${LIMIT};w=86400`);
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"daily";r=${LIMIT - 1};t=\\d+$`));
    const forbidden = await keyed.get('/api/probe/nothing/here');
    expect(forbidden.status).toBe(404);
    const second = await keyed.get('/api/probe/packs/write');
    expect(second.headers.get('ratelimit')).toMatch(new RegExp(`^"daily";r=${LIMIT - 2};t=\\d+$`));
  });

  it('limits keys independently', async () => {
    const { session, keyed } = await newTenant(api.url);
    await Promise.all(Array.from({ length: LIMIT }, () => keyed.get('/api/probe/packs/read')));
    expect((await keyed.get('/api/probe/packs/read')).status).toBe(429);
    const { client: other } = await createKey(session);
    expect((await other.get('/api/probe/packs/read')).status).toBe(200);
  });
});

describe('per-key rate limit of a busy key, taken from Redis in blocks', () => {
  const BUSY_LIMIT = 300;
  let a: TestApi;
  let b: TestApi;
  let redis: Redis;

  beforeAll(async () => {
    a = await startApi({ API_RATE_LIMIT_PER_DAY: String(BUSY_LIMIT) }, { extraModules: [ProbeModule] });
    b = await startApi({ API_RATE_LIMIT_PER_DAY: String(BUSY_LIMIT) }, { extraModules: [ProbeModule] });
    redis = new Redis(a.config.redisUrl, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    redis?.disconnect();
    await a?.close();
    await b?.close();
  });

  const counted = async (keyId: string) =>
    Number(await redis.get(`${a.config.redisPrefix}:ratelimit:key:${keyId}`));

  async function admittedOf(clients: Client[], perClient: number): Promise<number> {
    const responses = await Promise.all(
      clients.flatMap((client) =>
        Array.from({ length: perClient }, () => client.get('/api/probe/packs/read')),
      ),
    );
    for (const res of responses) expect([200, 429]).toContain(res.status);
    return responses.filter((res) => res.status === 200).length;
  }

  it('counts each request once in the headers while Redis is asked for blocks', async () => {
    const { keyed, key } = await newTenant(a.url);
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await keyed.get('/api/probe/packs/read');
      expect(res.status).toBe(200);
      remaining.push(Number(/r=(\d+)/.exec(res.headers.get('ratelimit') ?? '')?.[1]));
    }
    expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => BUSY_LIMIT - i - 1));
    // Blocks are counted in Redis when taken: more than the requests so far, by less than one block.
    const inRedis = await counted(key.id);
    expect(inRedis).toBeGreaterThan(60);
    expect(inRedis).toBeLessThanOrEqual(60 + Math.floor(BUSY_LIMIT / 64));
  });

  it('admits exactly the limit across two API processes, once unspent blocks have gone back', async () => {
    const { keyed, key } = await newTenant(a.url);
    const viaB = new Client(b.url).withKey(keyed.apiKey!);
    // A busy spell on A leaves it holding part of a block, already counted in Redis.
    let onA = 0;
    while (onA < 40 || (await counted(key.id)) === onA) {
      expect((await keyed.get('/api/probe/packs/read')).status).toBe(200);
      onA += 1;
    }
    const heldByA = (await counted(key.id)) - onA;
    expect(heldByA).toBeGreaterThan(0);
    // B spends the rest: never more than the limit in all, even while A holds its block.
    let admitted = onA;
    for (let round = 0; round < 15; round++) admitted += await admittedOf([viaB], 20);
    expect(admitted).toBeLessThanOrEqual(BUSY_LIMIT);
    // A's unspent block goes back after a second; B can then use it, up to exactly the limit.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    for (let round = 0; round < 5; round++) admitted += await admittedOf([viaB, keyed], 10);
    expect(admitted).toBe(BUSY_LIMIT);
  });
});

describe('per-key rate limit while Redis is unreachable', () => {
  let offline: TestApi;

  beforeAll(async () => {
    offline = await startApi(
      { API_RATE_LIMIT_PER_DAY: '5', REDIS_URL: 'redis://127.0.0.1:1' },
      { extraModules: [ProbeModule] },
    );
  });
  afterAll(async () => {
    await offline?.close();
  });

  it('counts each key in the process instead of failing requests, and still stops at the limit', async () => {
    const { keyed } = await newTenant(offline.url);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push((await keyed.get('/api/probe/packs/read')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
  });
});
