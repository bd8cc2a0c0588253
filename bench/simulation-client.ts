import { createTenant, TICKET } from './tenant.js';

/** The benchmark's side of the API: a tenant with a dataset, and one simulation timed to its end. */
async function api<T>(
  baseUrl: string,
  apiKey: string,
  method: 'GET' | 'POST',
  route: string,
  expected: number,
  body?: unknown,
): Promise<T> {
  const response = await fetch(baseUrl + route, {
    method,
    headers:
      body === undefined
        ? { 'x-api-key': apiKey }
        : { 'x-api-key': apiKey, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== expected)
    throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

export interface Fixture {
  apiUrl: string;
  apiKey: string;
  packId: string;
  datasetId: string;
}

/** A user, an API key, a published pack and one dataset of distinct tickets, all over HTTP. */
export async function createFixture(apiUrl: string, tickets: number): Promise<Fixture> {
  const tenant = await createTenant(apiUrl);
  const dataset = await api<{ id: string }>(apiUrl, tenant.apiKey, 'POST', '/api/datasets', 201, {
    name: `bench ${tickets} tickets`,
  });
  const upload = await api<{ inserted: number; total: number }>(
    apiUrl,
    tenant.apiKey,
    'POST',
    `/api/datasets/${dataset.id}/tickets`,
    200,
    { tickets: Array.from({ length: tickets }, (_, i) => ({ ...TICKET, externalId: `BENCH-${i + 1}` })) },
  );
  if (upload.total !== tickets) throw new Error(`the dataset holds ${upload.total} tickets, not ${tickets}`);
  return { apiUrl, apiKey: tenant.apiKey, packId: tenant.packId, datasetId: dataset.id };
}

export interface SimulationView {
  status: string;
  total: number;
  completed: number;
  reason: string | null;
  finishedAt: string | null;
}

export interface TimedSimulation {
  id: string;
  view: SimulationView;
  /** Epoch ms of the POST, to compare with BullMQ's job stamps (same machine, same clock). */
  postedAt: number;
  /** POST -> the simulation's recorded `finishedAt` (Postgres's clock, on the same machine). */
  wallMs: number;
  /** POST -> the first poll that showed `completed`: the wall time plus up to one poll interval. */
  seenMs: number;
}

export interface PollOptions {
  pollMs: number;
  timeoutMs: number;
  /** Processes whose death ends the wait at once. */
  watch: Array<{ died: boolean; name: string }>;
}

/**
 * Posts the simulation and polls until it is completed. Its wall time ends at the `finishedAt` the
 * service recorded, so the poll interval (and the load of polling) does not set the figure.
 */
export async function runSimulation(fixture: Fixture, options: PollOptions): Promise<TimedSimulation> {
  const postedAt = Date.now();
  const started = performance.now();
  const { id } = await api<{ id: string }>(fixture.apiUrl, fixture.apiKey, 'POST', '/api/simulations', 202, {
    datasetId: fixture.datasetId,
    packId: fixture.packId,
  });
  for (;;) {
    const view = await api<SimulationView>(
      fixture.apiUrl,
      fixture.apiKey,
      'GET',
      `/api/simulations/${id}`,
      200,
    );
    if (view.status === 'completed') {
      if (!view.finishedAt) throw new Error(`simulation ${id} is completed without finishedAt`);
      const seenMs = performance.now() - started;
      return { id, view, postedAt, wallMs: Date.parse(view.finishedAt) - postedAt, seenMs };
    }
    if (view.status === 'failed' || view.status === 'cancelled')
      throw new Error(`simulation ${id} is ${view.status}: ${view.reason}`);
    const dead = options.watch.find((child) => child.died);
    if (dead) throw new Error(`${dead.name} died during the simulation`);
    if (performance.now() - started > options.timeoutMs)
      throw new Error(
        `simulation ${id} not completed after ${options.timeoutMs} ms: ${JSON.stringify(view)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}
