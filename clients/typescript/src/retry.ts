/** How `judge` retries. Every attempt carries the same `Idempotency-Key`. */
export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The first retry waits up to this long; each later one doubles it (with jitter). */
  baseDelayMs: number;
  /** No wait is longer: a 429 whose `Retry-After` asks for more is not retried but returned. */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 500, maxDelayMs: 30_000 };

/** What one attempt got: no response at all (a dropped connection, DNS, a reset), or a response. */
export type AttemptResult =
  { kind: 'network' } | { kind: 'response'; status: number; error?: string; retryAfter?: string | null };

/**
 * The service's 409 for an `Idempotency-Key` whose first request is still running (docs/judging.md,
 * section 8): the same key sent again later returns that request's evaluation, so it is retried.
 */
export const IN_PROGRESS_ERROR = 'request in progress';

/** `Retry-After` in milliseconds: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (value === null || value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // An HTTP date names its day and month; a bare "-1" or "1.5" is not one (though Date.parse reads them).
  const date = /[a-z]{3}/i.test(trimmed) ? Date.parse(trimmed) : NaN;
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff with jitter: between half and all of `baseDelayMs × 2^(attempt−1)`, capped. */
export function backoffDelay(
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(ceiling * (0.5 + random() * 0.5));
}

/**
 * How long to wait before attempt `attempt + 1`, or null when `attempt`'s result is final.
 * Retried: no response (the request may have run: the key makes sending it again safe), 5xx
 * (after `Retry-After` when given, as on the service's 503), 429 with a `Retry-After` within
 * `maxDelayMs`, and 409 `request in progress`. Final: success, and every other 4xx (a bad body,
 * a missing pack or permission, a 429 without a usable `Retry-After`: sending it again cannot help).
 */
export function retryDelay(
  result: AttemptResult,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
  now = Date.now(),
): number | null {
  if (attempt >= policy.maxAttempts) return null;
  if (result.kind === 'network') return backoffDelay(attempt, policy, random);
  const { status } = result;
  const retryAfter = parseRetryAfter(result.retryAfter, now);
  if (status >= 500)
    return retryAfter === null
      ? backoffDelay(attempt, policy, random)
      : Math.min(retryAfter, policy.maxDelayMs);
  if (status === 429) return retryAfter !== null && retryAfter <= policy.maxDelayMs ? retryAfter : null;
  if (status === 409 && result.error === IN_PROGRESS_ERROR) return backoffDelay(attempt, policy, random);
  return null;
}
