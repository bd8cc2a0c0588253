import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startApi, type TestApi } from '../support/api.js';
import { Client, PASSWORD, signUp, uniqueEmail, type TestResponse } from '../support/client.js';
import { Browser, hiddenFields } from '../support/mcp-client.js';

describe('accounts and sessions', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('signs up with a normalised email and sets a hardened session cookie', async () => {
    const client = new Client(api.url);
    const email = uniqueEmail('Mixed');
    const res = await client.post('/api/auth/sign-up', {
      email: `  ${email.toUpperCase()} `,
      password: PASSWORD,
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ user: { id: expect.any(String), email: email.toLowerCase() } });
    expect(res.body.user.id).toMatch(/^[0-9a-f-]{36}$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('tj_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    const me = await client.get('/api/auth/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual(res.body);
  });

  it('refuses a taken email, whatever its case, with 409', async () => {
    const email = uniqueEmail();
    await signUp(api.url, email);
    const res = await new Client(api.url).post('/api/auth/sign-up', {
      email: email.toUpperCase(),
      password: PASSWORD,
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'email already registered' });
  });

  it('validates sign-up input with issues naming the field', async () => {
    const client = new Client(api.url);
    const short = await client.post('/api/auth/sign-up', { email: uniqueEmail(), password: 'short' });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('invalid request');
    expect(short.body.issues).toEqual([
      { path: 'password', message: 'password must be at least 8 characters' },
    ]);
    const bad = await client.post('/api/auth/sign-up', {
      email: 'not-an-email',
      password: PASSWORD,
      admin: true,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.issues.map((i: { path: string }) => i.path).sort()).toEqual(['admin', 'email']);
  });

  it('signs in, and answers the same 401 for a wrong password and an unknown email', async () => {
    const email = uniqueEmail();
    await signUp(api.url, email);
    const client = new Client(api.url);
    const ok = await client.post('/api/auth/sign-in', {
      email: ` ${email.toUpperCase()}`,
      password: PASSWORD,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(email);
    expect((await client.get('/api/auth/me')).status).toBe(200);

    const wrongPassword = await new Client(api.url).post('/api/auth/sign-in', {
      email,
      password: 'wrong password',
    });
    const unknownEmail = await new Client(api.url).post('/api/auth/sign-in', {
      email: uniqueEmail(),
      password: PASSWORD,
    });
    for (const res of [wrongPassword, unknownEmail]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'invalid email or password' });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('takes about as long for an unknown email as for a wrong password', async () => {
    const email = uniqueEmail();
    await signUp(api.url, email);
    // The API runs in this process, so its CPU time (argon2's threads included) is what a sign-in
    // costs, measured without the wall clock's waits for a machine busy with other work (a
    // fresh-clone CI run once saw 19 ms against 59 by the clock, with the decoy hash in place).
    const time = async (body: object) => {
      const start = process.cpuUsage();
      await new Client(api.url).post('/api/auth/sign-in', body);
      const { user, system } = process.cpuUsage(start);
      return (user + system) / 1000;
    };
    // Each path once first (its first call compiles code), then four rounds: a request refused by
    // validation (no lookup, no verification) is the floor, and what each path costs above it is
    // its argon2id verification.
    await time({ email, password: 'wrong-warm-up-password' });
    await time({ email: uniqueEmail(), password: PASSWORD });
    const floor: number[] = [];
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      floor.push(await time({ email }));
      known.push(await time({ email, password: `wrong-${i}-password` }));
      unknown.push(await time({ email: uniqueEmail(), password: PASSWORD }));
    }
    const median = (xs: number[]) => {
      const sorted = [...xs].sort((a, b) => a - b);
      return (sorted[1] + sorted[2]) / 2;
    };
    const above = (xs: number[]) => median(xs) - median(floor);
    // Both paths run one argon2id verification; without the decoy hash the unknown path costs
    // little more than the floor.
    expect(above(unknown)).toBeGreaterThan(above(known) / 3);
  });

  it('throttles repeated failed sign-ins for one email with 429', async () => {
    const email = uniqueEmail();
    await signUp(api.url, email);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await new Client(api.url).post('/api/auth/sign-in', { email, password: `guess-${i}-guess` })).status,
      );
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    const blocked = await new Client(api.url).post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual({ error: 'rate limit exceeded' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('checks at most 10 passwords for one email, however many sign-ins arrive at once', async () => {
    const email = uniqueEmail();
    await signUp(api.url, email);
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        new Client(api.url).post('/api/auth/sign-in', { email, password: `parallel-${i}-guess` }),
      ),
    );
    const statuses = attempts.map((res) => res.status).sort();
    expect(statuses).toEqual([...Array(10).fill(401), ...Array(30).fill(429)]);
    for (const res of attempts.filter((r) => r.status === 429))
      expect(res.body).toEqual({ error: 'rate limit exceeded' });
    const correct = await new Client(api.url).post('/api/auth/sign-in', { email, password: PASSWORD });
    expect(correct.status).toBe(429);
  });

  it('gives a successful sign-in its unit back, so it never counts as a failure', async () => {
    const email = uniqueEmail();
    await signUp(api.url, email);
    for (let round = 0; round < 3; round++) {
      const guesses = await Promise.all(
        Array.from({ length: 9 }, (_, i) =>
          new Client(api.url).post('/api/auth/sign-in', { email, password: `round-${round}-${i}` }),
        ),
      );
      expect(guesses.map((res) => res.status)).toEqual(Array(9).fill(401));
      const ok = await new Client(api.url).post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(ok.status).toBe(200);
    }
  });

  it('revokes the session on the server at sign-out', async () => {
    const { client } = await signUp(api.url);
    const stolen = client.cookie;
    const out = await client.post('/api/auth/sign-out');
    expect(out.status).toBe(204);
    const replay = await client.get('/api/auth/me', { cookie: stolen });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ error: 'sign in required' });
  });

  it('answers 401 sign in required without a session, or with a forged cookie', async () => {
    const anonymous = await new Client(api.url).get('/api/auth/me');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ error: 'sign in required' });
    const forged = await new Client(api.url).get('/api/auth/me', { cookie: 'tj_session=abc.def' });
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ error: 'sign in required' });
  });

  it('refuses session-authenticated writes from another origin', async () => {
    const { client } = await signUp(api.url);
    const crossSite = await client.post(
      '/app/keys',
      { name: 'x' },
      { headers: { origin: 'https://evil.example' } },
    );
    expect(crossSite.status).toBe(403);
    expect(crossSite.body).toEqual({ error: 'cross-site request refused' });
    const fetchMetadata = await client.post(
      '/app/keys',
      { name: 'x' },
      { headers: { 'sec-fetch-site': 'cross-site' } },
    );
    expect(fetchMetadata.status).toBe(403);
    const sameOrigin = await client.post('/app/keys', { name: 'x' }, { headers: { origin: api.url } });
    expect(sameOrigin.status).toBe(201);
  });
});

