import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import {
  expectAccessible,
  launchBrowser,
  newContext,
  screenshot,
  signUpInBrowser,
  type Scheme,
  type ViewportName,
} from '../support/browser.js';
import { PASSWORD } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import type { RunningProcess } from '../support/process.js';
import { startWorker, stopWorker } from '../support/worker.js';

/**
 * The app as its users meet it: Debian's Chromium driving the built app (dist/web) served by the
 * real API on real Postgres and Redis, a real worker, and the fake model gateway. The steps run in
 * order, as one person's first session, then a second person checks they see none of it.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-web`;
const GOOD_CSV = [
  'subject,customerMessage',
  'Charged twice,I was charged twice for my subscription this month',
  'Cannot log in,The app says my password is wrong since the update',
  'Refund please,Please refund order 1234 it never arrived',
].join('\n');
const BAD_CSV = ['subject,customerMessage', 'Fine,A ticket with text', 'No message,'].join('\n');

describe('the web app in a browser', () => {
  let gateway: FakeGateway;
  let api: TestApi;
  let worker: RunningProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const email = `web-${randomUUID()}@example.com`;
  const ids: { packId?: string; datasetId?: string; simulationId?: string; evaluationId?: string } = {};

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    worker = await startWorker({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX });
    browser = await launchBrowser();
    context = await newContext(browser, api.url);
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (worker) await stopWorker(worker);
    await api?.close();
    await gateway?.close();
  });

  it('signs a new user up and shows the empty dashboard', async () => {
    await signUpInBrowser(page, email, PASSWORD);
    await page.getByText('No evaluations yet').waitFor();
    await page.getByRole('link', { name: 'Go to Packs' }).waitFor();
  });

  it('creates an API key and shows its secret once', async () => {
    await page.goto('/integrations');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Key name').fill('CI key');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secret = await page.getByRole('textbox', { name: 'API key' }).inputValue();
    expect(secret).toMatch(/^tj_live_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('rowheader', { name: 'CI key' }).waitFor();
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await page.getByRole('rowheader', { name: 'CI key' }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('imports, edits and publishes a pack', async () => {
    await page.goto('/packs');
    await page.getByText('No packs yet').waitFor();
    await page.getByRole('button', { name: 'Import pack' }).click();
    await page.getByLabel('Pack JSON').fill(readFileSync('examples/packs/support-triage.json', 'utf8'));
    await page.getByRole('dialog').getByLabel('Name').fill('Support triage');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.waitForURL(/\/packs\/[0-9a-f-]{36}$/);
    ids.packId = page.url().split('/').at(-1);
    // A refused save puts the server's issue on the field its path names (questions.0.id).
    const firstId = page.getByLabel('Question ID').first();
    const id = await firstId.inputValue();
    await firstId.fill('has space');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await firstId.and(page.locator('[aria-invalid="true"]')).waitFor();
    await firstId.fill(id);
    const firstName = page.getByLabel('Question name').first();
    await firstName.fill(`${await firstName.inputValue()} (edited)`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('All changes saved').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Confirm publish' }).click();
    // The confirmation closes once the draft is published.
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByRole('cell', { name: 'Live', exact: true }).waitFor();
  });

  it('judges a ticket in the playground and shows the redacted ticket', async () => {
    await page.goto('/playground');
    await page.getByRole('combobox', { name: 'Pack' }).click();
    await page.getByRole('option', { name: 'Support triage' }).click();
    await page.getByLabel('Subject').fill('Charged twice');
    await page
      .getByLabel('Customer message')
      .fill('Refund to jane.doe@example.com please, I was charged twice');
    await page.getByRole('button', { name: 'Judge' }).click();
    await page
      .getByRole('region', { name: 'Redacted ticket' })
      .getByText(/\[EMAIL\]/)
      .waitFor();
    await page.getByLabel(/^Decision: /).waitFor();
    expect(gateway.calls).toBeGreaterThan(0);
    // The result, drawn below the form, takes focus; the pack derives a department and a priority
    // but no tags, so there is no Tags line.
    await page.locator('#judge-result-title:focus').waitFor();
    const result = page.getByRole('region', { name: 'Result' });
    await result.getByText('Department', { exact: true }).waitFor();
    expect(await result.getByText('Tags', { exact: true }).count()).toBe(0);
    await result.getByText('Version 1 (live)', { exact: true }).waitFor();
    await expectAccessible(page, 'playground with a result');
  });

  it('labels an evaluation from the review queue', async () => {
    await page.goto('/reviews');
    await page.getByRole('link').filter({ hasText: 'Charged twice' }).first().click();
    await page.waitForURL(/\/evaluations\//);
    ids.evaluationId = new URL(page.url()).pathname.split('/').at(-1);
    const question = page.getByRole('region', { name: /^Department/ });
    await question.getByRole('button', { name: 'Agree' }).click();
    await question.getByText('Agrees with model').waitFor();
    await question.getByRole('button', { name: 'Delete label' }).waitFor();
    // Calibration names the live version by its number, not its id.
    await page.goto(`/calibration?packId=${ids.packId}`);
    await page.getByText(/^Version 1 \(live\), 1 labels/).waitFor();
  });

  it('refuses a CSV with a bad line, then takes a good one', async () => {
    await page.goto('/datasets');
    await page.getByLabel('Dataset name').fill('Last week');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.waitForURL(/\/datasets\/[0-9a-f-]{36}$/);
    ids.datasetId = page.url().split('/').at(-1);
    const upload = page.getByLabel('Upload file');
    await upload.setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(BAD_CSV) });
    const refusal = page.getByRole('alert').filter({ hasText: 'Upload refused' });
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/line 3/i);
    await upload.setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(GOOD_CSV) });
    await page
      .getByText(/charged twice for my subscription/)
      .first()
      .waitFor();
  });

  it('runs a simulation to completion, watching its progress bar', async () => {
    await page.goto('/simulations');
    await page.getByRole('combobox', { name: 'Dataset' }).click();
    await page.getByRole('option', { name: 'Last week' }).click();
    await page.getByRole('combobox', { name: 'Pack' }).click();
    await page.getByRole('option', { name: 'Support triage' }).click();
    await page.getByLabel('Name', { exact: true }).fill('  Baseline run ');
    await page.getByRole('button', { name: 'Start simulation' }).click();
    await page.waitForURL(/\/simulations\/[0-9a-f-]{36}/);
    ids.simulationId = page.url().split('/').at(-1);
    await page.getByRole('progressbar').first().waitFor();
    await page.getByText(/3 of 3 tickets/).waitFor({ timeout: 30_000 });
    // A named simulation is called by its name, and its results name each ticket and its answers.
    await page.getByRole('heading', { level: 2, name: 'Baseline run' }).waitFor();
    await page.getByText('Support triage (Version 1 (live)) on Last week').waitFor();
    await page.getByRole('rowheader', { name: 'Charged twice' }).waitFor();
    await page.getByRole('columnheader', { name: 'Department' }).waitFor();
    expect(await page.getByRole('cell', { name: 'billing', exact: true }).count()).toBe(3);
    await page.goto('/simulations');
    await page.getByRole('link', { name: 'Baseline run' }).waitFor();
  });

  it('starts a simulation with a version published a moment ago', async () => {
    // The simulation form's pack list is read first, then the pack is published without leaving the
    // app: the form must know the new live version at once, not after the list's stale time.
    const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
    await page.goto('/simulations');
    await page.getByRole('combobox', { name: 'Pack' }).click();
    await page.getByRole('option', { name: 'Support triage' }).waitFor();
    await page.keyboard.press('Escape');
    await nav('Packs').click();
    await page.getByRole('link', { name: 'Support triage' }).click();
    const firstName = page.getByLabel('Question name').first();
    await firstName.fill(`${await firstName.inputValue()} again`);
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('All changes saved').waitFor();
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Confirm publish' }).click();
    await page.getByText('Draft published').waitFor();
    await nav('Simulations').click();
    await page.getByRole('combobox', { name: 'Dataset' }).click();
    await page.getByRole('option', { name: 'Last week' }).click();
    await page.getByRole('combobox', { name: 'Pack' }).click();
    await page.getByRole('option', { name: 'Support triage' }).click();
    const version = page.getByRole('combobox', { name: 'Version' });
    let chosen = '';
    for (let tries = 0; tries < 50 && !chosen.startsWith('Version 2 (live)'); tries++) {
      chosen = await version.inputValue();
      if (!chosen.startsWith('Version 2 (live)')) await page.waitForTimeout(100);
    }
    expect(chosen).toMatch(/^Version 2 \(live\)/);
    // This run's model routes every ticket elsewhere, so the comparison below has changes to list.
    gateway.set({ kind: 'answer', choose: { department: 'technical' } });
    await page.getByRole('button', { name: 'Start simulation' }).click();
    await page.waitForURL(/\/simulations\/[0-9a-f-]{36}/);
    const secondId = page.url().split('/').at(-1)!;
    const simulation = (await (await page.request.get(`/api/simulations/${secondId}`)).json()) as {
      packVersionId: string;
    };
    const pack = (await (await page.request.get(`/api/packs/${ids.packId}`)).json()) as {
      liveVersionId: string;
    };
    expect(simulation.packVersionId).toBe(pack.liveVersionId);
    await page.getByText(/3 of 3 tickets/).waitFor({ timeout: 30_000 });
    gateway.set({ kind: 'answer' });

    // The comparison renders below the results: when it is ready it is scrolled to and focused, and
    // it lists each changed ticket with its answer before and after.
    await page.goto(`/simulations/${ids.simulationId}?compare=${secondId}`);
    const comparison = page.getByRole('region', { name: 'Comparison' });
    await comparison.getByRole('heading', { name: 'Changed tickets' }).waitFor({ timeout: 30_000 });
    await page.locator('#comparison-heading:focus').waitFor();
    expect(await comparison.getByRole('rowheader', { name: 'Charged twice' }).count()).toBe(1);
    expect(await comparison.getByText(/^Department.*: billing → technical$/).count()).toBe(3);
    const heading = await comparison.getByRole('heading', { name: 'Comparison' }).boundingBox();
    expect(heading!.y).toBeGreaterThanOrEqual(0);
    expect(heading!.y).toBeLessThan(page.viewportSize()!.height);
  });

  it('draws the dashboard with the day’s judgments', async () => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    await page.locator('.recharts-surface').first().waitFor();
  });

  it('keeps the first page under 300 kB of gzipped JavaScript', async () => {
    const fresh = await newContext(browser, api.url);
    await fresh.addCookies(await context.cookies());
    const first = await fresh.newPage();
    const scripts: Promise<number>[] = [];
    first.on('response', (response) => {
      if (response.request().resourceType() === 'script')
        scripts.push(response.body().then((body) => gzipSync(body).length));
    });
    await first.goto('/');
    await first.getByRole('heading', { name: 'Last 30 days' }).waitFor();
    const total = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThan(10_000);
    expect(total).toBeLessThan(300 * 1024);
    await fresh.close();
  });

  it('shows a second user none of the first user’s data', async () => {
    const other = await newContext(browser, api.url);
    const otherPage = await other.newPage();
    await signUpInBrowser(otherPage, `web-${randomUUID()}@example.com`, PASSWORD);
    for (const route of ['/packs', '/datasets', '/simulations', '/reviews', '/integrations']) {
      await otherPage.goto(route);
      await otherPage.getByRole('heading', { level: 2 }).first().waitFor();
      await otherPage.waitForLoadState('networkidle');
      const text = await otherPage.locator('main').innerText();
      expect({
        route,
        leaks: ['Support triage', 'Last week', 'CI key', 'Charged twice'].filter((s) => text.includes(s)),
      }).toEqual({ route, leaks: [] });
    }
    for (const route of [
      `/packs/${ids.packId}`,
      `/datasets/${ids.datasetId}`,
      `/simulations/${ids.simulationId}`,
    ]) {
      await otherPage.goto(route);
      await otherPage
        .getByText(/not found/i)
        .first()
        .waitFor();
    }
    await other.close();
  });

  it('deletes a pack once its name is typed, and a dataset, each from a confirmation', async () => {
    await page.goto('/packs');
    await page.getByRole('button', { name: 'Import pack' }).click();
    await page.getByLabel('Pack JSON').fill(readFileSync('examples/packs/support-triage.json', 'utf8'));
    await page.getByRole('dialog').getByLabel('Name').fill('Throwaway pack');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.waitForURL(/\/packs\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Delete pack' }).click();
    const confirmDelete = page.getByRole('button', { name: 'Confirm delete' });
    expect(await confirmDelete.isDisabled()).toBe(true);
    // Cancelling forgets what was typed.
    await page.getByLabel('Type the pack name to confirm').fill('Throwaway pack');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete pack' }).click();
    expect(await page.getByLabel('Type the pack name to confirm').inputValue()).toBe('');
    await page.getByLabel('Type the pack name to confirm').fill('Throwaway pack');
    await confirmDelete.click();
    await page.waitForURL(/\/packs$/);
    await page.getByRole('cell', { name: 'Support triage' }).first().waitFor();
    // The notification names it; the list does not.
    await page.getByRole('alert').filter({ hasText: 'Throwaway pack' }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'Throwaway pack' }).count()).toBe(0);

    await page.goto('/datasets');
    await page.getByLabel('Dataset name').fill('Throwaway dataset');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.waitForURL(/\/datasets\/[0-9a-f-]{36}$/);
    await page.getByRole('button', { name: 'Delete dataset' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/datasets$/);
    await page.getByRole('cell', { name: 'Last week' }).first().waitFor();
    expect(await page.getByRole('cell', { name: 'Throwaway dataset' }).count()).toBe(0);
  });

  describe.each([
    ['desktop', 'light'],
    ['desktop', 'dark'],
    ['phone', 'light'],
    ['phone', 'dark'],
  ] as [ViewportName, Scheme][])('every page at %s size in %s mode', (viewport, scheme) => {
    it('is accessible and photographed', async () => {
      const shots = await newContext(browser, api.url, { viewport, scheme });
      await shots.addCookies(await context.cookies());
      const shot = await shots.newPage();
      const pages: [string, string][] = [
        ['dashboard', '/'],
        ['packs', '/packs'],
        ['pack', `/packs/${ids.packId}`],
        ['playground', '/playground'],
        ['reviews', '/reviews'],
        ['evaluation', `/evaluations/${ids.evaluationId}`],
        ['calibration', '/calibration'],
        ['datasets', '/datasets'],
        ['dataset', `/datasets/${ids.datasetId}`],
        ['simulations', '/simulations'],
        ['simulation', `/simulations/${ids.simulationId}`],
        ['integrations', '/integrations'],
      ];
      for (const [name, route] of pages) {
        await shot.goto(route);
        await shot.getByRole('heading', { level: 2 }).first().waitFor();
        await shot.waitForLoadState('networkidle');
        await expectAccessible(shot, `${name} (${viewport}, ${scheme})`);
        await screenshot(shot, `${name}-${viewport}-${scheme}`);
      }
      await shots.close();
      const login = await (await newContext(browser, api.url, { viewport, scheme })).newPage();
      await login.goto('/login');
      await expectAccessible(login, `login (${viewport}, ${scheme})`);
      await screenshot(login, `login-${viewport}-${scheme}`);
      await login.context().close();
    }, 120_000);
  });
});
