import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { RateLimiterRedis } from 'rate-limiter-flexible';
import type { AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';
import {
  SIGN_IN_FAILURES_PER_EMAIL,
  SignInThrottle,
  type SignInAttempt,
} from './sign-in-throttle.service.js';

/**
 * The throttle on the real Redis, with one attempt held between taking its address's unit and the
 * email's, as a busy event loop or a slow round trip can hold it, while others run to the end.
 */
const config = {
  redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  redisPrefix: `${process.env.REDIS_PREFIX ?? 'tjtest'}-signin-${process.pid}`,
} as AppConfig;

describe('SignInThrottle on Redis', () => {
  let redis: RedisClient;
  let throttle: SignInThrottle;

  beforeAll(() => {
    redis = new RedisClient(config);
    throttle = new SignInThrottle(redis, config);
  });

  afterAll(async () => {
    const keys = await redis.keys(`${config.redisPrefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  const outcome = (attempt: Promise<SignInAttempt>) =>
    attempt.then(
      () => 'checked' as const,
      (error: unknown) => {
        if (error instanceof RateLimitedError) return 'refused' as const;
        throw error;
      },
    );

  it('checks no eleventh password when an attempt from the same address was first to take its unit', async () => {
    const email = `${randomUUID()}@example.com`;
    const byEmail = (throttle as unknown as { byEmail: RateLimiterRedis }).byEmail;
    const consume = byEmail.consume.bind(byEmail);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    byEmail.consume = async (...args: Parameters<RateLimiterRedis['consume']>) => {
      if (!held) {
        held = true;
        await released;
      }
      return consume(...args);
    };
    try {
      // The first attempt takes the address's first unit, then waits before the email's.
      const first = outcome(throttle.begin(email, '203.0.113.7'));
      while (!held) await new Promise((resolve) => setImmediate(resolve));
      // Ten more from the same address take the email's ten units: ten passwords are checked.
      const others = await Promise.all(
        Array.from({ length: SIGN_IN_FAILURES_PER_EMAIL }, () =>
          outcome(throttle.begin(email, '203.0.113.7')),
        ),
      );
      expect(others).toEqual(Array(SIGN_IN_FAILURES_PER_EMAIL).fill('checked'));
      // The first finds the email spent. Its address unit was the only one when taken, but the
      // address has ten attempts in flight now: no clean-address check for it.
      release();
      expect(await first).toBe('refused');
    } finally {
      byEmail.consume = consume;
    }
  });

  it('still checks the owner from a clean address once the email is spent elsewhere', async () => {
    const email = `${randomUUID()}@example.com`;
    const guesses = await Promise.all(
      Array.from({ length: SIGN_IN_FAILURES_PER_EMAIL + 1 }, () =>
        outcome(throttle.begin(email, '198.51.100.9')),
      ),
    );
    expect(guesses.filter((result) => result === 'checked')).toHaveLength(SIGN_IN_FAILURES_PER_EMAIL);
    expect(await outcome(throttle.begin(email, '192.0.2.44'))).toBe('checked');
  });
});
