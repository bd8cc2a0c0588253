import type { Client } from './client.js';
import { TICKET } from './packs.js';

/**
 * A dataset of `count` copies of the sample ticket (externalIds T-0, T-1, ...), added 100 at a
 * time; throws on any refusal. Free of Jest, so the benchmarks use it too.
 */
export async function uploadDataset(
  client: Client,
  count: number,
  name = 'tickets',
): Promise<{ id: string }> {
  const dataset = await client.post<{ id: string }>('/api/datasets', { name });
  if (dataset.status !== 201) throw new Error(`dataset creation failed: ${dataset.status} ${dataset.text}`);
  for (let start = 0; start < count; start += 100) {
    const tickets = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
      ...TICKET,
      externalId: `T-${start + i}`,
    }));
    const res = await client.post(`/api/datasets/${dataset.body.id}/tickets`, { tickets });
    if (res.status !== 200) throw new Error(`adding tickets failed: ${res.status} ${res.text}`);
  }
  return dataset.body;
}
