import type { Redis } from 'ioredis';
import { RateLimiterRedis } from 'rate-limiter-flexible';

/**
 * rate-limiter-flexible's increment script, changed in two ways. Points are counted only while they
 * fit under the limit (ARGV[3]): a refused consume still reports the count it would have reached, so
 * the library refuses it as usual, but nothing is stored, and the counter never passes the limit.
 * Points given back (a negative consume: a block's unspent part) go only into the window that counted
 * them, never into a new one, and never take the counter below zero.
 */
const CAPPED_INCR_TTL = `local points = tonumber(ARGV[1])
if points < 0 then
  if not redis.call('get', KEYS[1]) then return {0, -2} end
  local left = redis.call('incrby', KEYS[1], points)
  if left < 0 then left = redis.call('incrby', KEYS[1], -left) end
  return {left, redis.call('pttl', KEYS[1])}
end
redis.call('set', KEYS[1], 0, 'EX', ARGV[2], 'NX')
local consumed = tonumber(redis.call('get', KEYS[1]))
if consumed + points <= tonumber(ARGV[3]) then
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
 * A fixed-window limiter in Redis whose counter never passes its limit. It has no in-process
 * insurance limiter: points it hands out and takes back must all be Redis's, so a caller that finds
 * Redis unreachable counts elsewhere itself (DailyRateLimiter). The client must be its own
 * connection: the library registers its script on the client under a fixed name, which other
 * limiters would overwrite.
 */
export function createCappedRedisLimiter(client: Redis, options: CappedLimiterOptions): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: client,
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.durationSeconds,
    customIncrTtlLuaScript: CAPPED_INCR_TTL,
  });
}
