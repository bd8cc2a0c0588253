import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, fieldError, openSignedIn, screenshot } from '../support/browser.js';
import { newTenant, PASSWORD, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

/**
 * Audit sampling in the web app (issue 23, section 1): the pack's Audit tab sets the rate, the
 * Reviews page switches to the audit queue and to the value order, and the evaluation page says
 * "Selected for audit (p = …)". axe on each.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-audit-page`;

describe('audit sampling in a browser', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let browser: Browser;
  let page: Page;
  let keyed: Client;
  let packId: string;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    const tenant = await newTenant(api.url);
    keyed = tenant.keyed;
    packId = (await createPublishedPack(keyed, undefined, 'Audited pack')).id;
    ({ browser, page } = await openSignedIn(api.url, tenant.user.email, PASSWORD));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api.close();
    await gateway.close();
  });

  it('sets the audit rate and strategy on the pack page', async () => {
    await page.goto(`/packs/${packId}`);
    await page.getByRole('tab', { name: 'Audit' }).click();
    await page.getByText('Off: no evaluation is drawn for audit.', { exact: false }).waitFor();
    // The rate's bounds are the server's: a rate it refuses shows its issue at the field.
    const rate = page.getByRole('textbox', { name: 'Audit rate' });
    await rate.fill('150');
    await page.getByRole('button', { name: 'Save audit settings' }).click();
    expect(await fieldError(rate)).toContain('rate must be a number from 0 to 1');
    // The uncertainty draw's floor is the server's: the strategy states no share of its own.
    expect(await page.getByRole('radiogroup', { name: 'Strategy' }).innerText()).not.toMatch(/fifth|\d/);
    await rate.fill('100');
    await page.getByRole('radio', { name: 'Uniform' }).check();
    await page.getByRole('button', { name: 'Save audit settings' }).click();
    await page.getByText('Audit settings saved').waitFor();
    expect((await keyed.get(`/api/packs/${packId}/audit`)).body).toEqual({ rate: 1, strategy: 'uniform' });
    await page
      .getByText('About 100% of automatic decisions are drawn for audit, each with the same chance.')
      .waitFor();
    await expectAccessible(page, 'pack audit tab');
    await screenshot(page, 'pack-audit-tab');
  });

  it('lists the audit queue, orders it by value, and marks a selected evaluation', async () => {
    gateway.set({ kind: 'answer', confidence: 0.95, choose: { department: 'technical', abusive: false } });
    for (let i = 0; i < 2; i++) await keyed.post('/api/judge', { packId, ticket: TICKET });
    gateway.set({ kind: 'answer', confidence: 0.4, choose: { abusive: false } });
    await keyed.post('/api/judge', { packId, ticket: TICKET });

    await page.goto('/reviews');
    // Mantine's segmented control hides its radio inputs behind their labels.
    await page.getByTestId('review-queue').getByText('Audit', { exact: true }).click();
    await page.waitForURL((url) => url.searchParams.get('queue') === 'audit');
    await page.getByText('2 of 2 shown, end of the queue').waitFor();
    await page.getByRole('columnheader', { name: 'Audit p' }).waitFor();
    await expectAccessible(page, 'audit queue');
    await screenshot(page, 'audit-queue');

    await page.getByRole('switch', { name: 'Most valuable first' }).click();
    await page.waitForURL((url) => url.searchParams.get('order') === 'value');
    await page.getByText('2 of 2 shown, end of the queue').waitFor();

    await page.getByRole('link', { name: TICKET.subject }).first().click();
    await page.getByText('Selected for audit (p = 1)').waitFor();
    await page.getByText('Audit queue: 1 of 2').waitFor();
    await expectAccessible(page, 'audited evaluation');
    await screenshot(page, 'audited-evaluation');

    // Back on the review queue, the one evaluation in review is there, also drawn.
    await page.goto('/reviews');
    await page.getByText('1 of 1 shown, end of the queue').waitFor();
  }, 60_000);
});
