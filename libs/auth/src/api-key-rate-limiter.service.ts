import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';

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
      keyPrefix: `${config.redisPrefix}:ratelimit:key`,
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

/** The limiter rejects with a RateLimiterRes past the limit, or with an Error when its store fails. */
export function toRateLimited(rejection: unknown): Error {
  if (rejection instanceof RateLimiterRes)
    return new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
  return rejection instanceof Error ? rejection : new Error(String(rejection));
}
