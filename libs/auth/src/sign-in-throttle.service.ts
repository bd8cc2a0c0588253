import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';
import { throttleKey } from './throttle-key.js';

/** Failed sign-ins allowed per email and per client IP in one window. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
export const SIGN_IN_FAILURES_PER_IP = 100;
const WINDOW_SECONDS = 15 * 60;

/** A sign-in attempt that holds one unit of each budget; it becomes a failure unless settled. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

/**
 * Slows password guessing: failed sign-ins are counted in Redis per email and per client IP; past
 * either limit, sign-in answers 429 until the window ends. Each attempt takes its unit atomically
 * BEFORE the password is checked, so parallel attempts can never verify more passwords than the
 * limit; a success gives the units back and clears the email's count.
 */
@Injectable()
export class SignInThrottle {
  private readonly byEmail: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;

  constructor(redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    const limiter = (name: string, points: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        duration: WINDOW_SECONDS,
        keyPrefix: `${config.redisPrefix}:signin:${name}`,
        points,
        insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
      });
    this.byEmail = limiter('email', SIGN_IN_FAILURES_PER_EMAIL);
    this.byIp = limiter('ip', SIGN_IN_FAILURES_PER_IP);
  }

  /** Takes one unit of the email's and the IP's budget, or refuses with 429 when either is spent. */
  async begin(email: string, ip: string): Promise<SignInAttempt> {
    const [emailKey, ipKey] = [throttleKey(email), throttleKey(ip)];
    const [byEmail, byIp] = await Promise.allSettled([
      this.byEmail.consume(emailKey),
      this.byIp.consume(ipKey),
    ]);
    const refused = [byEmail, byIp].find((result) => result.status === 'rejected');
    if (refused) {
      // A unit taken from the other budget was not used by a password check: give it back.
      await Promise.all([
        byEmail.status === 'fulfilled' ? this.byEmail.reward(emailKey, 1) : undefined,
        byIp.status === 'fulfilled' ? this.byIp.reward(ipKey, 1) : undefined,
      ]);
      const reason: unknown = refused.reason;
      if (!(reason instanceof RateLimiterRes)) throw reason;
      throw new RateLimitedError(Math.max(1, Math.ceil(reason.msBeforeNext / 1000)));
    }
    return {
      succeeded: async () => {
        await Promise.all([this.byEmail.delete(emailKey), this.byIp.reward(ipKey, 1)]);
      },
    };
  }
}
