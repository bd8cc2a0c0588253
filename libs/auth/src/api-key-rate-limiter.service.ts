import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RedisClient } from '@app/persistence';
import { toRateLimited } from './sign-in-throttle.service.js';

const WINDOW_SECONDS = 24 * 3600;

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * Per-key request budget, counted atomically in Redis so that parallel requests can never pass the
 * limit. While Redis is unreachable an in-process limiter stands in rather than failing requests.
 */
@Injectable()
export class ApiKeyRateLimiter {
  private readonly limiter: RateLimiterRedis;
  readonly limit: number;

  constructor(redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.apiRateLimitPerDay;
    this.limiter = new RateLimiterRedis({
      storeClient: redis,
      keyPrefix: 'tj:ratelimit:key',
      points: this.limit,
      duration: WINDOW_SECONDS,
      insuranceLimiter: new RateLimiterMemory({ points: this.limit, duration: WINDOW_SECONDS }),
    });
  }

  /** Counts one request; throws RateLimitedError past the limit. */
  async consume(keyId: string): Promise<RateLimitState> {
    try {
      const res = await this.limiter.consume(keyId);
      return this.state(res.remainingPoints, res.msBeforeNext);
    } catch (rejection) {
      throw toRateLimited(rejection);
    }
  }

  state(remaining: number, msBeforeNext: number): RateLimitState {
    return {
      limit: this.limit,
      remaining: Math.max(0, remaining),
      resetSeconds: Math.max(0, Math.ceil(msBeforeNext / 1000)),
      windowSeconds: WINDOW_SECONDS,
    };
  }
}
