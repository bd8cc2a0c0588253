import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { insertAlert } from '../support/alerts.js';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, fieldError, openSignedIn, screenshot } from '../support/browser.js';
import { newTenant, PASSWORD, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

/**
 * Quality alerts in the web app (issue 24, section 2): the dashboard and the pack's Alerts tab list
 * the open alert with its summary and example links, "Acknowledge" acknowledges it, and the tab
 * saves the pack's rules. axe on both pages.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-alerts-page`;
const SUMMARY = 'Planted for a route matrix';

describe('quality alerts in a browser', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let browser: Browser;
  let page: Page;
  let keyed: Client;
  let packId: string;
  let alertId: string;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    const tenant = await newTenant(api.url);
    keyed = tenant.keyed;
    packId = (await createPublishedPack(keyed, undefined, 'Watched pack')).id;
    // One evaluation, so the dashboard shows its figures rather than the new account's first steps.
    await keyed.post('/api/judge', { packId, ticket: TICKET });
    alertId = await insertAlert(packId);
    ({ browser, page } = await openSignedIn(api.url, tenant.user.email, PASSWORD));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api.close();
    await gateway.close();
  });

  it('shows the open alert on the dashboard, with a link to its pack', async () => {
    await page.goto('/');
    const alert = page.getByRole('article', { name: 'Gateway failures' });
    await alert.getByText(SUMMARY).waitFor();
    await alert.getByText('open', { exact: true }).waitFor();
    expect(await alert.getByRole('link', { name: `Pack ${packId.slice(0, 8)}` }).getAttribute('href')).toBe(
      `/packs/${packId}`,
    );
    await expectAccessible(page, 'dashboard with an alert');
    await screenshot(page, 'dashboard-alert');
  });

  it('lists the pack’s alert on its Alerts tab, acknowledges it, and saves the rules', async () => {
    await page.goto(`/packs/${packId}`);
    await page.getByRole('tab', { name: 'Alerts' }).click();
    const alert = page.getByRole('article', { name: 'Gateway failures' });
    await alert.getByText(SUMMARY).waitFor();
    await expectAccessible(page, 'pack alerts tab');
    await screenshot(page, 'pack-alerts-tab');

    await alert.getByRole('button', { name: 'Acknowledge' }).click();
    await page.getByText('Alert acknowledged').waitFor();
    await alert.getByText('acknowledged', { exact: true }).waitFor();
    expect((await keyed.get(`/api/alerts?packId=${packId}`)).body).toEqual([
      expect.objectContaining({ id: alertId, status: 'acknowledged' }),
    ]);

    // The windows are the server's: the rules state none, and each alert's summary names them.
    await page.getByText('Each alert’s summary names the windows it compared.', { exact: false }).waitFor();
    const panel = page.getByRole('region', { name: 'Alert rules' });
    expect(await panel.innerText()).not.toMatch(/\d+[ -](day|minute)/);
    await page.getByRole('switch', { name: 'Answer shift' }).click();
    // The bounds are the server's: a value it refuses shows its issue at the field.
    const rate = page.getByRole('textbox', { name: 'Gateway failures: Failure rate' });
    await rate.fill('2');
    await page.getByRole('button', { name: 'Save alert rules' }).click();
    expect(await fieldError(rate)).toContain('threshold must be a number from 0 to 1');
    await rate.fill('0.5');
    await page.getByRole('button', { name: 'Save alert rules' }).click();
    await page.getByText('Alert rules saved').waitFor();
    const saved = (await keyed.get(`/api/packs/${packId}/alert-rules`)).body;
    expect(saved.answerShift.enabled).toBe(false);
    expect(saved.gatewayFailureRate).toEqual({ enabled: true, threshold: 0.5, minCount: 10 });
  }, 60_000);
});
