import { Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';

/** Failed sign-ins allowed per email, and attempts per client IP, in one window. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
export const SIGN_IN_ATTEMPTS_PER_IP = 100;
const WINDOW_SECONDS = 15 * 60;

/** Slows password guessing: per email (failures only) and per IP (every attempt), counted in Redis. */
@Injectable()
export class SignInThrottle {
  private readonly byEmail: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;

  constructor(redis: RedisClient) {
    const common = { storeClient: redis, duration: WINDOW_SECONDS, blockDuration: WINDOW_SECONDS };
    this.byEmail = new RateLimiterRedis({
      ...common,
      keyPrefix: 'tj:signin:email',
      points: SIGN_IN_FAILURES_PER_EMAIL,
      insuranceLimiter: new RateLimiterMemory({
        points: SIGN_IN_FAILURES_PER_EMAIL,
        duration: WINDOW_SECONDS,
      }),
    });
    this.byIp = new RateLimiterRedis({
      ...common,
      keyPrefix: 'tj:signin:ip',
      points: SIGN_IN_ATTEMPTS_PER_IP,
      insuranceLimiter: new RateLimiterMemory({ points: SIGN_IN_ATTEMPTS_PER_IP, duration: WINDOW_SECONDS }),
    });
  }

  async check(email: string, ip: string): Promise<void> {
    const emailState = await this.byEmail.get(email);
    if (emailState && emailState.consumedPoints >= SIGN_IN_FAILURES_PER_EMAIL) {
      throw new RateLimitedError(Math.ceil(emailState.msBeforeNext / 1000));
    }
    await this.byIp.consume(ip).catch((rejection: unknown) => {
      throw toRateLimited(rejection);
    });
  }

  async recordFailure(email: string): Promise<void> {
    await this.byEmail.consume(email).catch(() => undefined);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.byEmail.delete(email);
  }
}

export function toRateLimited(rejection: unknown): Error {
  if (rejection instanceof RateLimiterRes)
    return new RateLimitedError(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
  return rejection instanceof Error ? rejection : new Error(String(rejection));
}
