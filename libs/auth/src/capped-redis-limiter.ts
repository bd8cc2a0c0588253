import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';

/**
 * rate-limiter-flexible's increment script, changed in one way: points are counted only while they
 * fit under the limit (ARGV[3]). A refused consume still reports the count it would have reached, so
 * the library refuses it as usual, but nothing is stored: the counter never passes the limit, and
 * points given back (a block's unspent part) are available again even after refusals.
 */
const CAPPED_INCR_TTL = `redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local points = tonumber(ARGV[1])
local consumed = tonumber(redis.call('get', KEYS[1]))
if points <= 0 or consumed + points <= tonumber(ARGV[3]) then
  consumed = redis.call('incrby', KEYS[1], points)
else
  consumed = consumed + points
end
local ttl = redis.call('pttl', KEYS[1])
if ttl == -1 then
  redis.call('expire', KEYS[1], ARGV[2])
  ttl = 1000 * ARGV[2]
end
return {consumed, ttl}`;

export interface CappedLimiterOptions {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/**
 * A fixed-window limiter in Redis whose counter never passes its limit, with an in-process limiter
 * standing in while Redis is unreachable. The client must be its own connection: the library
 * registers its script on the client under a fixed name, which other limiters would overwrite.
 */
export function createCappedRedisLimiter(client: Redis, options: CappedLimiterOptions): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: client,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    customIncrTtlLuaScript: CAPPED_INCR_TTL,
    insuranceLimiter: new RateLimiterMemory({ points: options.points, duration: options.durationSeconds }),
  });
}
