import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { createKey, newTenant } from '../support/client.js';
import { ProbeModule } from '../support/probe.module.js';

const LIMIT = 20;

describe('per-key rate limit', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ API_RATE_LIMIT_PER_DAY: String(LIMIT) }, [ProbeModule]);
  });
  afterAll(async () => {
    await api.close();
  });

  it('admits exactly the limit out of more parallel requests, then answers 429 with Retry-After', async () => {
    const { keyed, session } = await newTenant(api.url);
    const responses = await Promise.all(
      Array.from({ length: LIMIT * 3 }, () => keyed.get('/api/probe/packs/read')),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT * 2);
    const limited = responses.find((res) => res.status === 429)!;
    expect(limited.body).toEqual({ error: 'rate limit exceeded' });
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(86_400);
    expect(limited.headers.get('ratelimit')).toBe(`"daily";r=0;t=${retryAfter}`);

    // Sessions are not API keys: the app keeps working for the signed-in user.
    expect((await session.get('/api/probe/packs/read')).status).toBe(200);
  });

  it('sends the IETF RateLimit-Policy and RateLimit headers on every keyed response', async () => {
    const { keyed } = await newTenant(api.url);
    const first = await keyed.get('/api/probe/packs/read');
    expect(first.headers.get('ratelimit-policy')).toBe(`"daily";q=${LIMIT};w=86400`);
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"daily";r=${LIMIT - 1};t=\\d+$`));
    const forbidden = await keyed.get('/api/probe/nothing/here');
    expect(forbidden.status).toBe(404);
    const second = await keyed.get('/api/probe/packs/write');
    expect(second.headers.get('ratelimit')).toMatch(new RegExp(`^"daily";r=${LIMIT - 2};t=\\d+$`));
  });

  it('limits keys independently', async () => {
    const { session, keyed } = await newTenant(api.url);
    await Promise.all(Array.from({ length: LIMIT }, () => keyed.get('/api/probe/packs/read')));
    expect((await keyed.get('/api/probe/packs/read')).status).toBe(429);
    const { client: other } = await createKey(session);
    expect((await other.get('/api/probe/packs/read')).status).toBe(200);
  });
});
