import { describe, expect, it } from '@jest/globals';
import { createTicketJudgeClient } from './client.js';
import { TicketJudgeError } from './errors.js';
import { judge } from './judge.js';

const PACK = '0d4b8f1e-6a2c-4e97-b3d5-7c1f9a0e2b68';
const BODY = { packId: PACK, ticket: { subject: 'Charged twice', customerMessage: 'Refund please' } };
const JUDGED = {
  evaluationId: 'c2a7e915-4d08-4b3f-8e61-9f0b2d5c7a34',
  packVersionId: '9e3a5c7b-1f2d-4a86-b0e4-5d8c6f2a1b97',
  result: { status: 'accept', answers: {}, reviewReasons: [], modelId: 'm', latencyMs: 1 },
};
const FAST = { baseDelayMs: 1, maxDelayMs: 2000 };

type Step = Error | { status: number; body?: unknown; headers?: Record<string, string> };

/** A client over a scripted fetch; records the requests it was given. */
function scripted(...steps: Step[]) {
  const requests: Request[] = [];
  const client = createTicketJudgeClient({
    baseUrl: 'http://judge.test/',
    apiKey: 'tj_live_test',
    fetch: (request) => {
      requests.push(request);
      const step = steps.shift() ?? { status: 200, body: JUDGED };
      if (step instanceof Error) return Promise.reject(step);
      return Promise.resolve(
        new Response(JSON.stringify(step.body ?? { error: 'internal error' }), {
          status: step.status,
          headers: { 'content-type': 'application/json', ...step.headers },
        }),
      );
    },
  });
  return { client, requests };
}

describe('judge', () => {
  it('sends the key, the body and the API key, and returns the judgment', async () => {
    const { client, requests } = scripted({ status: 200, body: JUDGED });
    const outcome = await judge(client, BODY, { idempotencyKey: 'ticket-1001' });
    expect(outcome).toEqual({ ...JUDGED, idempotencyKey: 'ticket-1001', attempts: 1 });
    expect(requests[0].url).toBe('http://judge.test/api/judge');
    expect(requests[0].headers.get('idempotency-key')).toBe('ticket-1001');
    expect(requests[0].headers.get('x-api-key')).toBe('tj_live_test');
    expect(await requests[0].json()).toEqual(BODY);
  });

  it('retries network errors, 5xx, 429 with Retry-After and 409 in progress, with the same key', async () => {
    const { client, requests } = scripted(
      new TypeError('fetch failed'),
      { status: 502, body: 'bad gateway' },
      { status: 503, body: { error: 'service unavailable' }, headers: { 'retry-after': '0' } },
      { status: 429, body: { error: 'rate limit exceeded' }, headers: { 'retry-after': '0' } },
      { status: 409, body: { error: 'request in progress' } },
      { status: 200, body: JUDGED },
    );
    const outcome = await judge(client, BODY, { ...FAST, maxAttempts: 6 });
    expect(outcome.attempts).toBe(6);
    const keys = requests.map((request) => request.headers.get('idempotency-key'));
    expect(new Set(keys)).toEqual(new Set([outcome.idempotencyKey]));
    expect(outcome.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('draws a new key per call when none is given', async () => {
    const { client } = scripted();
    const [a, b] = [await judge(client, BODY), await judge(client, BODY)];
    expect(a.idempotencyKey).not.toBe(b.idempotencyKey);
  });

  it.each([
    [400, { error: 'invalid request', issues: [{ path: 'packId', message: 'packId must be a string' }] }],
    [401, { error: 'invalid API key' }],
    [404, { error: 'pack not found' }],
    [409, { error: 'pack has no published version' }],
    [429, { error: 'rate limit exceeded' }],
  ])('does not retry a %i, and rejects with its error', async (status, body) => {
    const { client, requests } = scripted({ status, body });
    const error = await judge(client, BODY, FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TicketJudgeError);
    expect(error).toMatchObject({ status, message: body.error, attempts: 1 });
    expect(requests).toHaveLength(1);
  });

  it('gives up after maxAttempts with the last answer', async () => {
    const { client, requests } = scripted({ status: 500 }, { status: 500 }, { status: 500 });
    await expect(judge(client, BODY, { ...FAST, maxAttempts: 3 })).rejects.toMatchObject({
      status: 500,
      message: 'internal error',
      attempts: 3,
    });
    expect(requests).toHaveLength(3);
    const dropped = scripted(new TypeError('fetch failed'), new TypeError('fetch failed'));
    await expect(judge(dropped.client, BODY, { ...FAST, maxAttempts: 2 })).rejects.toThrow('fetch failed');
  });

  it('stops waiting when its signal aborts', async () => {
    const { client, requests } = scripted({ status: 503, headers: { 'retry-after': '1' } });
    const controller = new AbortController();
    const pending = judge(client, BODY, { ...FAST, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stopped')), 20);
    await expect(pending).rejects.toThrow('stopped');
    expect(requests).toHaveLength(1);
  });
});
