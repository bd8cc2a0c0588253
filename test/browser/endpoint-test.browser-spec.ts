import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, openSignedIn, screenshot } from '../support/browser.js';
import { newTenant, PASSWORD } from '../support/client.js';
import { Receiver, verifies } from '../support/receiver.js';

/**
 * "Send a test event" on the Integrations page (issue 25, section 4): one click sends a signed
 * endpoint.test request to the saved endpoint and shows the receiver's status and the time; a
 * failing receiver shows as failed. axe on the page with the result shown.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-endpoint-test-page`;

describe('sending a test event from the Integrations page', () => {
  let api: TestApi;
  let receiver: Receiver;
  let browser: Browser;
  let page: Page;
  let secret: string;

  beforeAll(async () => {
    receiver = await new Receiver().start();
    api = await startApi({ REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    const tenant = await newTenant(api.url);
    secret = (await tenant.keyed.post('/api/webhook-endpoints', { url: receiver.url })).body.secret;
    ({ browser, page } = await openSignedIn(api.url, tenant.user.email, PASSWORD));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    await receiver?.close();
  });

  it('shows the status and time of a received test event', async () => {
    await page.goto('/integrations');
    receiver.standing = 204;
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const result = page.getByRole('status').filter({ hasText: 'Test event received' });
    await result.getByText(/^HTTP 204 in \d+ ms$/).waitFor();
    expect(receiver.calls).toHaveLength(1);
    const [call] = receiver.calls;
    expect(call.body.type).toBe('endpoint.test');
    expect(verifies(secret, call.raw, call.headers['x-service-signature'])).toBe(true);
    await expectAccessible(page, 'integrations with a test result');
    await screenshot(page, 'integrations-endpoint-test');
  });

  it('shows a failing receiver as failed, with its status', async () => {
    receiver.next(503);
    await page.getByRole('button', { name: 'Send a test event' }).click();
    const result = page.getByRole('status').filter({ hasText: 'Test event failed' });
    await result.getByText(/^HTTP 503 in \d+ ms$/).waitFor();
    expect(receiver.calls).toHaveLength(2);
    // Not a delivery: the list stays empty.
    await page.getByText('No deliveries yet').waitFor();
    await expectAccessible(page, 'integrations with a failed test');
  });
});
