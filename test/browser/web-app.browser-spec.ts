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
import { eventually, startWorker, stopWorker } from '../support/worker.js';

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
  const ids: {
    packId?: string;
    datasetId?: string;
    simulationId?: string;
    evaluationId?: string;
    goldenSimulationId?: string;
  } = {};
  let apiKey = '';

  /** The default Reviews page's total ("1 of 1 shown"); 0 when it shows the empty queue. */
  async function reviewTotal(search = ''): Promise<number> {
    await page.goto(`/reviews${search}`);
    const count = page.getByText(/ of [\d,]+\+? shown/);
    const empty = page.getByText('Nothing to review');
    await count.or(empty).first().waitFor();
    if (await empty.isVisible()) return 0;
    return Number((await count.innerText()).match(/ of ([\d,]+)/)![1].replace(/,/g, ''));
  }

  /** The dashboard's "Evaluations today" (0 for the empty dashboard). */
  async function evaluationsToday(search = ''): Promise<number> {
    await page.goto(`/${search}`);
    const card = page.locator('.mantine-Paper-root').filter({ hasText: 'Evaluations today' }).first();
    const empty = page.getByText(/^No (live )?evaluations yet$/);
    await card.or(empty).first().waitFor();
    if (await empty.isVisible()) return 0;
    return Number((await card.locator('p').nth(1).innerText()).replace(/,/g, ''));
  }

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
    await page.getByText('No live evaluations yet').waitFor();
    await page.getByRole('link', { name: 'Go to Packs' }).waitFor();
  });

  it('creates an API key and shows its secret once', async () => {
    await page.goto('/integrations');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Key name').fill('CI key');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const secret = await page.getByRole('textbox', { name: 'API key' }).inputValue();
    expect(secret).toMatch(/^tj_live_/);
    apiKey = secret;
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

  it('labels an evaluation from the review queue, the playground behind the switch', async () => {
    // Reviews show live traffic by default: the playground's judgment is behind the switch.
    await page.goto('/reviews');
    await page.getByText('Nothing to review').waitFor();
    const experimentsSwitch = page.getByRole('switch', { name: 'Include playground and simulations' });
    expect(await experimentsSwitch.isChecked()).toBe(false);
    // The switch is controlled by the URL: its state follows once the URL has changed.
    await experimentsSwitch.click();
    await page.waitForURL(/experiments=true/);
    await page.getByRole('switch', { name: 'Include playground and simulations', checked: true }).waitFor();
    await page.getByRole('cell', { name: 'Playground' }).first().waitFor();
    await page.getByRole('link').filter({ hasText: 'Charged twice' }).first().click();
    await page.waitForURL(/\/evaluations\/.*experiments=true/);
    ids.evaluationId = new URL(page.url()).pathname.split('/').at(-1);
    // The place in the queue and its controls are in view.
    const queueBar = page.getByRole('navigation', { name: 'Review queue' });
    await queueBar.getByText('Review queue: 1 of 1').waitFor();
    const question = page.getByRole('region', { name: /^Department/ });
    await question.getByRole('button', { name: 'Agree' }).click();
    await question.getByText('Agrees with model').waitFor();
    await question.getByRole('button', { name: 'Delete label' }).waitFor();
    // Then every other question at once.
    await queueBar.getByRole('button', { name: 'Agree with all remaining questions' }).click();
    await page.getByText('Every question has a label.', { exact: false }).waitFor();
    expect(
      await queueBar.getByRole('button', { name: 'Agree with all remaining questions' }).isDisabled(),
    ).toBe(true);
    const evaluation = (await (await page.request.get(`/api/evaluations/${ids.evaluationId}`)).json()) as {
      labels: Array<{ agreement: boolean }>;
      result: { answers: Record<string, unknown> };
    };
    expect(evaluation.labels).toHaveLength(Object.keys(evaluation.result.answers).length);
    expect(evaluation.labels.every((label) => label.agreement)).toBe(true);
    // Calibration names the live version by its number, not its id.
    await page.goto(`/calibration?packId=${ids.packId}`);
    await page.getByText(/^Version 1 \(live\), \d+ labels/).waitFor();
  });

  it('judges a live ticket through the API, which Reviews and the dashboard show by default', async () => {
    gateway.next({ kind: 'answer', confidence: 0.4, choose: { abusive: false } });
    const judged = await fetch(`${api.url}/api/judge`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        packId: ids.packId,
        ticket: { subject: 'Live ticket', customerMessage: 'My invoice shows the wrong amount' },
      }),
    });
    expect(judged.status).toBe(200);
    expect(await reviewTotal()).toBe(1);
    await page.getByRole('cell', { name: 'API', exact: true }).waitFor();
    expect(await evaluationsToday()).toBe(1);
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

  it('runs a simulation to completion, watching its progress bar; live views do not change', async () => {
    const before = { reviews: await reviewTotal(), today: await evaluationsToday() };
    const withExperiments = {
      reviews: await reviewTotal('?experiments=true'),
      today: await evaluationsToday('?experiments=true'),
    };
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

    // The default Reviews page and dashboard count live traffic only: the simulation changes neither.
    expect({ reviews: await reviewTotal(), today: await evaluationsToday() }).toEqual(before);
    // The switch shows the simulation's evaluations (3 judged today, those in review in the queue).
    const simulated = (await (
      await page.request.get(`/api/evaluations?simulationId=${ids.simulationId}&status=review`)
    ).json()) as { items: unknown[] };
    expect(await evaluationsToday('?experiments=true')).toBe(withExperiments.today + 3);
    // The dashboard's switch, turned off again, leaves the URL's default.
    const experimentsSwitch = page.getByRole('switch', { name: 'Include playground and simulations' });
    expect(await experimentsSwitch.isChecked()).toBe(true);
    await experimentsSwitch.click();
    await page.waitForURL((url) => !url.search.includes('experiments'));
    await page.getByRole('switch', { name: 'Include playground and simulations', checked: false }).waitFor();
    expect(await reviewTotal('?experiments=true')).toBe(withExperiments.reviews + simulated.items.length);
  });

  it("fills a pack's CSV template with expected answers, deletes a ticket, and shows a run's agreement", async () => {
    await page.goto('/datasets');
    await page.getByLabel('Dataset name').fill('Golden set');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await page.waitForURL(/\/datasets\/[0-9a-f-]{36}$/);
    await page.getByRole('combobox', { name: 'CSV template for a pack' }).click();
    await page.getByRole('option', { name: 'Support triage' }).click();
    const link = page.getByRole('link', { name: 'Download template' });
    const template = await (await page.request.get((await link.getAttribute('href'))!)).text();
    const header = template.trim().split(',');
    expect(header.slice(0, 4)).toEqual(['externalId', 'subject', 'customerMessage', 'expected:department']);
    // The fake model answers "billing" for the department: G-1 agrees, G-2 does not, G-3 is deleted.
    const row = (id: string, subject: string, department: string) =>
      header.map((column) =>
        column === 'externalId'
          ? id
          : column === 'subject'
            ? subject
            : column === 'customerMessage'
              ? 'Please look into this'
              : column === 'expected:department'
                ? department
                : '',
      );
    const csv = [
      header,
      row('G-1', 'Double charge', 'billing'),
      row('G-2', 'App crashes', 'technical'),
      row('G-3', 'Spare', 'billing'),
    ]
      .map((fields) => fields.join(','))
      .join('\n');
    await page
      .getByLabel('Upload file')
      .setInputFiles({ name: 'golden.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    // The page's one table: the dataset's tickets.
    const tickets = page.getByRole('table');
    await tickets.getByRole('cell', { name: 'G-3', exact: true }).waitFor();
    await tickets.getByRole('cell', { name: 'department: technical' }).waitFor();
    await page.getByRole('button', { name: 'Delete ticket 3 (G-3)' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete ticket' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await tickets.getByRole('cell', { name: 'G-3', exact: true }).waitFor({ state: 'detached' });
    await page.getByText(/^2 tickets · created/).waitFor();

    await page.getByRole('link', { name: 'Run a simulation' }).click();
    await page.getByRole('combobox', { name: 'Pack' }).click();
    await page.getByRole('option', { name: 'Support triage' }).click();
    await page.getByRole('button', { name: 'Start simulation' }).click();
    await page.waitForURL(/\/simulations\/[0-9a-f-]{36}/);
    ids.goldenSimulationId = page.url().split('/').at(-1);
    await page.getByText(/2 of 2 tickets/).waitFor({ timeout: 30_000 });
    const panel = page.getByRole('region', { name: 'Expected answers' });
    const department = panel.getByRole('row', { name: /^department/ });
    await department.getByRole('cell', { name: '50%' }).waitFor();
    expect(await department.getByRole('cell').allInnerTexts()).toEqual(['2', '1', '50%']);
    const disagreeing = panel.getByRole('row').filter({ hasText: 'G-2' });
    await disagreeing.waitFor();
    expect(await disagreeing.getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining(['G-2', 'App crashes', 'department', 'technical', 'billing']),
    );
    expect(await panel.getByRole('row').filter({ hasText: 'G-1' }).count()).toBe(0);
    // The page is checked, not the toast of the run's start laid over it (axe cannot tell the
    // contrast of text over an element that moves in over others).
    const toasts = page.locator('.mantine-Notification-root');
    while ((await toasts.count()) > 0) await toasts.first().waitFor({ state: 'detached', timeout: 15_000 });
    await expectAccessible(page, 'simulation with expected answers');
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
    // The run's own state, not the page's text: while the lazily loaded run page is fetched, the
    // list (with the baseline's "3 of 3 tickets") can still be on screen under the new URL.
    await eventually(async () => {
      const run = (await (await page.request.get(`/api/simulations/${secondId}`)).json()) as {
        status: string;
      };
      return run.status === 'completed' ? run : undefined;
    });
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
        ['evaluations', '/evaluations?experiments=true'],
        ['evaluation', `/evaluations/${ids.evaluationId}`],
        ['calibration', '/calibration'],
        ['datasets', '/datasets'],
        ['dataset', `/datasets/${ids.datasetId}`],
        ['simulations', '/simulations'],
        ['simulation', `/simulations/${ids.simulationId}`],
        ['simulation-expected', `/simulations/${ids.goldenSimulationId}`],
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
