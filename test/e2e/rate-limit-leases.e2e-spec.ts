import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { createCappedRedisLimiter } from '../../libs/auth/src/capped-redis-limiter.js';
import { RateLimitLeases, type LeaseOptions } from '../../libs/auth/src/rate-limit-leases.js';
import { REDIS_URL } from '../support/queues.js';

// The block leases of the per-key rate limit against the real store: rate-limiter-flexible on Redis
// with the capped increment script. (The app's own limiter is exercised in rate-limit.e2e-spec.ts.)

const DAY = 24 * 3600;
let redis: Redis;

beforeAll(() => {
  redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
});
afterAll(() => redis.disconnect());

/** The production store (the capped Redis limiter) on a fresh key prefix, with its calls counted. */
function countingStore(limit: number) {
  const keyPrefix = `${process.env.REDIS_PREFIX ?? 'tjtest-local'}:spec:leases:${randomUUID()}`;
  const limiter = createCappedRedisLimiter(redis, { keyPrefix, points: limit, durationSeconds: DAY });
  const calls = { consume: 0, reward: 0 };
  return {
    calls,
    consumed: async (key: string) => Number((await redis.get(`${keyPrefix}:${key}`)) ?? 0),
    limiter,
    keyPrefix,
    store: {
      consume: (key: string, points: number) => {
        calls.consume += 1;
        return limiter.consume(key, points);
      },
      reward: (key: string, points: number) => {
        calls.reward += 1;
        return limiter.reward(key, points);
      },
    },
  };
}

const opened: RateLimitLeases[] = [];
function leases(
  store: ReturnType<typeof countingStore>['store'],
  options: Partial<LeaseOptions> & { limit: number },
) {
  const clock = { now: 1_000_000 };
  const instance = new RateLimitLeases(store, {
    maxBlock: 32,
    remainingDivisor: 64,
    ttlMs: 1_000,
    now: () => clock.now,
    ...options,
  });
  opened.push(instance);
  return { instance, clock };
}

async function admitted(instance: RateLimitLeases, key: string, count: number): Promise<number> {
  const results = await Promise.allSettled(Array.from({ length: count }, () => instance.consume(key)));
  for (const result of results)
    if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(RateLimiterRes);
  return results.filter((result) => result.status === 'fulfilled').length;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((instance) => instance.release()));
});

