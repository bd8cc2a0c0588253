import type { TicketJudgeClient } from './client.js';
import { TicketJudgeError } from './errors.js';
import { DEFAULT_RETRY_POLICY, retryDelay, type AttemptResult, type RetryPolicy } from './retry.js';
import type { components } from './schema.js';

export type JudgeRequest = components['schemas']['JudgeRequestDto'];
export type JudgeResponse = components['schemas']['JudgeResponseDto'];

export interface JudgeOptions extends Partial<RetryPolicy> {
  /**
   * The `Idempotency-Key` (1 to 128 characters), sent unchanged on every attempt. Use your own
   * stable id (the ticket's) to make retries across process restarts safe too; by default a
   * random UUID per call.
   */
  idempotencyKey?: string;
  /** Stops waiting and retrying; the current attempt is aborted too. */
  signal?: AbortSignal;
}

export interface JudgeOutcome extends JudgeResponse {
  idempotencyKey: string;
  /** Requests sent, the successful one included. */
  attempts: number;
}

/**
 * `POST /api/judge`, retried safely: the same `Idempotency-Key` on every attempt, so a retry after
 * a dropped connection returns the evaluation already stored instead of judging (and billing) the
 * ticket twice. See `retryDelay` for what is retried. Resolves with the judgment; rejects with a
 * `TicketJudgeError` for a final refusal, or with the last network error.
 *
 * A gateway failure is not an error: it resolves with `result.status` `review` and the kind in
 * `result.reviewReasons` (`gateway_unavailable`, …); the service does not keep the key then, so
 * calling `judge` again with the same key runs the judgment again.
 */
export async function judge(
  client: TicketJudgeClient,
  body: JudgeRequest,
  options: JudgeOptions = {},
): Promise<JudgeOutcome> {
  const policy: RetryPolicy = {
    maxAttempts: options.maxAttempts ?? DEFAULT_RETRY_POLICY.maxAttempts,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
  };
  const idempotencyKey = options.idempotencyKey ?? globalThis.crypto.randomUUID();
  for (let attempt = 1; ; attempt++) {
    options.signal?.throwIfAborted();
    let result: AttemptResult;
    let failure: unknown;
    try {
      const { data, error, response } = await client.POST('/api/judge', {
        body,
        params: { header: { 'Idempotency-Key': idempotencyKey } },
        signal: options.signal,
      });
      if (data) return { ...data, idempotencyKey, attempts: attempt };
      failure = TicketJudgeError.from(response, error, attempt);
      result = {
        kind: 'response',
        status: response.status,
        error: (failure as TicketJudgeError).message,
        retryAfter: response.headers.get('retry-after'),
      };
    } catch (error) {
      if (options.signal?.aborted) throw error;
      failure = error;
      result = { kind: 'network' };
    }
    const delay = retryDelay(result, attempt, policy);
    if (delay === null) throw failure;
    await sleep(delay, options.signal);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
