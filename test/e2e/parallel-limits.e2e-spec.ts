import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { Client, newTenant, PASSWORD, uniqueEmail } from '../support/client.js';
import { createPack, createPublishedPack, TICKET } from '../support/packs.js';

/** Every limit and uniqueness rule, hit by many requests at once: one winner, no 500, nothing doubled. */
describe('limits under parallel requests', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ API_RATE_LIMIT_PER_DAY: '100000' });
  });
  afterAll(async () => {
    await api.close();
  });

  const statuses = (responses: { status: number }[]) => responses.map((res) => res.status).sort();

  it('one account per email', async () => {
    const email = uniqueEmail();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        new Client(api.url).post('/api/auth/sign-up', { email, password: PASSWORD }),
      ),
    );
    expect(statuses(results)).toEqual([201, ...Array(19).fill(409)]);
  });

  it('one completion endpoint per user', async () => {
    const { keyed } = await newTenant(api.url);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        keyed.post('/api/webhook-endpoints', { url: `https://example.com/h${i}` }),
      ),
    );
    expect(results.every((res) => res.status < 300)).toBe(true);
    expect((await keyed.get('/api/webhook-endpoints')).body).toHaveLength(1);
  });

  it('one label per question of an evaluation', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const judged = await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        keyed.post(`/api/evaluations/${judged.body.evaluationId}/labels`, {
          questionId: 'department',
          answer: { type: 'choice', choice: 'billing' },
        }),
      ),
    );
    expect(results.every((res) => res.status === 200 || res.status === 201)).toBe(true);
    const evaluation = await keyed.get(`/api/evaluations/${judged.body.evaluationId}`);
    expect(evaluation.body.labels).toHaveLength(1);
  });

  it('publishing and deleting a pack at once', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPack(keyed);
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => keyed.post(`/api/packs/${pack.id}/publish`)),
      keyed.delete(`/api/packs/${pack.id}`),
      ...Array.from({ length: 10 }, () => keyed.patch(`/api/packs/${pack.id}`, { name: 'renamed' })),
    ]);
    for (const res of results) expect([200, 204, 404, 409]).toContain(res.status);
    expect((await keyed.get(`/api/packs/${pack.id}`)).status).toBe(404);
  });

  it('judging with one idempotency key: one evaluation', async () => {
    const { keyed } = await newTenant(api.url);
    const pack = await createPublishedPack(keyed);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        keyed.post(
          '/api/judge',
          { packId: pack.id, ticket: TICKET },
          { headers: { 'idempotency-key': 'same' } },
        ),
      ),
    );
    for (const res of results) expect([200, 409]).toContain(res.status);
    const ids = new Set(results.filter((res) => res.status === 200).map((res) => res.body.evaluationId));
    expect(ids.size).toBe(1);
  });
});
