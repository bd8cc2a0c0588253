import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';

const WINDOW_SECONDS = 24 * 60 * 60;

/**
 * Each playground judgment is a paid model call, and sessions do not pass the per-key limit, so
 * the playground has its own per-user budget: API_RATE_LIMIT_PER_DAY judgments per 24 hours, the
 * same as one API key. Past it, 429 with Retry-After.
 */
@Injectable()
export class PlaygroundLimiter {
  private readonly limiter: RateLimiterRedis;

  constructor(redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    const points = config.apiRateLimitPerDay;
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: `${config.redisPrefix}:playground`,
      points,
      duration: WINDOW_SECONDS,
      insuranceLimiter: new RateLimiterMemory({ points, duration: WINDOW_SECONDS }),
    });
  }

  async take(userId: string): Promise<void> {
    try {
      await this.limiter.consume(userId);
    } catch (reason) {
      if (!(reason instanceof RateLimiterRes)) throw reason;
      throw new RateLimitedError(Math.max(1, Math.ceil(reason.msBeforeNext / 1000)));
    }
  }
}
