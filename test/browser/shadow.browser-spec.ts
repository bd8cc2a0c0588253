import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, fieldError, newContext, openSignedIn, screenshot } from '../support/browser.js';
import { newTenant, PASSWORD, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { candidateDocument, createPublishedPack, fromCandidate, TICKET } from '../support/packs.js';
import type { RunningProcess } from '../support/process.js';
import { startWorker, stopWorker } from '../support/worker.js';
import { useIsolatedDatabase } from '../support/isolated-database.js';

/**
 * Shadow runs in the web app (issue 24, section 1): the pack's Shadow tab starts a run of the draft
 * on all live traffic, a real worker judges the tickets sent to POST /api/judge again, the report
 * fills in (judged count, a flip cell linking to its evaluation), the publish dialog shows the
 * summary first, and the tab stops the run. axe on the tab and on the dialog.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-shadow-page`;

// Its worker draws from every active shadow run of its database: a database of its own.
useIsolatedDatabase('shadow_page');
/** Long enough for the worker's sampling step (200 ms, with its 1 s margin) and a poll (3 s). */
const REPORT_WAIT_MS = 30_000;

describe('shadow runs in a browser', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let worker: RunningProcess;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let keyed: Client;
  let packId: string;
  let runId: string;

  /** The figure under a label of the report's progress ("Judged" → "3"). */
  const figure = (label: string) =>
    page.getByText(label, { exact: true }).locator('xpath=following-sibling::*[1]');

  async function openShadowTab() {
    await page.getByRole('tab', { name: 'Shadow' }).click();
    await page.getByRole('heading', { name: 'Start a shadow run' }).waitFor();
  }

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    worker = await startWorker({
      MODEL_GATEWAY_URL: gateway.url,
      REDIS_PREFIX: PREFIX,
      SHADOW_SAMPLE_MS: '200',
    });
    const tenant = await newTenant(api.url);
    keyed = tenant.keyed;
    packId = (await createPublishedPack(keyed, undefined, 'Shadowed pack')).id;
    expect((await keyed.patch(`/api/packs/${packId}`, { document: candidateDocument() })).status).toBe(200);
    // The live version answers billing and abusive (reject); the candidate technical, not abusive, urgent.
    gateway.route((request) =>
      fromCandidate(request)
        ? { kind: 'answer', choose: { department: 'technical', abusive: false, urgent: true } }
        : undefined,
    );
    ({ browser, context, page } = await openSignedIn(api.url, tenant.user.email, PASSWORD));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    if (worker) await stopWorker(worker);
    await api?.close();
    await gateway?.close();
  });

  it('starts a run of the draft on all live traffic from the Shadow tab', async () => {
    await page.goto(`/packs/${packId}`);
    await openShadowTab();
    await page.getByText('No shadow run yet', { exact: false }).waitFor();
    await page.getByText('Nothing live changes', { exact: false }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Sample rate' }).inputValue()).toBe('10%');
    await expectAccessible(page, 'pack shadow tab, no run');

    // The form converts only: a rate or a cap the server refuses shows its issue at the field.
    const rate = page.getByRole('textbox', { name: 'Sample rate' });
    const cap = page.getByRole('textbox', { name: 'Max judgments' });
    await rate.fill('150');
    await page.getByRole('button', { name: 'Start shadow run' }).click();
    expect(await fieldError(rate)).toContain('sampleRate must be a number from 0 to 1');
    await rate.fill('100');
    await cap.fill('0');
    await page.getByRole('button', { name: 'Start shadow run' }).click();
    expect(await fieldError(cap)).toContain('maxJudgments must be an integer from 1 to');
    expect(await rate.getAttribute('aria-invalid')).not.toBe('true');
    // A rate that is not a number is never sent (no NaN): the field asks for a number.
    await rate.fill('');
    expect(await fieldError(rate)).toContain('Enter a number');
    expect(await page.getByRole('button', { name: 'Start shadow run' }).isDisabled()).toBe(true);
    expect((await keyed.get(`/api/packs/${packId}/shadow-runs`)).body.items).toEqual([]);

    await cap.fill('');
    await rate.fill('100');
    await page.getByRole('button', { name: 'Start shadow run' }).click();
    await page.getByText('Shadow run started').waitFor();
    const runs = (await keyed.get(`/api/packs/${packId}/shadow-runs`)).body.items;
    expect(runs).toEqual([
      expect.objectContaining({ sampleRate: 1, maxJudgments: null, status: 'active', matchesDraft: true }),
    ]);
    runId = runs[0].id;
    // One active run at a time: the form waits for it to stop.
    await page.getByText('A run is active since', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Start shadow run' }).isDisabled()).toBe(true);
    await page.getByRole('cell', { name: 'Draft (frozen)' }).waitFor();
    await page.getByText('Active', { exact: true }).first().waitFor();
  }, 30_000);

  it('fills the report in as live tickets are judged again, with links to their evaluations', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await keyed.post('/api/judge', {
        packId,
        ticket: { ...TICKET, externalId: `shadow-${i}`, subject: `Charged twice ${i}` },
      });
      expect(res.status).toBe(200);
    }
    await figure('Judged').filter({ hasText: /^3$/ }).waitFor({ timeout: REPORT_WAIT_MS });
    expect(await figure('Pending').innerText()).toBe('0');
    expect(await figure('Failed').innerText()).toBe('0');
    await page.getByRole('rowheader', { name: 'reject → accept' }).waitFor();
    await page.getByText('Sent to review: 0% live, 0% shadow.').waitFor();

    const department = page.getByRole('region', { name: 'Answers to department' });
    await department.getByText('3 of 3 answers changed').waitFor();
    await department.getByRole('rowheader', { name: 'billing' }).waitFor();
    await department.getByRole('columnheader', { name: 'technical' }).waitFor();
    const links = department.getByRole('link', { name: /: billing live, technical shadow$/ });
    expect(await links.count()).toBe(3);
    const urgent = page.getByRole('region', { name: 'Answers to urgent' });
    await urgent.getByRole('rowheader', { name: '(none)' }).waitFor();
    await page.getByText('No reviewer labels on these tickets yet.').waitFor();
    await page.getByRole('rowheader', { name: 'Shadow', exact: true }).waitFor();
    await expectAccessible(page, 'pack shadow tab with a report');
    await screenshot(page, 'pack-shadow-tab');

    const href = await links.first().getAttribute('href');
    expect(href).toMatch(/^\/evaluations\/[0-9a-f-]{36}$/);
    const evaluationId = href!.split('/').at(-1);
    expect((await keyed.get(`/api/evaluations/${evaluationId}`)).status).toBe(200);
    await links.first().click();
    await page.waitForURL((url) => url.pathname === href);
    await page.getByRole('heading', { level: 2 }).first().waitFor();
  }, 60_000);

  it('shows the shadow summary first in the publish dialog, and leads to the Shadow tab', async () => {
    await page.goto(`/packs/${packId}`);
    await page.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByRole('dialog', { name: 'Publish the draft?' });
    const summary = dialog.getByRole('region', { name: 'Shadow run of this draft on live traffic' });
    await summary.getByText('3 live tickets judged again by the draft.').waitFor();
    await summary.getByText('Status changes: reject → accept 3.').waitFor();
    await summary.getByText('Sent to review: 0% live → 0% with the draft.').waitFor();
    await summary
      .getByText('Most changed answers: abusive (3 of 3), department (3 of 3), urgent (3 of 3).')
      .waitFor();
    // Before the confirmation's own sentence.
    const text = await dialog.innerText();
    expect(text.indexOf('judged again by the draft')).toBeLessThan(text.indexOf('becomes the live version'));
    await expectAccessible(page, 'publish dialog with a shadow summary');
    await screenshot(page, 'publish-dialog-shadow');

    await summary.getByRole('button', { name: 'Open the full report on the Shadow tab' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Shadow', selected: true }).waitFor();
    await page.getByRole('heading', { name: /^Report of the run started/ }).waitFor();
    // Nothing was published.
    expect((await keyed.get(`/api/packs/${packId}/versions`)).body).toHaveLength(2);
  }, 30_000);

  it('stops the run from the tab, with a confirmation, and keeps its report', async () => {
    await page.getByRole('button', { name: 'Stop run' }).click();
    const dialog = page.getByRole('dialog', { name: 'Stop the shadow run?' });
    await dialog.getByText('The report is kept', { exact: false }).waitFor();
    await expectAccessible(page, 'stop shadow run dialog');
    await dialog.getByRole('button', { name: 'Confirm stop' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Stopped on request').first().waitFor();
    expect((await keyed.get(`/api/shadow-runs/${runId}`)).body).toMatchObject({
      status: 'stopped',
      stopReason: 'requested',
      report: { judged: 3 },
    });
    expect(await figure('Judged').innerText()).toBe('3');
    expect(await page.getByRole('button', { name: 'Start shadow run' }).isEnabled()).toBe(true);
  }, 30_000);

  it('draws the report accessibly on a phone in dark mode', async () => {
    const phone = await newContext(browser, api.url, { viewport: 'phone', scheme: 'dark' });
    await phone.addCookies(await context.cookies());
    const small = await phone.newPage();
    await small.goto(`/packs/${packId}`);
    await small.getByRole('tab', { name: 'Shadow' }).click();
    await small.getByRole('region', { name: 'Answers to department' }).getByRole('link').first().waitFor();
    await expectAccessible(small, 'pack shadow tab (phone, dark)');
    await screenshot(small, 'pack-shadow-tab-phone-dark');
    await phone.close();
  }, 30_000);

  it('says so when a run started elsewhere is already active, and shows that run', async () => {
    const elsewhere = await keyed.post(`/api/packs/${packId}/shadow-runs`, { sampleRate: 0.5 });
    expect(elsewhere.status).toBe(201);
    // The page has not seen it yet: its list is not polled while no run is active.
    await page.getByRole('button', { name: 'Start shadow run' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The shadow run was not started' })
      .getByText('shadow run already active')
      .waitFor();
    await page.getByText('A run is active since', { exact: false }).waitFor();
    await page.getByText('50% of live traffic, no cap', { exact: false }).first().waitFor();
    expect(await page.getByRole('button', { name: 'Start shadow run' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'pack shadow tab, start refused');
    expect((await keyed.post(`/api/shadow-runs/${elsewhere.body.id}/stop`)).status).toBe(200);
  }, 30_000);
});
