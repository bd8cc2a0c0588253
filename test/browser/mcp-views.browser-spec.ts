import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, screenshot } from '../support/browser.js';
import { hostPage, viewHtml } from '../support/mcp-app-host.js';

/**
 * The MCP Apps views (docs/mcp.md, "App views") as a host shows them: each in a sandboxed iframe
 * behind ext-apps' AppBridge, given the host's theme and a tool result as judge_ticket,
 * get_evaluation and get_calibration answer. Needs `npm run build` (dist/mcp-views).
 */
const answers = {
  department: {
    type: 'choice',
    choice: 'billing',
    probabilities: { billing: 0.7, technical: 0.2, sales: 0.1 },
  },
  abusive: { type: 'boolean', probability: 0.1 },
  urgency: { type: 'score', score: 3, probabilities: { '1': 0.1, '2': 0.2, '3': 0.7 } },
};
const result = {
  status: 'review',
  answers,
  reviewReasons: ['department: selected probability 0.7 is below 0.8'],
  modelId: 'judge-model',
  latencyMs: 12,
};
const judged = { evaluationId: 'eval-1', packVersionId: 'version-1', result };
const stored = {
  id: 'eval-1',
  packId: 'pack-1',
  packVersionId: 'version-1',
  redactedTicket: { subject: 'Charged twice', body: 'My card [CARD] was charged twice, call me at [PHONE].' },
  result,
  labels: [],
};
const calibration = {
  packId: 'pack-1',
  versionId: 'version-1',
  targetAgreement: 0.95,
  delta: 0.1,
  questions: [
    {
      questionId: 'department',
      labeled: 40,
      reliability: [
        { from: 0.5, to: 0.6, count: 5, agreement: 0.6 },
        { from: 0.8, to: 0.9, count: 20, agreement: 0.9 },
        { from: 0.9, to: 1, count: 15, agreement: null },
      ],
    },
  ],
};
const toolResult = (structured: object) => ({
  content: [{ type: 'text', text: JSON.stringify(structured) }],
  structuredContent: structured,
});
const DARK = {
  theme: 'dark',
  styles: {
    variables: {
      '--color-background-primary': 'rgb(20, 22, 30)',
      '--color-text-primary': 'rgb(240, 240, 240)',
    },
  },
};

describe('MCP Apps views, in a host', () => {
  let browser: Browser;
  let context: BrowserContext;
  let host: string;

  beforeAll(async () => {
    [browser, host] = await Promise.all([launchBrowser(), hostPage()]);
    context = await browser.newContext({ bypassCSP: true, viewport: { width: 800, height: 900 } });
    context.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  /** Opens the host page with `view` given `structured` as its tool result; returns the view's frame. */
  async function show(view: 'evaluation' | 'calibration', structured: object, hostContext: object) {
    const page = await context.newPage();
    await page.setContent(host);
    await page.waitForFunction('typeof window.startHost === "function"');
    await page.evaluate(`window.toolAnswers.get_evaluation = ${JSON.stringify(toolResult(stored))}`);
    await page.evaluate(([html, result, ctx]) => (globalThis as any).startHost(html, result, ctx), [
      viewHtml(view),
      toolResult(structured),
      hostContext,
    ] as const);
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame()) as Frame;
    return { page, frame };
  }

  const toolCalls = (page: Page) => page.evaluate<any[]>('window.toolCalls');

  it('each view is one self-contained page under 50 kB gzipped', () => {
    for (const view of ['evaluation', 'calibration'] as const) {
      const html = viewHtml(view);
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+stylesheet/);
      expect(gzipSync(html).length).toBeLessThan(50_000);
    }
  });

  it('shows judge_ticket’s evaluation in the host’s dark theme, accessible, and Agree labels it', async () => {
    const { page, frame } = await show('evaluation', judged, DARK);
    await frame.getByRole('heading', { name: 'Decision: review' }).waitFor();
    await frame.getByText('department: selected probability 0.7 is below 0.8').waitFor();
    expect(
      await frame.getByRole('meter', { name: 'Probability of billing' }).getAttribute('aria-valuenow'),
    ).toBe('70');
    expect(await frame.getByRole('meter', { name: 'Probability of yes' }).getAttribute('aria-valuenow')).toBe(
      '10',
    );
    // The redacted ticket, which judge_ticket does not return, is read through the host.
    await frame.getByText('My card [CARD] was charged twice').waitFor();
    expect(await toolCalls(page)).toEqual([
      { name: 'get_evaluation', arguments: { evaluationId: 'eval-1' } },
    ]);
    expect(await frame.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    expect(await frame.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(20, 22, 30)');
    await expectAccessible(frame, 'mcp evaluation view (dark)');
    await screenshot(page, 'mcp-evaluation-dark');

    await frame.getByRole('button', { name: 'Agree' }).first().click();
    await frame.getByText('Label saved for department.').waitFor();
    expect((await toolCalls(page)).at(-1)).toEqual({
      name: 'label_evaluation',
      arguments: {
        evaluationId: 'eval-1',
        questionId: 'department',
        answer: { type: 'choice', choice: 'billing' },
      },
    });
    await page.close();
  });

  it('labels another answer from get_evaluation’s card, light theme', async () => {
    const { page, frame } = await show('evaluation', stored, { theme: 'light' });
    await frame.getByText('My card [CARD] was charged twice').waitFor();
    expect(await toolCalls(page)).toEqual([]);
    await expectAccessible(frame, 'mcp evaluation view (light)');
    // The other answer's form opens only on Other answer.
    expect(await frame.getByRole('button', { name: 'Save label' }).count()).toBe(0);
    await frame.getByRole('button', { name: 'Other answer' }).nth(1).click();
    expect(await frame.getByRole('button', { name: 'Save label' }).count()).toBe(1);
    await frame.getByRole('combobox', { name: 'Other answer for abusive' }).selectOption('yes');
    await frame.getByRole('button', { name: 'Save label' }).click();
    await frame.getByText('Label saved for abusive.').waitFor();
    expect((await toolCalls(page)).at(-1)).toEqual({
      name: 'label_evaluation',
      arguments: {
        evaluationId: 'eval-1',
        questionId: 'abusive',
        answer: { type: 'boolean', probability: 1 },
      },
    });
    await page.close();
  });

  it('shows get_calibration’s reliability chart, accessible in both themes', async () => {
    for (const hostContext of [{ theme: 'light' }, DARK]) {
      const { page, frame } = await show('calibration', calibration, hostContext);
      const chart = frame.getByRole('img', {
        name: /^department: 50%–60% agreed 60% of 5; 80%–90% agreed 90% of 20$/,
      });
      await chart.waitFor();
      expect(await frame.locator('circle').count()).toBe(2);
      await expectAccessible(frame, `mcp calibration view (${hostContext.theme})`);
      await screenshot(page, `mcp-calibration-${hostContext.theme}`);
      await page.close();
    }
  });
});
