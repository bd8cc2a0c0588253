import { expect } from '@jest/globals';
import type { Client } from './client.js';
import { TICKET } from './packs.js';

/** A dataset of `count` copies of the sample ticket (externalIds T-0, T-1, ...), added 100 at a time. */
export async function createDataset(
  client: Client,
  count: number,
  name = 'tickets',
): Promise<{ id: string }> {
  const dataset = await client.post('/api/datasets', { name });
  expect(dataset.status).toBe(201);
  for (let start = 0; start < count; start += 100) {
    const tickets = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
      ...TICKET,
      externalId: `T-${start + i}`,
    }));
    const res = await client.post(`/api/datasets/${dataset.body.id}/tickets`, { tickets });
    expect(res.status).toBe(200);
  }
  return dataset.body;
}
