import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { AppConfig } from '@app/config';
import { ACK_TIMEOUT_MS, CacheInvalidation } from './cache-invalidation.service.js';
import type { InvalidatedCache } from './invalidated-cache.js';

/**
 * Two processes' CacheInvalidation on the real Redis. Process B's subscriber is paused to stand for
 * a process that has not read the message yet (a busy event loop, a slow network).
 */
const config = {
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  redisPrefix: `${process.env.REDIS_PREFIX ?? 'tjtest'}-invalidation-${process.pid}`,
} as AppConfig;
const CHANNEL = `${config.redisPrefix}:cache-invalidation`;
const OPTIONS = { ttlMs: 60_000, maxEntries: 100 };

interface Process {
  invalidation: CacheInvalidation;
}

function start(): Process {
  const invalidation = new CacheInvalidation(config);
  invalidation.onModuleInit();
  return { invalidation };
}

const subscriberOf = (process: Process) =>
  (process.invalidation as unknown as { subscriber: Redis }).subscriber;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Both processes subscribed: to the shared channel, and each to its own acknowledgement channel. */
async function subscribed(client: Redis, count: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const [, shared] = (await client.pubsub('NUMSUB', CHANNEL)) as [string, number];
    const own = (await client.pubsub('CHANNELS', `${CHANNEL}:acks:*`)) as string[];
    if (shared === count && own.length === count) return;
    await sleep(25);
  }
  throw new Error(`not ${count} subscribers in time`);
}

describe('CacheInvalidation between two processes', () => {
  let a: Process;
  let b: Process;
  let observer: Redis;
  let cacheNames = 0;

  /** A cache of that name in each of the given processes. */
  const caches = (...processes: Process[]) => {
    const name = `rows-${++cacheNames}`;
    return processes.map((process) => process.invalidation.register<string>(name, OPTIONS));
  };
  const filled = async (cache: InvalidatedCache<string>) => {
    await cache.get('k', () => Promise.resolve('row'));
    expect(cache.size).toBe(1);
    return cache;
  };

  beforeAll(async () => {
    observer = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
    a = start();
    b = start();
    await subscribed(observer, 2);
  });
  afterEach(() => {
    subscriberOf(b)?.stream?.resume();
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    for (const process of [a, b]) await process.invalidation.onApplicationShutdown();
    observer.disconnect();
  });

  it('returns only once the other process has dropped the entry', async () => {
    const [onA, onB] = caches(a, b);
    await filled(onA);
    await filled(onB);
    subscriberOf(b).stream.pause();
    let sizeOnBWhenDone: number | undefined;
    const done = a.invalidation.invalidate(onA, 'k').then(() => (sizeOnBWhenDone = onB.size));
    await sleep(200);
    expect(onA.size).toBe(0);
    expect(onB.size).toBe(1);
    expect(sizeOnBWhenDone).toBeUndefined();

    subscriberOf(b).stream.resume();
    await done;
    expect(sizeOnBWhenDone).toBe(0);
  });

  it("sends each process's answer to the publisher's own channel only", async () => {
    const listener = new Redis(config.redisUrl, { maxRetriesPerRequest: 1 });
    const answers: Array<[channel: string, id: string]> = [];
    try {
      listener.on('pmessage', (_pattern: string, channel: string, id: string) => answers.push([channel, id]));
      await listener.psubscribe(`${CHANNEL}:acks:*`);
      const [onA] = caches(a, b);
      await a.invalidation.invalidate(onA, 'k');
      for (let tries = 0; answers.length < 2 && tries < 100; tries++) await sleep(10);
      const ownChannel = (a.invalidation as unknown as { ackChannel: string }).ackChannel;
      expect(answers).toHaveLength(2);
      expect(new Set(answers.map(([channel]) => channel))).toEqual(new Set([ownChannel]));
      expect(new Set(answers.map(([, id]) => id)).size).toBe(1);
    } finally {
      listener.disconnect();
    }
  });

  it('is acknowledged by a process without that cache, with nothing logged', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const [onA] = caches(a);
    await filled(onA);
    await a.invalidation.invalidate(onA, 'k');
    expect(onA.size).toBe(0);
    expect(warn).not.toHaveBeenCalled();
  });

  it('waits for a process that never answers at most ACK_TIMEOUT_MS, and says so', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const [onA, onB] = caches(a, b);
    await filled(onB);
    subscriberOf(b).stream.pause();
    const started = Date.now();
    await a.invalidation.invalidate(onA, 'k');
    expect(Date.now() - started).toBeGreaterThanOrEqual(ACK_TIMEOUT_MS - 50);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ receivers: 2, timeoutMs: ACK_TIMEOUT_MS }),
      'cache invalidation not acknowledged by every process in time; the rest drop it by its lifetime',
    );
    expect(onB.size).toBe(1);

    // The message was waiting in B's socket: B drops the entry as soon as it reads again.
    subscriberOf(b).stream.resume();
    for (let tries = 0; onB.size > 0 && tries < 100; tries++) await sleep(20);
    expect(onB.size).toBe(0);
  });
});
