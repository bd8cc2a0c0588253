import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable } from '@nestjs/common';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { APP_CONFIG, type AppConfig } from '@app/config';
import { RateLimitedError } from '@app/domain';
import { RedisClient } from '@app/persistence';
import { throttleKey } from './throttle-key.js';

/** Failed sign-ins allowed per email and per client IP in one window. */
export const SIGN_IN_FAILURES_PER_EMAIL = 10;
export const SIGN_IN_FAILURES_PER_IP = 100;
/** Once an email's failures are spent: attempts still checked for it, from clean addresses only. */
export const CLEAN_ADDRESS_ATTEMPTS_PER_EMAIL = 10;
/** The wait of an attempt on a locked email, so that path stays the slow one. */
const LOCKED_EMAIL_DELAY_MS = 1000;
const WINDOW_SECONDS = 15 * 60;

/** A sign-in attempt that holds one unit of each budget it took; it becomes a failure unless settled. */
export interface SignInAttempt {
  succeeded(): Promise<void>;
}

/**
 * Slows password guessing: failed sign-ins are counted in Redis per email, per client IP, and per
 * email and IP together; past the email's or the IP's limit, sign-in answers 429 until the window
 * ends. So that strangers cannot lock an owner out, an email whose failures are spent is still
 * checked, after a delay, from an address with no failure (nor attempt in flight) for it, taking a
 * unit of a second per-email budget of the same size: guessing stays bounded by both budgets.
 * Each attempt takes its units atomically BEFORE the password is checked, so parallel attempts can
 * never verify more passwords than the limits; a success gives them back and clears the counts.
 * An attempt takes the clean-address path only if the email was already spent when it took its
 * address's unit: every attempt then holding one of the email's units had taken its address's first.
 */
@Injectable()
export class SignInThrottle {
  private readonly byEmail: RateLimiterRedis;
  private readonly byIp: RateLimiterRedis;
  private readonly byEmailAndIp: RateLimiterRedis;
  private readonly cleanAddresses: RateLimiterRedis;

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
    // Never the binding limit (the IP's is): it tells whether an address is clean for an email.
    this.byEmailAndIp = limiter('email-ip', SIGN_IN_FAILURES_PER_IP);
    this.cleanAddresses = limiter('clean', CLEAN_ADDRESS_ATTEMPTS_PER_EMAIL);
  }

  /** Takes the units an attempt needs, or refuses with 429 when a budget is spent. */
  async begin(email: string, ip: string): Promise<SignInAttempt> {
    const emailKey = throttleKey(email);
    const ipKey = throttleKey(ip);
    const pairKey = `${emailKey}:${ipKey}`;
    const taken: [RateLimiterRedis, string][] = [];
    const take = async (limiter: RateLimiterRedis, key: string) => {
      const result = await limiter.consume(key);
      taken.push([limiter, key]);
      return result;
    };
    try {
      await take(this.byIp, ipKey);
      const spentBefore = await this.spent(emailKey);
      const fromAddress = await take(this.byEmailAndIp, pairKey);
      const locked = await refusal(take(this.byEmail, emailKey));
      if (!locked) {
        return { succeeded: () => this.settle([this.byEmail.delete(emailKey)], ipKey, pairKey) };
      }
      // This attempt's own unit is the address's only one: no failure from it, none in flight.
      // That holds only if the email was spent before the unit was taken: otherwise attempts from
      // this address may have taken their units after this one's, then the email's last ones.
      if (!spentBefore || fromAddress.consumedPoints > 1) throw retryLater(locked);
      await take(this.cleanAddresses, emailKey);
      await sleep(LOCKED_EMAIL_DELAY_MS);
      // The email's count stays spent: only the owner's clean-path unit is given back.
      return { succeeded: () => this.settle([this.cleanAddresses.reward(emailKey, 1)], ipKey, pairKey) };
    } catch (error) {
      // Units taken before a refusal were not used by a password check: give them back.
      await Promise.all(taken.map(([limiter, key]) => limiter.reward(key, 1)));
      throw error instanceof RateLimiterRes ? retryLater(error) : error;
    }
  }

  /**
   * Whether the email's failures are spent now. Units past the limit are only ever taken by attempts
   * about to be refused, so a count at the limit means that many attempts were checked or are.
   */
  private async spent(emailKey: string): Promise<boolean> {
    return ((await this.byEmail.get(emailKey))?.consumedPoints ?? 0) >= SIGN_IN_FAILURES_PER_EMAIL;
  }

  private async settle(pending: Promise<unknown>[], ipKey: string, pairKey: string): Promise<void> {
    await Promise.all([...pending, this.byIp.reward(ipKey, 1), this.byEmailAndIp.delete(pairKey)]);
  }
}

/** The limiter's refusal when it refuses, null when it grants; other errors propagate. */
async function refusal(consumed: Promise<unknown>): Promise<RateLimiterRes | null> {
  try {
    await consumed;
    return null;
  } catch (error) {
    if (error instanceof RateLimiterRes) return error;
    throw error;
  }
}

function retryLater(refusal: RateLimiterRes): RateLimitedError {
  return new RateLimitedError(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)));
}
