import { expect } from '@jest/globals';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, BrowserContext, Frame, Locator, Page } from 'playwright-core';

import { launchBrowser } from './chromium.js';

export { CHROMIUM, launchBrowser } from './chromium.js';

export const VIEWPORTS = {
  desktop: { width: 1280, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
export type ViewportName = keyof typeof VIEWPORTS;
export type Scheme = 'light' | 'dark';

/** Where screenshots go: test-results/screenshots, or SCREENSHOTS_DIR (docs/screenshots to refresh the README's). */
export const SCREENSHOTS_DIR = process.env.SCREENSHOTS_DIR ?? 'test-results/screenshots';

export async function newContext(
  browser: Browser,
  baseURL: string,
  { viewport = 'desktop', scheme = 'light' }: { viewport?: ViewportName; scheme?: Scheme } = {},
): Promise<BrowserContext> {
  // bypassCSP: axe-core is injected as an inline script, which the app's CSP refuses.
  const context = await browser.newContext({
    baseURL,
    viewport: VIEWPORTS[viewport],
    colorScheme: scheme,
    bypassCSP: true,
  });
  // Well under Jest's timeout, so a step that cannot happen fails naming its locator.
  context.setDefaultTimeout(10_000);
  return context;
}

/** Fills the server's /login page, as a person would, presses `button` and lands on the app. */
async function throughLoginPage(page: Page, email: string, password: string, button: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: button }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** Signs up through the server's /login page and lands on the app. */
export function signUpInBrowser(page: Page, email: string, password: string): Promise<void> {
  return throughLoginPage(page, email, password, 'Create account');
}

/** Signs in through the server's /login page and lands on the app. */
export function signInInBrowser(page: Page, email: string, password: string): Promise<void> {
  return throughLoginPage(page, email, password, 'Sign in');
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * Chromium, a desktop context in the light scheme on the app at `baseURL`, and a page signed in
 * (or, with `signUp`, signed up) through the /login page: most browser specs' first step.
 */
export async function openSignedIn(
  baseURL: string,
  email: string,
  password: string,
  { signUp = false }: { signUp?: boolean } = {},
): Promise<BrowserSession> {
  const browser = await launchBrowser();
  try {
    const context = await newContext(browser, baseURL);
    const page = await context.newPage();
    await (signUp ? signUpInBrowser : signInInBrowser)(page, email, password);
    return { browser, context, page };
  } catch (error) {
    await browser.close();
    throw error;
  }
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core on the page (or a frame of it) as it stands: no serious or critical violation (WCAG 2.1 A and AA rules). */
export async function expectAccessible(page: Page | Frame, name: string): Promise<void> {
  // A modal or a toast still fading in has text of too little contrast for axe: wait for every
  // animation that ends (spinners never do) to finish, 3 s at most.
  await page.evaluate(`Promise.race([
    Promise.all(document.getAnimations()
      .filter((animation) => animation.effect && animation.effect.getComputedTiming().endTime !== Infinity)
      .map((animation) => animation.finished.catch(() => undefined))),
    new Promise((resolve) => setTimeout(resolve, 3000)),
  ]).then(() => undefined)`);
  await page.addScriptTag({ content: axeSource });
  // A string, evaluated in the page: this file is compiled without the DOM's types.
  const violations = await page.evaluate<AxeViolation[]>(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
       .then((result) => result.violations)`,
  );
  const serious = violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
  expect({ page: name, serious }).toEqual({ page: name, serious: [] });
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), fullPage: true });
}

/**
 * What describes a form field once it shows an error (Mantine marks it invalid and describes it by its
 * description and its error): the texts joined, so a spec checks that it contains the error.
 */
export async function fieldError(field: Locator): Promise<string> {
  await field.and(field.page().locator('[aria-invalid="true"]')).waitFor();
  const describedBy = ((await field.getAttribute('aria-describedby')) ?? '').split(' ').filter(Boolean);
  const texts = await Promise.all(describedBy.map((id) => field.page().locator(`[id="${id}"]`).innerText()));
  return texts.join(' ');
}
