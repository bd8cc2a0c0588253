import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Redis } from 'ioredis';
import { startApi, type TestApi } from '../support/api.js';
import { PASSWORD, signUp, uniqueEmail } from '../support/client.js';
import { queryDatabase } from '../support/db.js';
import { Browser, hiddenFields } from '../support/mcp-client.js';

/** The /login form under hostile input: each case once answered 500 or let input size a Redis key. */
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

  it('refuses an email or password over the JSON route caps, without a Redis key of their size', async () => {
    const { browser, fields } = await openForm();
    const huge = `${'a'.repeat(500_000)}@example.com`;
    const res = await browser.postForm(`${api.url}/login`, {
      ...fields,
      email: huge,
      password: PASSWORD,
      action: 'sign-in',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('role="alert"');
    expect(html.length).toBeLessThan(20_000);
    const longPassword = await browser.postForm(`${api.url}/login`, {
      ...hiddenFields(html),
      email: uniqueEmail(),
      password: 'p'.repeat(257),
      action: 'sign-in',
    });
    expect(longPassword.status).toBe(400);

    const redis = new Redis(api.config.redisUrl);
    try {
      const keys = await redis.keys(`${api.config.redisPrefix}*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(Math.max(...keys.map((key) => key.length))).toBeLessThan(300);
    } finally {
      redis.disconnect();
    }
  });

  it('builds sign-in throttle keys of one length, whatever the email', async () => {
    const { browser, fields } = await openForm();
    const email = `${'b'.repeat(240)}@example.com`;
    const res = await browser.postForm(`${api.url}/login`, {
      ...fields,
      email,
      password: 'wrong-password',
      action: 'sign-in',
    });
    expect(res.status).toBe(401);
    const redis = new Redis(api.config.redisUrl);
    try {
      const keys = await redis.keys(`${api.config.redisPrefix}:signin:*`);
      expect(keys.some((key) => key.includes('bbbbbbbb'))).toBe(false);
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      redis.disconnect();
    }
  });
});
