import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, newContext, openSignedIn, screenshot } from '../support/browser.js';
import { PASSWORD } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { triageDocument } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { eventually, startWorker, stopWorker } from '../support/worker.js';

/**
 * What a first user trips over in the web app: the Reviews filter row lines up, count axes have
 * whole-number ticks, the dashboard's legend names every status, every reliability bin is named,
 * a comparison without changes says so, the playground and the evaluation page show the same
 * probabilities, and the pack editor holds Back and Forward while it has unsaved edits.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-web-polish`;
/** The fake model never finds abuse, so nothing is rejected unless a test says so. */
const CALM = { kind: 'answer', choose: { abusive: false } } as const;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  if (!found) throw new Error('element has no box');
  return found;
}

/** The tick labels of a chart's axis inside `scope`, as drawn. */
async function tickTexts(scope: Locator, axis: 'xAxis' | 'yAxis'): Promise<string[]> {
  const ticks = scope.locator(`.recharts-${axis}-tick-labels .recharts-cartesian-axis-tick-value`);
  await ticks.first().waitFor();
  return ticks.allTextContents();
}

describe('the web app’s rough edges, in a browser', () => {
  let gateway: FakeGateway;
  let api: TestApi;
  let worker: RunningProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let apiKey = '';
  let packId = '';

  /** An API call with the key (the session's cookie is for the app's own requests). */
  async function call<T>(method: 'get' | 'post', path: string, data?: unknown): Promise<T> {
    const res = await page.request[method](path, { headers: { 'x-api-key': apiKey }, data });
    if (res.status() >= 300) throw new Error(`${method} ${path}: ${res.status()} ${await res.text()}`);
    return (await res.json()) as T;
  }

  async function judge(confidence?: number): Promise<string> {
    gateway.next({ ...CALM, confidence });
    const judged = await call<{ evaluationId: string }>('post', '/api/judge', {
      packId,
      ticket: { subject: 'Charged twice', customerMessage: 'I was charged twice, refund please' },
    });
    return judged.evaluationId;
  }

  async function simulate(datasetId: string): Promise<string> {
    const { id } = await call<{ id: string }>('post', '/api/simulations', { datasetId, packId });
    await eventually(async () => {
      const run = await call<{ status: string }>('get', `/api/simulations/${id}`);
      return run.status === 'completed' ? run : undefined;
    });
    return id;
  }

  beforeAll(async () => {
    gateway = await startFakeGateway();
    gateway.set(CALM);
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    worker = await startWorker({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    ({ browser, context, page } = await openSignedIn(
      api.url,
      `polish-${randomUUID()}@example.com`,
      PASSWORD,
      { signUp: true },
    ));
    const key = await page.request.post('/app/keys', { data: { name: 'polish' } });
    apiKey = ((await key.json()) as { secret: string }).secret;
    const pack = await call<{ id: string }>('post', '/api/packs', {
      name: 'Polish pack',
      document: triageDocument(),
    });
    packId = pack.id;
    await call('post', `/api/packs/${packId}/publish`);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (worker) await stopWorker(worker);
    await api?.close();
    await gateway?.close();
  });

  it('lines the Reviews filters and the switch up on a desktop, one under the other on a phone', async () => {
    await page.goto('/reviews');
    const filters = page.getByTestId('review-filters');
    const inputs = ['Pack', 'Question', 'Labeled'].map((name) => filters.getByRole('combobox', { name }));
    // The first of the row's switches ("Most valuable first"; the sources switch follows it).
    const track = filters.locator('.mantine-Switch-track').first();
    await track.waitFor();
    const boxes = await Promise.all(inputs.map(box));
    const switchBox = await box(track);
    const centre = (b: Box) => b.y + b.height / 2;
    for (const other of boxes.slice(1)) {
      expect(Math.abs(other.y + other.height - (boxes[0].y + boxes[0].height))).toBeLessThanOrEqual(1);
    }
    expect(Math.abs(centre(switchBox) - centre(boxes[0]))).toBeLessThanOrEqual(2);
    // One row: left to right.
    expect(boxes[1].x).toBeGreaterThan(boxes[0].x);
    expect(switchBox.x).toBeGreaterThan(boxes[2].x);
    await expectAccessible(page, 'reviews filters (desktop)');
    await screenshot(page, 'polish-reviews-desktop');

    const phone = await newContext(browser, api.url, { viewport: 'phone' });
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.goto('/reviews');
    const smallFilters = small.getByTestId('review-filters');
    const stacked = await Promise.all(
      ['Pack', 'Question', 'Labeled'].map((name) => box(smallFilters.getByRole('combobox', { name }))),
    );
    const smallTrack = await box(smallFilters.locator('.mantine-Switch-track').first());
    for (const [above, below] of [
      [stacked[0], stacked[1]],
      [stacked[1], stacked[2]],
      [stacked[2], smallTrack],
    ]) {
      expect(below.y).toBeGreaterThan(above.y + above.height);
      expect(Math.abs(below.x - above.x)).toBeLessThanOrEqual(1);
    }
    // The inputs take the row's width, and nothing scrolls sideways.
    for (const field of stacked) expect(field.width).toBeGreaterThan(300);
    expect(await small.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await expectAccessible(small, 'reviews filters (phone)');
    await screenshot(small, 'polish-reviews-phone');
    await phone.close();
  });

  it('shows the same probabilities, in the question’s option order, in the playground and on the evaluation', async () => {
    // "technical" is chosen at 50%: by probability it would come first, in option order it is second.
    gateway.set({ kind: 'answer', confidence: 0.5, choose: { abusive: false, department: 'technical' } });
    await page.goto('/playground');
    await page.getByRole('combobox', { name: 'Pack' }).click();
    await page.getByRole('option', { name: 'Polish pack' }).click();
    await page.getByLabel('Subject').fill('App crashes');
    await page.getByLabel('Customer message').fill('The app crashes when I open my invoices');
    await page.getByRole('button', { name: 'Judge' }).click();
    const result = page.getByRole('region', { name: 'Result' });
    const list = (scope: Page | Locator) =>
      scope.getByRole('list', { name: 'Probabilities the model gave for Department' });
    await list(result).waitFor();
    const inPlayground = await list(result).innerText();
    expect(inPlayground.split('\n').filter((line) => /^[a-z]/.test(line))).toEqual([
      'billing',
      'technical',
      'legal',
    ]);
    expect(inPlayground).toContain('25%');
    expect(inPlayground).toContain('50% ✓');
    await expectAccessible(page, 'playground result');
    gateway.set(CALM);

    await result.getByRole('link', { name: 'Open the stored evaluation' }).click();
    await page.waitForURL(/\/evaluations\//);
    await list(page).waitFor();
    expect(await list(page).innerText()).toBe(inPlayground);
    await expectAccessible(page, 'evaluation with probabilities');
    await screenshot(page, 'polish-evaluation');
  });

  it('draws the dashboard with whole-number counts and every status in the legend', async () => {
    await judge();
    await judge();
    await page.goto('/');
    const section = page.getByRole('region', { name: 'Last 30 days' });
    await section.locator('.recharts-surface').waitFor();
    const ticks = await tickTexts(section, 'yAxis');
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^\d+$/);
    // No rejection yet: Reject is still in the legend, by name.
    const legend = await section.locator('.recharts-legend-wrapper').innerText();
    expect(
      legend
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean),
    ).toEqual(['Accept', 'Review', 'Reject']);
    await expectAccessible(page, 'dashboard');
    await screenshot(page, 'polish-dashboard');
  });

  it('names every reliability bin, an empty one as no data', async () => {
    for (const confidence of [0.65, 0.95]) {
      const id = await judge(confidence);
      await call('post', `/api/evaluations/${id}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice: 'billing' },
      });
    }
    const bins = Array.from({ length: 10 }, (_, i) => `${(i / 10).toFixed(1)}–${((i + 1) / 10).toFixed(1)}`);
    // On a phone, where the axis has least room.
    const phone = await newContext(browser, api.url, { viewport: 'phone' });
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.goto(`/calibration?packId=${packId}`);
    const card = small.getByRole('region', { name: 'Department' });
    const table = card.getByRole('table', { name: 'Reliability table for Department' });
    await table.waitFor();
    expect(await table.getByRole('rowheader').allInnerTexts()).toEqual(bins);
    const row = (bin: string) =>
      table.getByRole('row').filter({ has: small.getByRole('rowheader', { name: bin }) });
    expect(await row('0.6–0.7').getByRole('cell').allInnerTexts()).toEqual(['1', '100%']);
    expect(await row('0.3–0.4').getByRole('cell').allInnerTexts()).toEqual(['0', 'No data']);
    expect(await tickTexts(card, 'xAxis')).toEqual(bins);
    await expectAccessible(small, 'calibration with labels (phone)');
    await screenshot(small, 'polish-calibration-phone');
    await phone.close();
  });

  it('says "No answers changed" for two runs that agree, and counts changes in whole numbers', async () => {
    const dataset = await call<{ id: string }>('post', '/api/datasets', { name: 'One ticket' });
    await call('post', `/api/datasets/${dataset.id}/tickets`, {
      tickets: [{ subject: 'Charged twice', customerMessage: 'I was charged twice, refund please' }],
    });
    const first = await simulate(dataset.id);
    const same = await simulate(dataset.id);
    gateway.set({ kind: 'answer', choose: { abusive: false, department: 'technical' } });
    const changed = await simulate(dataset.id);
    gateway.set(CALM);

    await page.goto(`/simulations/${first}?compare=${same}`);
    const comparison = page.getByRole('region', { name: 'Comparison' });
    await comparison.getByText('No answers changed', { exact: false }).waitFor({ timeout: 30_000 });
    expect(await comparison.locator('.recharts-surface').count()).toBe(0);
    await expectAccessible(page, 'comparison without changes');

    await page.goto(`/simulations/${first}?compare=${changed}`);
    await comparison.locator('.recharts-surface').waitFor({ timeout: 30_000 });
    const ticks = await tickTexts(comparison, 'xAxis');
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/^\d+$/);
    await expectAccessible(page, 'comparison with changes');
    await screenshot(page, 'polish-comparison');
  }, 90_000);

  describe('the pack editor with unsaved edits', () => {
    const packPath = () => `/packs/${packId}`;
    const modal = () => page.getByRole('dialog', { name: 'Leave without saving?' });
    const firstName = () => page.getByLabel('Question name').first();
    const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
    const at = (path: string) => page.waitForURL((url) => url.pathname === path);

    it('holds Back: Stay keeps the page and its edits, Leave goes back', async () => {
      await page.goto('/packs');
      await page.getByRole('link', { name: 'Polish pack' }).click();
      await at(packPath());
      await firstName().fill('Department (unsaved)');
      await page.getByText('Unsaved changes').waitFor();

      await page.goBack({ waitUntil: 'commit' });
      await modal().waitFor();
      await at(packPath());
      await expectAccessible(page, 'leave without saving, after Back');
      await modal().getByRole('button', { name: 'Stay' }).click();
      await modal().waitFor({ state: 'detached' });
      expect(new URL(page.url()).pathname).toBe(packPath());
      expect(await firstName().inputValue()).toBe('Department (unsaved)');

      await page.goBack({ waitUntil: 'commit' });
      await modal().getByRole('button', { name: 'Leave without saving' }).click();
      await at('/packs');
      await page.getByRole('heading', { level: 2, name: 'Packs' }).waitFor();
    });

    it('holds Forward the same way', async () => {
      // /packs → the pack → the dashboard, then Back to the pack: the dashboard is Forward.
      await page.getByRole('link', { name: 'Polish pack' }).click();
      await at(packPath());
      await nav('Dashboard').click();
      await at('/');
      await page.goBack({ waitUntil: 'commit' });
      await at(packPath());
      await firstName().fill('Department (unsaved again)');
      await page.getByText('Unsaved changes').waitFor();

      await page.goForward({ waitUntil: 'commit' });
      await modal().waitFor();
      await at(packPath());
      await modal().getByRole('button', { name: 'Stay' }).click();
      await modal().waitFor({ state: 'detached' });
      expect(await firstName().inputValue()).toBe('Department (unsaved again)');

      await page.goForward({ waitUntil: 'commit' });
      await modal().getByRole('button', { name: 'Leave without saving' }).click();
      await at('/');
      await page.getByRole('heading', { level: 2, name: 'Dashboard' }).waitFor();
    });

    it('lets Back and Forward through without unsaved edits', async () => {
      await page.goBack({ waitUntil: 'commit' });
      await at(packPath());
      expect(await firstName().inputValue()).toBe('Department');
      await page.goForward({ waitUntil: 'commit' });
      await at('/');
      await page.goBack({ waitUntil: 'commit' });
      await at(packPath());
      await page.goBack({ waitUntil: 'commit' });
      await at('/packs');
      expect(await modal().count()).toBe(0);
      expect(
        (await call<{ document: { questions: { name: string }[] } }>('get', `/api/packs/${packId}`)).document
          .questions[0].name,
      ).toBe('Department');
    });
  });
});
