import { Redis } from 'ioredis';

/**
 * Deletes every Redis key of a test namespace: `prefix:*`, and `prefix-*:*` for the suites that
 * run under a namespace of their own derived from it (`…-mcp`, `…-sim`).
 */
export async function deleteRedisNamespace(prefix: string): Promise<void> {
  const redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  try {
    for (const pattern of [`${prefix}:*`, `${prefix}-*`]) {
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
        if (keys.length) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
    }
  } finally {
    redis.disconnect();
  }
}
