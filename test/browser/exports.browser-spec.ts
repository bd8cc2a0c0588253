import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { openSignedIn } from '../support/browser.js';
import { createKey, PASSWORD, signUp, uniqueEmail, type Client } from '../support/client.js';
import { createDataset } from '../support/datasets.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/** Its own Redis namespace: only this file's worker takes these jobs. */
const PREFIX = `${process.env.REDIS_PREFIX ?? 'tjtest'}-exports-browser`;

/**
 * The "Export CSV" links: on a simulation's results, on its comparison and on the calibration page,
 * each a download of its CSV route with the page's current choices, which answers the CSV.
 */
describe('CSV export links', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;
  let browser: Browser;
  let page: Page;
  let keyed: Client;
  const email = uniqueEmail('exports');

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    worker = await startWorker({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    const { client: session } = await signUp(api.url, email);
    keyed = (await createKey(session)).client;
    ({ browser, page } = await openSignedIn(api.url, email, PASSWORD));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await stopWorker(worker);
    await api?.close();
    await gateway?.close();
  });

  /** The link's href, and what fetching it with the page's session answers. */
  async function download(name: string): Promise<{ href: string; status: number; type: string }> {
    const link = page.getByRole('link', { name });
    await link.waitFor();
    expect(await link.getAttribute('download')).not.toBeNull();
    const href = (await link.getAttribute('href'))!;
    const res = await page.request.get(href);
    return { href, status: res.status(), type: res.headers()['content-type'] };
  }

  it("links a simulation's results and its comparison to their CSV routes", async () => {
    const pack = await createPublishedPack(keyed);
    const dataset = await createDataset(keyed, 3);
    const run = async () => {
      const id = (await keyed.post('/api/simulations', { datasetId: dataset.id, packId: pack.id })).body.id;
      await eventually(async () =>
        (await keyed.get(`/api/simulations/${id}`)).body.status === 'completed' ? true : undefined,
      );
      return id as string;
    };
    const [first, second] = [await run(), await run()];
    const csv = { status: 200, type: 'text/csv; charset=utf-8' };

    await page.goto(`/simulations/${first}`);
    const results = page.getByRole('region', { name: 'Results' });
    await results.getByRole('link', { name: 'Export CSV' }).waitFor();
    expect(await results.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      `/api/simulations/${first}/export`,
    );
    expect(await download('Export CSV')).toEqual({ href: `/api/simulations/${first}/export`, ...csv });

    await page.goto(`/simulations/${first}?compare=${second}`);
    const comparison = page.getByRole('region', { name: 'Comparison' });
    const link = comparison.getByRole('link', { name: 'Export CSV' });
    await link.waitFor();
    const href = await link.getAttribute('href');
    expect(href).toBe(`/api/simulations/${first}/compare/${second}/export`);
    const res = await page.request.get(href!);
    expect([res.status(), res.headers()['content-type']]).toEqual([csv.status, csv.type]);
  });

  it("links the calibration page to the chosen pack's labels", async () => {
    const pack = await createPublishedPack(keyed, undefined, 'Labeled');
    const judged = (await keyed.post('/api/judge', { packId: pack.id, ticket: TICKET })).body;
    const label = { questionId: 'department', answer: { type: 'choice', choice: 'billing' } };
    await keyed.post(`/api/evaluations/${judged.evaluationId}/labels`, label);

    await page.goto('/calibration');
    expect(await download('Export CSV')).toMatchObject({ href: '/api/labels/export', status: 200 });
    await page.goto(`/calibration?packId=${pack.id}`);
    const chosen = await download('Export CSV');
    expect(chosen).toEqual({
      href: `/api/labels/export?packId=${pack.id}`,
      status: 200,
      type: 'text/csv; charset=utf-8',
    });
    const body = await (await page.request.get(chosen.href)).text();
    expect(body).toContain(judged.evaluationId);
  });
});
