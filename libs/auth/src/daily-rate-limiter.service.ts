import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';
import { createCappedRedisLimiter } from './capped-redis-limiter.js';
import { RateLimitLeases } from './rate-limit-leases.js';

const WINDOW_SECONDS = 24 * 3600;
/**
 * Block leases (see RateLimitLeases): a busy key takes up to 32 requests' worth of budget per Redis
 * round trip, never more than 1/64 of what it has left, and unspent budget goes back within 2 s.
 */
const LEASE = { maxBlock: 32, remainingDivisor: 64, ttlMs: 1_000 } as const;

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
}

/**
 * Who spends a daily budget: an API key (each request under /api) or a user's connection of an
 * OAuth client, `<userId>:<clientId>` (each MCP tool call and resource read, however the calls
 * arrive, through every grant of that user to that client). Both get `API_RATE_LIMIT_PER_DAY`.
 */
export type QuotaSubject = { apiKey: string } | { client: string };

/**
 * Daily budgets of API keys and OAuth grants, counted atomically in Redis so that parallel requests
 * (from any number of API processes) can never pass the limit. A busy subject's budget is taken in
 * blocks, so most of its requests are admitted without a Redis round trip. While Redis is
 * unreachable an in-process limiter stands in rather than failing requests.
 */
@Injectable()
export class DailyRateLimiter implements OnApplicationShutdown {
  private readonly logger = new Logger(DailyRateLimiter.name);
  private readonly leases: RateLimitLeases;
  /** Counts alone, one request at a time, while Redis is unreachable; never leased from or given back to. */
  private readonly offline: RateLimiterMemory;
  /** The limiter's own connection: its increment script is registered on the client (see createCappedRedisLimiter). */
  private readonly connection: Redis;
  readonly limit: number;

  constructor(redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    this.limit = config.apiRateLimitPerDay;
    this.connection = redis.duplicate();
    this.connection.on('error', () => undefined);
    const limiter = createCappedRedisLimiter(this.connection, {
      // Keys `<prefix>:ratelimit:key:<id>` (as before clients were counted) and `…:client:<user>:<client>`.
      keyPrefix: `${config.redisPrefix}:ratelimit`,
      points: this.limit,
      durationSeconds: WINDOW_SECONDS,
    });
    this.offline = new RateLimiterMemory({ points: this.limit, duration: WINDOW_SECONDS });
    this.leases = new RateLimitLeases(limiter, {
      limit: this.limit,
      ...LEASE,
      onReturnFailed: (error) =>
        this.logger.warn({ err: error }, 'unspent rate-limit budget could not be given back'),
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.leases.release();
    this.connection.disconnect();
  }

  /** Counts one request or tool call; throws RateLimitedError past the limit. */
  async consume(subject: QuotaSubject): Promise<RateLimitState> {
    const key = 'apiKey' in subject ? `key:${subject.apiKey}` : `client:${subject.client}`;
    try {
      const admission = await this.leases.consume(key);
      return this.state(admission.remaining, admission.msBeforeNext);
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) throw toRateLimited(rejection);
      return this.consumeOffline(key);
    }
  }

  /** Redis is unreachable: this process counts the key on its own rather than failing the request. */
  private async consumeOffline(key: string): Promise<RateLimitState> {
    try {
      const res = await this.offline.consume(key);
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
