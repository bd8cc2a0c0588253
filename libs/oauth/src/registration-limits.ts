import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppConfig } from '@app/config';
import type { RedisClient } from '@app/persistence';
import { OAuthError } from './oauth-error.js';

/** Registrations one client IP may make per hour: open to anyone, but not a way to fill the table. */
export const REGISTRATIONS_PER_IP_PER_HOUR = 20;
const HOUR_SECONDS = 3600;
/** The one key of the ceiling across all addresses. */
const EVERYONE = 'all';

/**
 * Dynamic registration's limits, counted atomically in Redis (shared by every API process): per
 * address, and a ceiling across all addresses (OAUTH_REGISTRATIONS_PER_HOUR), since addresses
 * are cheap. Each falls back to a per-process count while Redis is away.
 */
export class RegistrationLimits {
  private readonly perIp: RateLimiterRedis;
  private readonly everyone: RateLimiterRedis;

  constructor(redis: RedisClient, config: AppConfig) {
    this.perIp = limiter(redis, `${config.redisPrefix}:oauth:register`, REGISTRATIONS_PER_IP_PER_HOUR);
    this.everyone = limiter(
      redis,
      `${config.redisPrefix}:oauth:register-all`,
      config.oauthRegistrationsPerHour,
    );
  }

  /** Takes one registration for `ip`, or throws 429 temporarily_unavailable with Retry-After. */
  async take(ip: string): Promise<void> {
    await consume(this.perIp, ip, 'too many registrations from this address');
    await consume(this.everyone, EVERYONE, 'too many registrations from all addresses this hour');
  }
}

function limiter(redis: RedisClient, keyPrefix: string, points: number): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix,
    points,
    duration: HOUR_SECONDS,
    insuranceLimiter: new RateLimiterMemory({ points, duration: HOUR_SECONDS }),
  });
}

async function consume(limiter: RateLimiterRedis, key: string, why: string): Promise<void> {
  try {
    await limiter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw new OAuthError('temporarily_unavailable', `${why}; try again in ${seconds} s`, 429, seconds);
  }
}
