import { expect } from '@jest/globals';
import type { TestResponse } from './client.js';

/** A refusal by the daily per-key limit: the contract's body, Retry-After and the IETF header. */
export function expectDailyLimitRefusal(res: TestResponse): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'rate limit exceeded' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(86_400);
  expect(res.headers.get('ratelimit')).toBe(`"daily";r=0;t=${retryAfter}`);
}
