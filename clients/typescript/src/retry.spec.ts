import { describe, expect, it } from '@jest/globals';
import { backoffDelay, parseRetryAfter, retryDelay, type RetryPolicy } from './retry.js';

const POLICY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000 };
const top = () => 0.999_999;
const response = (status: number, extra: { error?: string; retryAfter?: string } = {}) =>
  ({ kind: 'response', status, ...extra }) as const;

describe('parseRetryAfter', () => {
  it('reads delay-seconds and HTTP dates, and nothing else', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    expect(parseRetryAfter('1', now)).toBe(1000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Fri, 20 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Fri, 20 Nov 2026 09:00:00 GMT', now)).toBe(0);
    for (const value of [null, undefined, '', 'soon', '-1', '1.5'])
      expect(parseRetryAfter(value, now)).toBeNull();
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt between half and all of the ceiling, capped at maxDelayMs', () => {
    expect([1, 2, 3, 4, 5].map((n) => backoffDelay(n, POLICY, top))).toEqual([100, 200, 400, 800, 1000]);
    expect([1, 2, 3].map((n) => backoffDelay(n, POLICY, () => 0))).toEqual([50, 100, 200]);
  });
});

describe('retryDelay', () => {
  it('retries a request that got no response, with backoff', () => {
    expect(retryDelay({ kind: 'network' }, 1, POLICY, top)).toBe(100);
    expect(retryDelay({ kind: 'network' }, 3, POLICY, top)).toBe(400);
  });

  it('retries 5xx, after Retry-After when given (capped), else with backoff', () => {
    expect(retryDelay(response(500), 1, POLICY, top)).toBe(100);
    expect(retryDelay(response(502), 2, POLICY, top)).toBe(200);
    expect(retryDelay(response(503, { retryAfter: '1' }), 1, POLICY, top)).toBe(1000);
    expect(retryDelay(response(503, { retryAfter: '60' }), 1, POLICY, top)).toBe(1000);
  });

  it('retries 429 only with a Retry-After it can wait for', () => {
    expect(retryDelay(response(429, { retryAfter: '0' }), 1, POLICY)).toBe(0);
    expect(retryDelay(response(429, { retryAfter: '1' }), 1, POLICY)).toBe(1000);
    expect(retryDelay(response(429, { retryAfter: '2' }), 1, POLICY)).toBeNull();
    expect(retryDelay(response(429), 1, POLICY)).toBeNull();
  });

  it('retries the 409 of a key whose request is still running, but no other 409', () => {
    expect(retryDelay(response(409, { error: 'request in progress' }), 1, POLICY, top)).toBe(100);
    expect(retryDelay(response(409, { error: 'pack has no published version' }), 1, POLICY)).toBeNull();
  });

  it('never retries other 4xx, or a success', () => {
    for (const status of [200, 400, 401, 403, 404, 413, 415, 422])
      expect(retryDelay(response(status), 1, POLICY)).toBeNull();
  });

  it('stops after maxAttempts, whatever the answer', () => {
    expect(retryDelay({ kind: 'network' }, 4, POLICY)).toBeNull();
    expect(retryDelay(response(503, { retryAfter: '1' }), 4, POLICY)).toBeNull();
  });
});
