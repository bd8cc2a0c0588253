import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';

/** Failed sign-ins allowed per email and per client IP in one window. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
export const SIGN_IN_FAILURES_PER_IP = 100;
const WINDOW_SECONDS = 15 * 60;

/**
 * Slows password guessing: failed sign-ins are counted in Redis per email and per client IP; past
 * either limit, sign-in answers 429 until the window ends. A success clears the email's count.
 */
@Injectable()
export class SignInThrottle {
  private readonly byEmail: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;

  constructor(redis: RedisClient, @Inject(APP_CONFIG) config: AppConfig) {
    const common = { storeClient: redis, duration: WINDOW_SECONDS };
    this.byEmail = new RateLimiterRedis({
      ...common,
      keyPrefix: `${config.redisPrefix}:signin:email`,
      points: SIGN_IN_FAILURES_PER_EMAIL,
      insuranceLimiter: new RateLimiterMemory({
        points: SIGN_IN_FAILURES_PER_EMAIL,
        duration: WINDOW_SECONDS,
      }),
    });
    this.byIp = new RateLimiterRedis({
      ...common,
      keyPrefix: `${config.redisPrefix}:signin:ip`,
      points: SIGN_IN_FAILURES_PER_IP,
      insuranceLimiter: new RateLimiterMemory({ points: SIGN_IN_FAILURES_PER_IP, duration: WINDOW_SECONDS }),
    });
  }

  async check(email: string, ip: string): Promise<void> {
    const [emailState, ipState] = await Promise.all([this.byEmail.get(email), this.byIp.get(ip)]);
    for (const [state, limit] of [
      [emailState, SIGN_IN_FAILURES_PER_EMAIL],
      [ipState, SIGN_IN_FAILURES_PER_IP],
    ] as const) {
      if (state && state.consumedPoints >= limit) {
        throw new RateLimitedError(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
      }
    }
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    // Past the limit consume() rejects; the next check() turns that into a 429.
    await Promise.all([
      this.byEmail.consume(email).catch(() => undefined),
      this.byIp.consume(ip).catch(() => undefined),
    ]);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.byEmail.delete(email);
  }
}
