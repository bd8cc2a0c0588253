import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import { queryDatabase } from '../support/db.js';
import { Browser, hiddenFields } from '../support/mcp-client.js';

/** The /login form under hostile input: each case once answered 500. */
describe('the /login form under hostile input', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  /** A browser holding the form's CSRF token, and the form's hidden fields. */
  async function openForm(path = '/login'): Promise<{ browser: Browser; fields: Record<string, string> }> {
    const browser = new Browser();
    const page = await (await browser.fetch(`${api.url}${path}`)).text();
    return { browser, fields: hiddenFields(page) };
  }

  async function sessionCount(userId: string): Promise<number> {
    const [row] = await queryDatabase<{ n: number }>(
      'SELECT count(*)::int AS n FROM sessions WHERE user_id = $1',
      [userId],
    );
    return row.n;
  }

  it('signs in and percent-encodes a next path beyond ASCII, leaving one session', async () => {
    const email = uniqueEmail('next');
    const { user } = await signUp(api.url, email);
    const { browser, fields } = await openForm('/login?next=%2F%E2%82%AC');
    expect(fields.next).toBe('/%E2%82%AC');
    const signedIn = await browser.postForm(`${api.url}/login`, {
      ...fields,
      next: '/€?q=é',
      email,
      password: PASSWORD,
      action: 'sign-in',
    });
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.get('location')).toBe('/%E2%82%AC?q=%C3%A9');
    expect(signedIn.headers.getSetCookie().some((cookie) => cookie.startsWith('tj_session='))).toBe(true);
    // The sign-up session and this one, both in use: none orphaned by a failed answer.
    expect(await sessionCount(user.id)).toBe(2);

    const again = await browser.fetch(`${api.url}/login?next=%2F%E2%82%AC`);
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/%E2%82%AC');
  });
});
