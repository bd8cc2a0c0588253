import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, openSignedIn, screenshot } from '../support/browser.js';
import { newTenant, PASSWORD, type Client } from '../support/client.js';
import { startFakeGateway, type FakeGateway } from '../support/fake-gateway.js';
import { createPublishedPack, TICKET } from '../support/packs.js';

/**
 * Quality in the web app (issue 23, sections 4 and 5): the dashboard's Quality card and the
 * Calibration page's guaranteed threshold, before and after the audit labels support one. axe on each.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-quality-page`;

/** One choice question, sent to review below 0.6. */
const DOCUMENT = {
  questions: [
    {
      type: 'choice',
      id: 'department',
      name: 'Department',
      instructions: 'Which team should handle this ticket?',
      criteria: {
        options: [
          { value: 'billing', description: 'Charges, invoices, refunds' },
          { value: 'technical', description: 'Errors and bugs' },
        ],
      },
      review: { minSelectedProbability: 0.6 },
    },
  ],
};

/** At a target of 0.9 and δ = 0.1 the guarantee's walk starts at 75 labels (test/e2e/quality.e2e-spec.ts). */
const FIRST_STRATUM = 75;

describe('quality in a browser', () => {
  let api: TestApi;
  let gateway: FakeGateway;
  let browser: Browser;
  let page: Page;
  let keyed: Client;

  beforeAll(async () => {
    gateway = await startFakeGateway();
    api = await startApi({ MODEL_GATEWAY_URL: gateway.url, REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    const tenant = await newTenant(api.url);
    keyed = tenant.keyed;
    ({ browser, page } = await openSignedIn(api.url, tenant.user.email, PASSWORD));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api.close();
    await gateway.close();
  });

  /** A published pack whose every live evaluation is drawn for audit (π = 1). */
  async function auditedPack(name: string): Promise<string> {
    const pack = await createPublishedPack(keyed, DOCUMENT, name);
    const res = await keyed.put(`/api/packs/${pack.id}/audit`, { rate: 1, strategy: 'uniform' });
    expect(res.status).toBe(200);
    return pack.id;
  }

  /** Judges `count` tickets at 0.9 (automatic decisions) and labels them with `answers` in turn. */
  async function judgeAndLabel(packId: string, answers: string[]): Promise<void> {
    gateway.set({ kind: 'answer', confidence: 0.9, choose: { department: 'billing' } });
    for (const choice of answers) {
      const judged = await keyed.post('/api/judge', { packId, ticket: TICKET });
      expect(judged.status).toBe(200);
      const labeled = await keyed.post(`/api/evaluations/${judged.body.evaluationId}/labels`, {
        questionId: 'department',
        answer: { type: 'choice', choice },
      });
      expect(labeled.status).toBe(201);
    }
  }

  it('shows accuracy with its interval on the dashboard, and no guaranteed threshold yet', async () => {
    const packId = await auditedPack('Few labels');
    await judgeAndLabel(packId, ['billing', 'billing', 'technical']);
    const stats = (await keyed.get('/api/stats')).body;
    const quality = stats.quality.find((pack: { packId: string }) => pack.packId === packId);
    expect(quality.autoDecisionAccuracy).toMatchObject({ labels: 3 });
    expect(quality.auditLabelsForFivePoints).toBeGreaterThan(0);

    await page.goto('/');
    const card = page.getByRole('region', { name: 'Quality' });
    // 2 of 3 agree: 67%, with Wilson's wide interval at n = 3.
    await card.getByText(/^Automatic decisions right: 67% \(\d+–\d+%\)$/).waitFor();
    await card
      .getByText(`About ${quality.auditLabelsForFivePoints} more audit labels for ±5 points`, {
        exact: false,
      })
      .waitFor();
    await card.getByText('From 3 audit labels', { exact: false }).waitFor();
    await expectAccessible(page, 'dashboard quality card');
    await screenshot(page, 'dashboard-quality');

    const report = (await keyed.get(`/api/packs/${packId}/calibration?targetAgreement=0.9`)).body;
    const question = report.questions[0];
    expect(question.guaranteedMinSelectedProbability).toBeNull();
    await page.goto(`/calibration?packId=${packId}&target=0.9`);
    await page.getByText('Guaranteed threshold (δ = 0.1)').waitFor();
    await page
      .getByText(
        question.auditLabelsNeeded === null
          ? 'None: the audit labels do not support one at 90% agreement.'
          : `None yet: about ${question.auditLabelsNeeded} more audit labels.`,
      )
      .waitFor();
    expect(await page.getByRole('button', { name: 'Use guaranteed threshold in draft' }).isDisabled()).toBe(
      true,
    );
    await page.getByText('Point estimate', { exact: true }).waitFor();
    await page.getByText(/^Calibration error: raw \d+(\.\d)?%, calibrated /).waitFor();
    // No map yet (3 labels): the reliability table has no calibrated column.
    const table = page.getByRole('table', { name: 'Reliability table for Department' });
    await table.getByRole('columnheader', { name: 'Observed agreement' }).waitFor();
    expect(await table.getByRole('columnheader', { name: 'Calibrated' }).count()).toBe(0);
    await expectAccessible(page, 'calibration without a guaranteed threshold');
  }, 60_000);

  it('offers the guaranteed threshold once the audit labels support one, and writes it into the draft', async () => {
    const packId = await auditedPack('Enough labels');
    await judgeAndLabel(
      packId,
      Array.from({ length: FIRST_STRATUM }, () => 'billing'),
    );

    // A map from the 75 labels: the reliability table and chart set it beside the observed agreement.
    expect((await keyed.post(`/api/packs/${packId}/calibration/fit`)).status).toBe(200);
    const bin = (await keyed.get(`/api/packs/${packId}/calibration?targetAgreement=0.9`)).body.questions[0]
      .reliability[9];
    expect(bin).toMatchObject({ count: FIRST_STRATUM, agreement: 1, calibrated: expect.any(Number) });

    await page.goto(`/calibration?packId=${packId}&target=0.9`);
    await page.getByText('Guaranteed threshold (δ = 0.1)').waitFor();
    const table = page.getByRole('table', { name: 'Reliability table for Department' });
    await table.getByRole('columnheader', { name: 'Calibrated' }).waitFor();
    const row = table.getByRole('row', { name: /^0\.9–1\.0/ });
    await row
      .getByRole('cell', { name: `${Math.round(bin.calibrated * 1000) / 10}%`, exact: true })
      .waitFor();
    await page.getByText('Calibrated probability (map)').waitFor();
    // Every answer is at 0.9, the threshold: all of them are decided automatically.
    await page.getByText('decides 100% automatically', { exact: false }).waitFor();
    await expectAccessible(page, 'calibration with a guaranteed threshold');
    await screenshot(page, 'calibration-guaranteed');

    await page.getByRole('button', { name: 'Use guaranteed threshold in draft' }).click();
    await page.getByText('Threshold saved to the draft').waitFor();
    const pack = (await keyed.get(`/api/packs/${packId}`)).body;
    expect(pack.document.questions[0].review.minSelectedProbability).toBe(0.9);

    await page.goto('/');
    await page
      .getByRole('region', { name: 'Quality' })
      .getByText(/^Automatic decisions right: 100% \(\d+–100%\)$/)
      .waitFor();
  }, 120_000);
});