// A separate app, booted after the one above has closed (Passport strategies are process-wide).
describe('sign-in throttling per client IP', () => {
  it('throttles one client IP after 100 failed sign-ins across many emails', async () => {
    // Its own Redis namespace, so the block does not reach the other tests of this run.
    const isolated = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-ip` });
    try {
      const failures = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          new Client(isolated.url).post('/api/auth/sign-in', {
            email: uniqueEmail(`ip${i}`),
            password: PASSWORD,
          }),
        ),
      );
      expect(new Set(failures.map((res) => res.status))).toEqual(new Set([401]));
      const email = uniqueEmail();
      await signUp(isolated.url, email);
      const blocked = await new Client(isolated.url).post('/api/auth/sign-in', { email, password: PASSWORD });
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({ error: 'rate limit exceeded' });
    } finally {
      await isolated.close();
    }
  });
});

describe('sign-in throttling per client IP under parallel requests', () => {
  it('verifies no more failures than the IP has left, however many arrive at once', async () => {
    const isolated = await startApi({ REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-ip-parallel` });
    try {
      const fail = (i: number) =>
        new Client(isolated.url).post('/api/auth/sign-in', {
          email: uniqueEmail(`p${i}`),
          password: PASSWORD,
        });
      for (let i = 0; i < 20; i++) expect((await fail(i)).status).toBe(401);
      const burst = await Promise.all(Array.from({ length: 90 }, (_, i) => fail(100 + i)));
      const statuses = burst.map((res) => res.status).sort();
      expect(statuses).toEqual([...Array(80).fill(401), ...Array(10).fill(429)]);
    } finally {
      await isolated.close();
    }
  });
});

/** A request from a given client address: the APIs below trust X-Forwarded-For (TRUST_PROXY). */
const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

const expectRateLimited = (res: TestResponse, maxSeconds: number) => {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ error: 'rate limit exceeded' });
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(maxSeconds);
};