describe('RateLimitLeases', () => {
  it('asks the store once per request for a key seen less than once a lease period', async () => {
    const { store, calls, consumed } = countingStore(1000);
    const { instance, clock } = leases(store, { limit: 1000 });
    for (let i = 0; i < 5; i++) {
      const admission = await instance.consume('k');
      expect(admission.remaining).toBe(1000 - i - 1);
      clock.now += 1_500;
    }
    expect(calls.consume).toBe(5);
    expect(await consumed('k')).toBe(5);
  });

  it('takes a busy key in growing blocks while the remaining count still drops by one per request', async () => {
    const { store, calls, consumed } = countingStore(100_000);
    const { instance } = leases(store, { limit: 100_000 });
    const remaining: number[] = [];
    for (let i = 0; i < 200; i++) remaining.push((await instance.consume('k')).remaining);
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, i) => 100_000 - i - 1));
    // Blocks of 1, 2, 4, 8, 16, then 32: about 11 store calls for 200 requests.
    expect(calls.consume).toBeLessThanOrEqual(12);
    const counted = await consumed('k');
    expect(counted).toBeGreaterThanOrEqual(200);
    expect(counted).toBeLessThan(200 + 32);
  });

  it('never grants more than the limit and admits all of it from one process, one after another or at once', async () => {
    for (const parallel of [false, true]) {
      const { store, consumed } = countingStore(300);
      const { instance } = leases(store, { limit: 300 });
      let admittedCount = 0;
      if (parallel) {
        for (let round = 0; round < 20; round++) admittedCount += await admitted(instance, 'k', 20);
      } else {
        for (let i = 0; i < 400; i++) admittedCount += await admitted(instance, 'k', 1);
      }
      expect(admittedCount).toBe(300);
      // Refused requests are not counted: the store holds exactly what was admitted.
      expect(await consumed('k')).toBe(300);
    }
  });

  it('shares one limit between processes: unspent blocks go back when they expire', async () => {
    const { store, consumed } = countingStore(1_000);
    const a = leases(store, { limit: 1_000, remainingDivisor: 4 });
    const b = leases(store, { limit: 1_000, remainingDivisor: 4 });
    let total = 0;
    for (let round = 0; round < 60; round++) {
      total += await admitted(a.instance, 'k', 10);
      total += await admitted(b.instance, 'k', 10);
    }
    expect(total).toBeLessThanOrEqual(1_000);
    // Whatever either process still holds goes back after the lease period, and is admitted then.
    a.clock.now += 1_500;
    b.clock.now += 1_500;
    for (let round = 0; round < 20; round++) {
      total += await admitted(a.instance, 'k', 10);
      total += await admitted(b.instance, 'k', 10);
    }
    expect(total).toBe(1_000);
    expect(await consumed('k')).toBe(1_000);
  });

  it('after a refused block admits exactly what is left, refusing nobody while budget remains', async () => {
    const { store, consumed } = countingStore(1_000);
    const { instance } = leases(store, { limit: 1_000, remainingDivisor: 1 });
    for (let i = 0; i < 40; i++) await instance.consume('k');
    // Another process takes all but 3 points; this one still believes in a large remainder, so its
    // next block is refused by the store, which says 3 are left: it takes those.
    const otherTook = 1_000 - (await consumed('k')) - 3;
    await store.consume('k', otherTook);
    const outcomes: boolean[] = [];
    for (let i = 0; i < 60; i++) outcomes.push((await admitted(instance, 'k', 1)) === 1);
    const granted = outcomes.filter(Boolean).length;
    expect(40 + granted + otherTook).toBe(1_000);
    // No request was refused while budget was left: every admission comes before the first refusal.
    expect(outcomes).toEqual(outcomes.map((_, i) => i < granted));
  });

  it('gives unspent points back only within the window they were counted in', async () => {
    const { store, consumed } = countingStore(100_000);
    const { instance, clock } = leases(store, { limit: 100_000 });
    for (let i = 0; i < 20; i++) await instance.consume('k');
    const counted = await consumed('k');
    expect(counted).toBeGreaterThan(20);
    clock.now += 1_500;
    await instance.release();
    expect(await consumed('k')).toBe(20);

    const later = countingStore(100_000);
    const other = leases(later.store, { limit: 100_000 });
    for (let i = 0; i < 20; i++) await other.instance.consume('k');
    const before = await later.consumed('k');
    other.clock.now += DAY * 1000 + 1;
    await other.instance.release();
    expect(await later.consumed('k')).toBe(before);
  });

  it('counts a request alone after a refused block, so it does not take what others could still use', async () => {
    const { store, consumed } = countingStore(10_000);
    const { instance } = leases(store, { limit: 10_000 });
    for (let i = 0; i < 100; i++) await instance.consume('k');
    // Another process takes all but 20 points; this one still holds part of a block and believes
    // in a large remainder, so once its block is spent its next one (32) is refused.
    await store.consume('k', 10_000 - (await consumed('k')) - 20);
    let firstChange = 0;
    for (let i = 0; i < 40 && firstChange === 0; i++) {
      await instance.consume('k');
      firstChange = (await consumed('k')) - 9_980;
    }
    // That request was counted alone (not by taking all 20 that are left), and so is the next one.
    expect(firstChange).toBe(1);
    await instance.consume('k');
    expect(await consumed('k')).toBe(9_982);
  });

  it('gives points back only to a window that counted them, and never below zero', async () => {
    const { limiter, keyPrefix, consumed } = countingStore(100);
    await limiter.reward('absent', 5);
    expect(await redis.exists(`${keyPrefix}:absent`)).toBe(0);
    await limiter.consume('k', 3);
    await limiter.reward('k', 10);
    expect(await consumed('k')).toBe(0);
    expect(await redis.pttl(`${keyPrefix}:k`)).toBeGreaterThan(0);
    // Refused consumes are not counted.
    await expect(limiter.consume('k', 101)).rejects.toBeInstanceOf(RateLimiterRes);
    expect(await consumed('k')).toBe(0);
  });

  it('passes a store failure through', async () => {
    const failing = {
      consume: () => Promise.reject(new Error('store down')),
      reward: () => Promise.reject(new Error('store down')),
    };
    const { instance } = leases(failing, { limit: 10 });
    await expect(instance.consume('k')).rejects.toThrow('store down');
  });
});
