import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { launchBrowser, newContext, signUpInBrowser } from '../support/browser.js';
import { PASSWORD } from '../support/client.js';

/**
 * A first visit as a new user makes it, watching the console and every answer: no error logged, no
 * refusal (401) and no 404 (the favicon), then the frame's polish (toasts, the MCP URL's copy
 * button, the endpoint's inbound setting).
 */
describe('a first visit', () => {
  let api: TestApi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const consoleErrors: string[] = [];
  const failedAnswers: string[] = [];

  beforeAll(async () => {
    api = await startApi({ WEB_ROOT: 'dist/web' });
    browser = await launchBrowser();
    context = await newContext(browser, api.url);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) failedAnswers.push(`${response.status()} ${response.url()}`);
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('goes from / straight to the sign-in page, with no console error and no refused request', async () => {
    await page.goto('/');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(page.url()).searchParams.get('next')).toBe('/');
    await page.getByLabel('Email').waitFor();
    // Chromium asks for the icon after the page loads.
    await page.waitForTimeout(500);
    expect({ consoleErrors, failedAnswers }).toEqual({ consoleErrors: [], failedAnswers: [] });
  });

  it('signs up and loads the app with its icon, still with no console error and no 404', async () => {
    await signUpInBrowser(page, `first-${randomUUID()}@example.com`, PASSWORD);
    await page.getByText('No live evaluations yet').waitFor();
    expect(await page.locator('link[rel="icon"]').getAttribute('href')).toBe('/favicon.svg');
    for (const path of ['/favicon.svg', '/favicon.ico']) {
      const icon = await page.request.get(path);
      expect([path, icon.status(), icon.headers()['content-type']]).toEqual([path, 200, 'image/svg+xml']);
    }
    await page.reload();
    await page.getByText('No live evaluations yet').waitFor();
    await page.waitForTimeout(500);
    expect({ consoleErrors, failedAnswers }).toEqual({ consoleErrors: [], failedAnswers: [] });
  });

  it('shows toasts clear of the header', async () => {
    await page.goto('/datasets');
    await page.getByLabel('Dataset name').fill('Toast check');
    await page.getByRole('button', { name: 'Create dataset' }).click();
    const toast = page.getByText('Dataset created');
    await toast.waitFor();
    const header = (await page.locator('header').first().boundingBox())!;
    const box = (await toast.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(header.y + header.height);
  });

  it("copies the MCP URL with a button, and shows the endpoint's inbound signature setting", async () => {
    await page.goto('/integrations');
    await page.getByRole('button', { name: 'Copy URL' }).click();
    await page.getByText('Copied to the clipboard').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(`${api.url}/mcp`);

    await page.getByLabel('Endpoint URL').fill('https://example.com/hooks/ticket-judge');
    await page.getByLabel('Require signed inbound requests').check();
    await page.getByRole('button', { name: 'Save endpoint' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Inbound requests: a valid X-Service-Signature is required').waitFor();
    expect({ consoleErrors, failedAnswers }).toEqual({ consoleErrors: [], failedAnswers: [] });
  });
});