describe('sign-up throttling per client IP', () => {
  let isolated: TestApi;

  beforeAll(async () => {
    isolated = await startApi({
      REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-signup`,
      SIGN_UP_LIMIT_PER_HOUR: '5',
      TRUST_PROXY: 'true',
    });
  });
  afterAll(async () => {
    await isolated.close();
  });

  it('lets exactly the limit through at once, counting taken emails, and leaves other addresses alone', async () => {
    const taken = uniqueEmail('taken');
    const signUpFrom = (ip: string, email: string) =>
      new Client(isolated.url).post('/api/auth/sign-up', { email, password: PASSWORD }, from(ip));
    expect((await signUpFrom('198.51.100.1', taken)).status).toBe(201);
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        signUpFrom('203.0.113.7', i % 2 ? taken : uniqueEmail(`burst${i}`)),
      ),
    );
    const through = burst.filter((res) => res.status === 201 || res.status === 409);
    expect(through).toHaveLength(5);
    const refused = burst.filter((res) => res.status === 429);
    expect(refused).toHaveLength(7);
    for (const res of refused) expectRateLimited(res, 3600);

    // The /login form's sign-up shares the budget.
    const browser = new Browser();
    const headers = from('203.0.113.7').headers;
    const page = await (await browser.fetch(`${isolated.url}/login`, { headers })).text();
    const form = await browser.fetch(`${isolated.url}/login`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: isolated.url },
      body: new URLSearchParams({
        ...hiddenFields(page),
        email: uniqueEmail(),
        password: PASSWORD,
        action: 'sign-up',
      }).toString(),
    });
    expect(form.status).toBe(429);
    expect(await form.text()).toContain('rate limit exceeded');

    expect((await signUpFrom('203.0.113.8', uniqueEmail())).status).toBe(201);
  });
});

describe('a locked email and its owner', () => {
  let isolated: TestApi;

  beforeAll(async () => {
    isolated = await startApi({
      REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-lockout`,
      TRUST_PROXY: 'true',
    });
  });
  afterAll(async () => {
    await isolated.close();
  });

  const signIn = (ip: string, email: string, password: string) =>
    new Client(isolated.url).post('/api/auth/sign-in', { email, password }, from(ip));

  /** An email with 10 failures from 203.0.113.10: its own budget is spent. */
  async function lockedEmail(): Promise<string> {
    const { user } = await signUp(isolated.url);
    for (let i = 0; i < 10; i++)
      expect((await signIn('203.0.113.10', user.email, `stranger-${i}-guess`)).status).toBe(401);
    return user.email;
  }

  it('lets the owner in from a clean address, after a delay, and never the failing address', async () => {
    const email = await lockedEmail();
    expectRateLimited(await signIn('203.0.113.10', email, PASSWORD), 15 * 60);

    const started = Date.now();
    expect((await signIn('198.51.100.20', email, PASSWORD)).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);

    // The /login form shares the throttle: the owner gets in there too.
    const browser = new Browser();
    const headers = from('198.51.100.21').headers;
    const page = await (await browser.fetch(`${isolated.url}/login`, { headers })).text();
    const form = await browser.fetch(`${isolated.url}/login`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded', origin: isolated.url },
      body: new URLSearchParams({
        ...hiddenFields(page),
        email,
        password: PASSWORD,
        action: 'sign-in',
      }).toString(),
    });
    expect(form.status).toBe(303);

    // The owner's sign-ins did not lift the lock for the failing address.
    expectRateLimited(await signIn('203.0.113.10', email, PASSWORD), 15 * 60);
  });

  it('bounds guessing from fresh addresses by the clean-address budget', async () => {
    const email = await lockedEmail();
    const guesses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signIn(`192.0.2.${i + 1}`, email, `fresh-${i}-guess`)),
    );
    expect(guesses.map((res) => res.status)).toEqual(Array(10).fill(401));
    expectRateLimited(await signIn('192.0.2.100', email, 'one-more-guess'), 15 * 60);
    // Both budgets are spent: even the right password waits for the window, from anywhere.
    expectRateLimited(await signIn('192.0.2.101', email, PASSWORD), 15 * 60);
    expectRateLimited(await signIn('192.0.2.1', email, PASSWORD), 15 * 60);
  });

  it('checks one attempt of a fresh address at a time, however many it sends at once', async () => {
    const email = await lockedEmail();
    const burst = await Promise.all(
      Array.from({ length: 10 }, (_, i) => signIn('198.51.100.30', email, `burst-${i}-guess`)),
    );
    const statuses = burst.map((res) => res.status).sort();
    expect(statuses).toEqual([401, ...Array(9).fill(429)]);
    // That address failed: it is no longer clean for this email, even with the right password.
    expectRateLimited(await signIn('198.51.100.30', email, PASSWORD), 15 * 60);
    expect((await signIn('198.51.100.31', email, PASSWORD)).status).toBe(200);
  });
});
