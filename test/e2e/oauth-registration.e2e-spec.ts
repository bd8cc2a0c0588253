import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { queryDatabase } from '../support/db.js';
import { startApi, type TestApi } from '../support/api.js';
import { PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import { approve, pkce, REDIRECT_URI, registerClient } from '../support/oauth-flow.js';
import { startWorker, stopWorker } from '../support/worker.js';

const prefix = () => `${process.env.REDIS_PREFIX ?? 'tjtest'}-dcr-${randomUUID().slice(0, 8)}`;

/** One registration as sent from `address` (the API trusts X-Forwarded-For in these tests). */
async function registerFrom(baseUrl: string, address: string) {
  const res = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as any };
}

function expectTooMany(res: Awaited<ReturnType<typeof registerFrom>>, why: string): void {
  expect(res.body).toEqual({
    error: 'temporarily_unavailable',
    error_description: expect.stringContaining(why),
  });
  expect(Number(res.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(res.retryAfter)).toBeLessThanOrEqual(3600);
}

describe('dynamic client registration limits', () => {
  it('has a ceiling across all addresses, counted atomically under parallel registrations', async () => {
    const api = await startApi({
      REDIS_PREFIX: prefix(),
      TRUST_PROXY: 'true',
      OAUTH_REGISTRATIONS_PER_HOUR: '10',
    });
    try {
      const addresses = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5'];
      const results = await Promise.all(
        addresses.flatMap((address) => Array.from({ length: 4 }, () => registerFrom(api.url, address))),
      );
      const created = results.filter((res) => res.status === 201);
      const refused = results.filter((res) => res.status === 429);
      expect(created).toHaveLength(10);
      expect(refused).toHaveLength(10);
      for (const res of refused) expectTooMany(res, 'from all addresses');
    } finally {
      await api.close();
    }
  });

  it('answers the per-address limit with Retry-After too', async () => {
    const api = await startApi({ REDIS_PREFIX: prefix(), TRUST_PROXY: 'true' });
    try {
      const results = await Promise.all(
        Array.from({ length: 21 }, () => registerFrom(api.url, '198.51.100.7')),
      );
      const refused = results.filter((res) => res.status === 429);
      expect(refused).toHaveLength(1);
      expectTooMany(refused[0], 'from this address');
      expect((await registerFrom(api.url, '198.51.100.8')).status).toBe(201);
    } finally {
      await api.close();
    }
  });
});

describe('the worker purges clients nobody approved', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: prefix() });
  });
  afterAll(async () => {
    await api.close();
  });

  it('a day after registration, keeping approved and younger clients', async () => {
    const account = { email: uniqueEmail('purge'), password: PASSWORD };
    await signUp(api.url, account.email);
    const [stale, approved, fresh] = await Promise.all(
      [1, 2, 3].map(async () => (await registerClient(api.url)).body.client_id as string),
    );
    await approve(api.url, approved, account, pkce().challenge);
    await queryDatabase(
      `UPDATE oauth_clients SET created_at = now() - interval '25 hours' WHERE id = ANY($1)`,
      [[stale, approved]],
    );
    // A namespace of its own: the hourly schedule is new there, so its first run is immediate.
    const worker = await startWorker({ REDIS_PREFIX: prefix() });
    try {
      await worker.waitFor(/maintenance cleanup done/);
    } finally {
      await stopWorker(worker);
    }
    const left = await queryDatabase<{ id: string }>(`SELECT id FROM oauth_clients WHERE id = ANY($1)`, [
      [stale, approved, fresh],
    ]);
    expect(left.map((row) => row.id).sort()).toEqual([approved, fresh].sort());
  }, 90_000);
});
