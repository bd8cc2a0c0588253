import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, openSignedIn } from '../support/browser.js';
import { PASSWORD } from '../support/client.js';

/**
 * The pack editor keeps edits and versions safe (issue 22, items 4 and 7): leaving with unsaved
 * edits asks first, Publish is not offered for a draft equal to the live version, questions move,
 * a version restores into the draft, compare shows the changed values, and each threshold previews
 * what it would have sent to review. The API judges with its local model; no worker is needed.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-pack-editor`;
const EXAMPLE = readFileSync('examples/packs/support-triage.json', 'utf8');

interface Pack {
  id: string;
  liveVersionId: string | null;
  draftVersionId: string;
  unpublishedChanges: boolean;
  document: { questions: { id: string; name: string }[] };
}

describe('the pack editor in a browser', () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let packId = '';

  const nav = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true });
  const readPack = async (): Promise<Pack> =>
    (await (await page.request.get(`/api/packs/${packId}`)).json()) as Pack;
  const publishButton = () => page.getByRole('button', { name: 'Publish', exact: true });

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    ({ browser, page } = await openSignedIn(api.url, `editor-${randomUUID()}@example.com`, PASSWORD, {
      signUp: true,
    }));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('imports and publishes a pack, then does not offer to publish the identical draft', async () => {
    await page.goto('/packs');
    await page.getByRole('button', { name: 'Import pack' }).click();
    await page.getByLabel('Pack JSON').fill(EXAMPLE);
    await page.getByRole('dialog').getByLabel('Name').fill('Editor pack');
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.waitForURL(/\/packs\/[0-9a-f-]{36}$/);
    packId = page.url().split('/').at(-1)!;
    // The Save and Publish bar stays in view at the bottom of the editor.
    const bar = page.getByRole('region', { name: 'Save and publish' });
    // Runs in the page; this file is type-checked without the DOM library.
    const position = await bar.evaluate(
      (element) =>
        (globalThis as unknown as { getComputedStyle(e: unknown): { position: string } }).getComputedStyle(
          element,
        ).position,
    );
    expect(position).toBe('sticky');
    expect(await publishButton().isEnabled()).toBe(true);
    await publishButton().click();
    await page.getByRole('button', { name: 'Confirm publish' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByText('Nothing to publish: the saved draft is the same as the live version.').waitFor();
    expect(await publishButton().isDisabled()).toBe(true);
    expect((await readPack()).unpublishedChanges).toBe(false);
    await expectAccessible(page, 'pack editor, nothing to publish');
  });

  it('asks before leaving with unsaved edits: Stay keeps them, Leave drops them', async () => {
    const firstName = page.getByLabel('Question name').first();
    await firstName.fill('Department (unsaved)');
    await page.getByText('Unsaved changes').waitFor();
    await nav('Dashboard').click();
    const modal = page.getByRole('dialog', { name: 'Leave without saving?' });
    await modal.waitFor();
    await expectAccessible(page, 'leave without saving');
    await modal.getByRole('button', { name: 'Stay' }).click();
    await modal.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/packs/${packId}`);
    expect(await firstName.inputValue()).toBe('Department (unsaved)');
    // Tabs are not navigations: the edit survives a look at the versions.
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByRole('tab', { name: 'Draft' }).click();
    expect(await firstName.inputValue()).toBe('Department (unsaved)');
    await nav('Dashboard').click();
    await modal.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    expect((await readPack()).document.questions[0].name).toBe('Department');
  });

  it('navigates freely once the edits are saved', async () => {
    await page.goto(`/packs/${packId}`);
    const firstName = page.getByLabel('Question name').first();
    await firstName.fill('Department (saved)');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('All changes saved').waitFor();
    expect(await publishButton().isEnabled()).toBe(true);
    await nav('Dashboard').click();
    await page.waitForURL((url) => url.pathname === '/');
    expect(await page.getByRole('dialog').count()).toBe(0);
  });

  it('moves a question down and saves the new order', async () => {
    await page.goto(`/packs/${packId}`);
    const names = page.getByLabel('Question name');
    expect([await names.nth(0).inputValue(), await names.nth(1).inputValue()]).toEqual([
      'Department (saved)',
      'Priority',
    ]);
    expect(await page.getByRole('button', { name: 'Move up question 1' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Move down question 1' }).click();
    expect([await names.nth(0).inputValue(), await names.nth(1).inputValue()]).toEqual([
      'Priority',
      'Department (saved)',
    ]);
    await page.getByRole('button', { name: 'Move up question 2' }).click();
    await page.getByRole('button', { name: 'Move down question 1' }).click();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByText('All changes saved').waitFor();
    expect((await readPack()).document.questions.slice(0, 2).map((q) => q.id)).toEqual([
      'priority',
      'department',
    ]);
  });

  it('shows each changed value in Compare', async () => {
    await page.getByRole('tab', { name: 'Compare' }).click();
    const table = page.getByRole('table', { name: 'Changed values of department' });
    await table.waitFor();
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'name' }) });
    expect(await row.locator('del').innerText()).toBe('Department');
    expect(await row.locator('ins').innerText()).toBe('Department (saved)');
    await expectAccessible(page, 'compare with changed values');
  });

  it('publishes, then restores version 1 into the draft after a confirmation', async () => {
    await page.getByRole('tab', { name: 'Draft' }).click();
    await publishButton().click();
    await page.getByRole('button', { name: 'Confirm publish' }).click();
    await page.getByText('Nothing to publish').waitFor();
    const published = await readPack();
    await page.getByRole('tab', { name: 'Versions' }).click();
    await page.getByRole('button', { name: 'Restore into draft: version 1' }).waitFor();
    await expectAccessible(page, 'versions with rollback');
    await page.getByRole('button', { name: 'Restore into draft: version 1' }).click();
    await page.getByRole('dialog', { name: 'Restore version 1 into the draft?' }).waitFor();
    await page.getByRole('button', { name: 'Confirm restore' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    // The draft tab shows the restored document; the live version is untouched until published.
    await page.getByRole('tabpanel', { name: 'Draft' }).waitFor();
    expect(await page.getByLabel('Question name').first().inputValue()).toBe('Department');
    const restored = await readPack();
    expect(restored.liveVersionId).toBe(published.liveVersionId);
    expect(restored.draftVersionId).toBe(published.draftVersionId);
    expect(restored.document).toEqual(JSON.parse(EXAMPLE).document);
    expect(await publishButton().isEnabled()).toBe(true);
  });

  it('previews what a threshold would have sent to review over the last 30 days', async () => {
    const key = (await (await page.request.post('/app/keys', { data: { name: 'preview' } })).json()) as {
      secret: string;
    };
    const ticket = { subject: 'Charged twice', customerMessage: 'I was charged twice, refund please' };
    for (let i = 0; i < 3; i++) {
      const res = await page.request.post('/api/judge', {
        headers: { 'x-api-key': key.secret },
        data: { packId, ticket },
      });
      expect(res.status()).toBe(200);
    }
    await page.reload();
    const threshold = page.getByLabel('Minimum selected probability').first();
    await threshold.fill('1');
    const preview = page.getByTestId('threshold-preview').first();
    await preview
      .getByText('At 1, this question would have sent 100% of the last 30 days to review')
      .waitFor();
    expect(await preview.innerText()).toContain('(3 of 3 live evaluations)');
    await threshold.fill('0');
    await preview.getByText('At 0, this question would have sent 0% of the last 30 days').waitFor();
    // Which question ids the preview takes is the API's rule: one it refuses shows no preview.
    const countPreviews = (count: number) =>
      page.waitForFunction(
        `document.querySelectorAll('[data-testid="threshold-preview"]').length === ${count}`,
      );
    const previews = await page.getByTestId('threshold-preview').count();
    const questionId = page.getByLabel('Question ID').first();
    const savedId = await questionId.inputValue();
    await questionId.fill('not an id!');
    await countPreviews(previews - 1);
    await questionId.fill(savedId);
    await countPreviews(previews);
    await preview.getByText('At 0, this question would have sent 0% of the last 30 days').waitFor();
    // A new question starts at the default for its type and size, explained beside it.
    await page.getByRole('button', { name: 'Add score question' }).click();
    const last = page.getByLabel('Minimum selected probability').last();
    expect(await last.inputValue()).toBe('0.4');
    await page.getByText('Default for 5 possible answers: 0.4').last().waitFor();
  });
});
