import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { startApi, type TestApi } from '../support/api.js';
import { expectAccessible, openSignedIn } from '../support/browser.js';
import { newTenant, PASSWORD, type Client } from '../support/client.js';
import { queryDatabase } from '../support/db.js';
import { createPublishedPack, TICKET, triageDocument } from '../support/packs.js';

/**
 * The Evaluations page: every judgment, counted, searched by external id or subject, filtered by
 * pack and version (kept in the URL), each linking to its evaluation. The API judges with its
 * local model; 52 more rows are inserted directly so the list has a second page.
 */
const PREFIX = `${process.env.REDIS_PREFIX}-evaluations-page`;

describe('the Evaluations page in a browser', () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let keyed: Client;
  const ids: { pack: string; v1: string; v2: string; refund: string; login: string } = {
    pack: '',
    v1: '',
    v2: '',
    refund: '',
    login: '',
  };

  const count = () => page.getByText(/^[\d,]+\+? evaluations?$/);
  const search = async (text: string) => {
    await page.getByRole('textbox', { name: 'Search' }).fill(text);
    await page.getByRole('textbox', { name: 'Search' }).press('Enter');
  };
  const pick = async (label: string, option: string | RegExp) => {
    await page.getByRole('combobox', { name: label, exact: true }).click();
    await page.getByRole('option', { name: option }).click();
  };

  beforeAll(async () => {
    api = await startApi({ REDIS_PREFIX: PREFIX, WEB_ROOT: 'dist/web' });
    const tenant = await newTenant(api.url);
    keyed = tenant.keyed;
    const pack = await createPublishedPack(keyed, triageDocument(), 'Search pack');
    ids.pack = pack.id;
    ids.v1 = pack.liveVersionId;
    const judge = async (externalId: string, subject: string) => {
      const res = await keyed.post('/api/judge', {
        packId: pack.id,
        ticket: { ...TICKET, externalId, subject },
      });
      if (res.status !== 200) throw new Error(`judge failed: ${res.status}`);
      return res.body.evaluationId as string;
    };
    ids.refund = await judge('ORD-1001', 'Refund for a double charge');
    const document = triageDocument();
    document.questions[0].instructions = 'Route it.';
    await keyed.patch(`/api/packs/${pack.id}`, { document });
    ids.v2 = (await keyed.post(`/api/packs/${pack.id}/publish`)).body.liveVersionId;
    ids.login = await judge('ORD-2002', 'Login page is broken');
    // 52 older live rows and one playground row, as the API stores them.
    await queryDatabase(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                latency_ms, input_tokens, output_tokens, created_at)
       SELECT gen_random_uuid(), $1, $2, $3, CASE WHEN i = 0 THEN 'playground' ELSE 'api' END, 'accept',
              jsonb_build_object('subject', CASE WHEN i = 0 THEN 'Playground try' ELSE 'Bulk ticket ' || i END,
                                 'customerMessage', 'm'),
              '{"status":"accept","answers":{},"reviewReasons":[],"modelId":"m","latencyMs":1}', 'm', 1, 1, 1,
              now() - interval '1 day' - i * interval '1 minute'
         FROM generate_series(0, 52) AS i`,
      [tenant.user.id, pack.id, ids.v2],
    );
    ({ browser, page } = await openSignedIn(api.url, tenant.user.email, PASSWORD));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('lists live evaluations newest first, counted, each subject linking to its evaluation', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Evaluations', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/evaluations');
    await count().filter({ hasText: '54 evaluations' }).waitFor();
    const first = page.getByRole('rowheader').first();
    expect(await first.textContent()).toBe('Login page is broken');
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: 'Login page is broken' }) });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      expect.any(String),
      'ORD-2002',
      'Search pack',
      'Version 2 (live)',
      expect.stringMatching(/^(accept|review|reject)$/),
      'API',
    ]);
    expect(await page.getByRole('rowheader', { name: 'Playground try' }).count()).toBe(0);
    expect(await page.getByRole('rowheader').count()).toBe(50);
    await page.getByRole('button', { name: 'Load more' }).click();
    await page.getByText('54 shown, end of the list').waitFor();
    await expectAccessible(page, 'evaluations');
  });

  it('searches by external id and by subject words, and keeps the search in the URL', async () => {
    await search('ORD-1');
    await count()
      .filter({ hasText: /^1 evaluation$/ })
      .waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('ORD-1');
    expect(await page.getByRole('rowheader').allTextContents()).toEqual(['Refund for a double charge']);
    await search('login bro');
    await page.getByRole('rowheader', { name: 'Login page is broken' }).waitFor();
    expect(await page.getByRole('rowheader').count()).toBe(1);
    await page.reload();
    await page.getByRole('rowheader', { name: 'Login page is broken' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Search' }).inputValue()).toBe('login bro');
    await search('nothing like it');
    await page.getByText('No evaluations').waitFor();
    await search('');
    await count().filter({ hasText: '54 evaluations' }).waitFor();
  });

  it('filters by pack and version, orders oldest first, and links the CSV export to the same filters', async () => {
    await pick('Pack', /^Search pack$/);
    await pick('Version', /^Version 1 \(published/);
    await count()
      .filter({ hasText: /^1 evaluation$/ })
      .waitFor();
    expect(await page.getByRole('rowheader').allTextContents()).toEqual(['Refund for a double charge']);
    const params = new URL(page.url()).searchParams;
    expect([params.get('packId'), params.get('packVersionId')]).toEqual([ids.pack, ids.v1]);
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toBe(
      `/api/evaluations/export?packId=${ids.pack}&packVersionId=${ids.v1}&source=api&source=webhook&source=mcp`,
    );
    await pick('Version', /^Version 2 \(live\)$/);
    await count().filter({ hasText: '53 evaluations' }).waitFor();
    await page.getByText('Oldest first').click();
    await page.getByRole('rowheader', { name: 'Bulk ticket 52' }).waitFor();
    expect(await page.getByRole('rowheader').first().textContent()).toBe('Bulk ticket 52');
    expect(new URL(page.url()).searchParams.get('order')).toBe('oldest');
    expect(await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toContain(
      '&order=oldest',
    );
    await expectAccessible(page, 'evaluations, filtered');
  });

  it('shows the playground and simulations with the switch, and opens an evaluation', async () => {
    await page.goto('/evaluations');
    // The switch is controlled by the URL: its state follows once the URL has changed.
    await page.getByRole('switch', { name: 'Include playground and simulations' }).click();
    await page.waitForURL(/experiments=true/);
    await count().filter({ hasText: '55 evaluations' }).waitFor();
    await search('playground');
    await page.getByRole('rowheader', { name: 'Playground try' }).waitFor();
    await page.goto('/evaluations');
    await page.getByRole('link', { name: 'Refund for a double charge' }).click();
    await page.waitForURL((url) => url.pathname === `/evaluations/${ids.refund}`);
    await page.getByText('Refund for a double charge').first().waitFor();
  });
});
