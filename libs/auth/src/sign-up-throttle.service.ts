import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';
import { throttleKey } from './throttle-key.js';

const WINDOW_SECONDS = 60 * 60;

/**
 * Sign-ups per client IP per hour (`SIGN_UP_LIMIT_PER_HOUR`). Every attempt counts, created or
 * refused as taken: each costs an argon2 hash, and a 409 tells whether an email has an account,
 * so the limit bounds both the CPU one address can spend and how fast it can enumerate accounts.
 * The unit is taken atomically in Redis before the hash, so parallel sign-ups cannot pass it.
 */
@Injectable()
export class SignUpThrottle {
  private readonly byIp: RateLimiterRedis;

  constructor(redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    const points = config.signUpLimitPerHour;
    this.byIp = new RateLimiterRedis({
      storeClient: redis,
      duration: WINDOW_SECONDS,
      keyPrefix: `${config.redisPrefix}:signup:ip`,
      points,
      insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
    });
  }

  /** Takes one sign-up from the IP's budget, or refuses with 429 (Retry-After) when it is spent. */
  async take(ip: string): Promise<void> {
    try {
      await this.byIp.consume(throttleKey(ip));
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw new RateLimitedError(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    }
  }
}
