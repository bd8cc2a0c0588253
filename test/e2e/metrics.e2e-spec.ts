import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { Client, newTenant } from '../support/client.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

/** The value of one series in Prometheus' text format, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics on the API', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({ API_RATE_LIMIT_PER_DAY: '3' });
  });
  afterAll(() => api.close());

  it('counts judgments, HTTP requests by route pattern, 429s and queue depth, with no ids in labels', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    expect((await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).status).toBe(200);
    expect((await keyed.get(`/api/packs/${pack.id}`)).status).toBe(429);
    const res = await new Client(api.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const judged = text
      .split('\n')
      .filter((line) => line.startsWith('judgments_total{source="api"') && line.includes('failure="none"'));
    expect(judged.map((line) => Number(line.split(' ').at(-1)))).toEqual([1]);
    expect(
      sample(text, 'http_request_duration_seconds_count{method="POST",route="/api/judge",status="200"}'),
    ).toBe(1);
    expect(sample(text, 'rate_limit_refusals_total{route="/api/packs/:packId"}')).toBe(1);
    expect(sample(text, 'model_call_duration_seconds_count{outcome="ok"}')).toBe(1);
    expect(sample(text, 'queue_jobs{queue="webhooks",state="waiting"}')).toBeGreaterThanOrEqual(0);
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).not.toContain(pack.id);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let api: TestApi;
  const token = 'metrics-token-0123456789';
  beforeAll(async () => {
    api = await startApi({ METRICS_TOKEN: token });
  });
  afterAll(() => api.close());

  it('needs the token as a bearer token', async () => {
    const client = new Client(api.url);
    const missing = await client.get('/metrics');
    expect([missing.status, missing.body]).toEqual([401, { error: 'metrics token required' }]);
    const wrong = await client.get('/metrics', { headers: { authorization: `Bearer ${token}x` } });
    expect(wrong.status).toBe(401);
    const right = await client.get('/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(right.status).toBe(200);
    expect(right.text).toContain('http_request_duration_seconds');
  });
});

describe('GET /metrics with Redis away', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startApi({
      REDIS_URL: 'redis://127.0.0.1:1',
      REDIS_PREFIX: `${process.env.REDIS_PREFIX}-metrics-away`,
    });
  });
  afterAll(() => api.close());

  it('still answers, without queue figures, and the API stays up', async () => {
    const client = new Client(api.url);
    for (let scrape = 0; scrape < 2; scrape++) {
      const res = await client.get('/metrics');
      expect(res.status).toBe(200);
      expect(res.text).not.toMatch(/^queue_jobs\{/m);
      expect(res.text).toContain('http_request_duration_seconds');
    }
    expect((await client.get('/healthz')).status).toBe(200);
  });
});
