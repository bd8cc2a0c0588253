import { describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { startApi } from '../support/api.js';
import { Client } from '../support/client.js';
import { freePort, runNode } from '../support/process.js';

// Each test boots one to three processes; a boot may take runNode's 60 s on a loaded machine
// (Jest runs other process-heavy specs beside this one), so a test gets more than Jest's 30 s.
jest.setTimeout(120_000);

const API = 'dist/apps/api/src/main.js';
const WORKER = 'dist/apps/worker/src/main.js';
const MIGRATE = 'dist/apps/api/src/cli/migrate.js';
const SEED = 'dist/apps/api/src/cli/seed-demo.js';
const RESET_DEMO = 'dist/apps/api/src/cli/reset-demo.js';
const quiet = { NODE_ENV: 'test', LOG_LEVEL: 'info' };

describe('configuration validated at boot', () => {
  it.each([
    ['PORT', 'not-a-port'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['API_RATE_LIMIT_PER_DAY', '0'],
    ['MIGRATE_ON_START', 'perhaps'],
  ])('stops on a malformed %s with one line naming it', async (name, value) => {
    const api = runNode(API, { ...quiet, [name]: value });
    const { code } = await api.exited();
    expect(code).toBe(1);
    const lines = api.output().trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^Invalid configuration: ${name} `));
  });

  it('requires SESSION_SECRET in production, and only warns in development', async () => {
    const production = runNode(API, { ...quiet, NODE_ENV: 'production', SESSION_SECRET: '' });
    expect((await production.exited()).code).toBe(1);
    expect(production.output().trim()).toBe(
      'Invalid configuration: SESSION_SECRET is required when NODE_ENV=production',
    );

    const port = await freePort();
    const development = runNode(API, {
      ...quiet,
      NODE_ENV: 'development',
      SESSION_SECRET: '',
      PORT: String(port),
      MIGRATE_ON_START: 'false',
    });
    try {
      await development.waitFor(/API listening/);
      expect(development.output()).toContain('SESSION_SECRET is not set: using the development default');
      const ready = await new Client(`http://127.0.0.1:${port}`).get('/readyz');
      expect(ready.status).toBe(200);
      // Request log lines carry the request, never its credentials.
      const secret = 'tj_live_' + 'S'.repeat(49);
      await new Client(`http://127.0.0.1:${port}`).get('/api/packs', {
        apiKey: secret,
        headers: { authorization: 'Bearer bearer-secret-123', cookie: 'tj_session=cookie-secret-456' },
      });
      await development.waitFor(/"url":"\/api\/packs"/);
      const logs = development.output();
      expect(logs).toMatch(/"reqId":"[0-9a-f-]{36}"/);
      for (const leaked of [secret, 'bearer-secret-123', 'cookie-secret-456'])
        expect(logs).not.toContain(leaked);
    } finally {
      development.child.kill('SIGTERM');
      await development.exited();
    }
  });
});

describe('npm run migrate', () => {
  it('is idempotent on a migrated database', async () => {
    const migrate = runNode(MIGRATE, quiet);
    expect((await migrate.exited()).code).toBe(0);
    expect(migrate.output()).toContain('[migrate] 0 migration(s) applied');
  });
});

describe('demo seed (npm start, first start)', () => {
  it('creates a demo user with a key and the published sample pack, and prints a curl that judges a ticket', async () => {
    const seed = runNode(SEED, quiet);
    expect((await seed.exited()).code).toBe(0);
    const output = seed.output();
    const key = /API key: +(tj_live_\w+)/.exec(output)?.[1];
    const body = /-d '(.+)'/.exec(output)?.[1];
    expect(key).toBeDefined();
    expect(output).toContain('email:    demo@ticket-judge.local');
    const api = await startApi();
    try {
      const res = await new Client(api.url).withKey(key!).post('/api/judge', JSON.parse(body!));
      expect(res.status).toBe(200);
      expect(res.body.result.modelId).toBe('local-lexical-1');
      expect(res.body.result.derived).toMatchObject({ department: 'billing' });
    } finally {
      await api.close();
    }
    const again = runNode(SEED, quiet);
    expect((await again.exited()).code).toBe(0);
    expect(again.output()).toContain('demo user demo@ticket-judge.local exists');
    expect(again.output()).not.toContain('tj_live_');
  });

  it('npm run demo:reset prints a new password once, which signs in while the API runs; the old one stops working', async () => {
    expect(JSON.parse(readFileSync('package.json', 'utf8')).scripts['demo:reset']).toBe(`node ${RESET_DEMO}`);
    expect((await runNode(SEED, quiet).exited()).code).toBe(0);
    const api = await startApi();
    const signIn = (password: string) =>
      new Client(api.url).post('/api/auth/sign-in', { email: 'demo@ticket-judge.local', password });
    try {
      const passwords: string[] = [];
      for (let i = 0; i < 2; i++) {
        const reset = runNode(RESET_DEMO, quiet);
        expect((await reset.exited()).code).toBe(0);
        const password = /password: +(\S+)/.exec(reset.output())?.[1];
        expect(password).toMatch(/^[\w-]{12}$/);
        expect(reset.output().split(password!)).toHaveLength(2);
        passwords.push(password!);
      }
      expect((await signIn(passwords[1])).status).toBe(200);
      expect((await signIn(passwords[0])).status).toBe(401);
    } finally {
      await api.close();
    }
    const production = runNode(RESET_DEMO, {
      ...quiet,
      NODE_ENV: 'production',
      SESSION_SECRET: 's'.repeat(40),
    });
    expect((await production.exited()).code).toBe(1);
    expect(production.output().trim()).toBe('[demo:reset] refused: NODE_ENV=production has no demo user');
  });

  it('does nothing in production', async () => {
    const seed = runNode(SEED, { ...quiet, NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40) });
    expect((await seed.exited()).code).toBe(0);
    expect(seed.output().trim()).toBe('[seed] skipped: NODE_ENV=production');
  });
});

describe('worker process', () => {
  it('boots, reports ready with Postgres and Redis up, serves health, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const worker = runNode(WORKER, { ...quiet, WORKER_HEALTH_PORT: String(port) });
    try {
      await worker.waitFor(/worker ready/);
      const line = worker
        .output()
        .split('\n')
        .find((l) => l.includes('worker ready'))!;
      expect(JSON.parse(line)).toMatchObject({
        level: 30,
        msg: 'worker ready',
        checks: { database: 'up', redis: 'up' },
      });
      const ready = await new Client(`http://127.0.0.1:${port}`).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
      const metrics = await new Client(`http://127.0.0.1:${port}`).get('/metrics');
      expect(metrics.status).toBe(200);
      expect(metrics.text).toMatch(/^queue_jobs\{queue="simulations",state="waiting"\} \d+$/m);
      expect(metrics.text).toContain('process_cpu_seconds_total');
    } finally {
      worker.child.kill('SIGTERM');
    }
    const { code, signal } = await worker.exited();
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(worker.output()).toMatch(/worker stopping[\s\S]*worker stopped/);
  });

  it('stops with one line naming WORKER_HEALTH_PORT (or PORT for the API) when the port is taken', async () => {
    const port = await freePort();
    const first = runNode(WORKER, { ...quiet, WORKER_HEALTH_PORT: String(port) });
    try {
      await first.waitFor(/worker ready/);
      for (const [script, variable] of [
        [WORKER, 'WORKER_HEALTH_PORT'],
        [API, 'PORT'],
      ]) {
        const second = runNode(script, { ...quiet, [variable]: String(port) });
        const { code } = await second.exited();
        expect(code).toBe(1);
        expect(second.output()).not.toMatch(/EADDRINUSE|\n\s+at /);
        const line = second
          .output()
          .split('\n')
          .find((l) => l.includes('already in use'));
        expect(JSON.parse(line!)).toMatchObject({
          level: 50,
          msg: `${variable}=${port} is already in use on 127.0.0.1: set ${variable} to a free port (each process on one host needs its own)`,
        });
      }
    } finally {
      first.child.kill('SIGTERM');
      await first.exited();
    }
  });

  it('runs the hourly maintenance cleanup (first run at once): expired sessions and idempotency keys go, live ones stay', async () => {
    const db = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await db.connect();
    const userId = randomUUID();
    try {
      await db.query(`INSERT INTO users (id, email, password_hash) VALUES ($1, $2, 'x')`, [
        userId,
        `${userId}@example.com`,
      ]);
      await db.query(
        `INSERT INTO sessions (id, user_id, token_hash, expires_at) VALUES
           ($1, $3, $4, now() - interval '1 minute'), ($2, $3, $5, now() + interval '1 day')`,
        [randomUUID(), randomUUID(), userId, randomUUID(), randomUUID()],
      );
      await db.query(
        `INSERT INTO idempotency_keys (user_id, surface, key, expires_at) VALUES
           ($1, 'judge', 'old', now() - interval '1 minute'), ($1, 'judge', 'fresh', now() + interval '1 day')`,
        [userId],
      );
      // A namespace of its own: the hourly schedule is new there, so its first run is immediate.
      const worker = runNode(WORKER, {
        ...quiet,
        REDIS_PREFIX: `${process.env.REDIS_PREFIX ?? 'tjtest'}-maintenance`,
      });
      try {
        await worker.waitFor(/maintenance cleanup done/);
      } finally {
        worker.child.kill('SIGTERM');
        await worker.exited();
      }
      const sessions = await db.query(`SELECT expires_at > now() AS live FROM sessions WHERE user_id = $1`, [
        userId,
      ]);
      expect(sessions.rows).toEqual([{ live: true }]);
      const keys = await db.query(`SELECT key FROM idempotency_keys WHERE user_id = $1`, [userId]);
      expect(keys.rows).toEqual([{ key: 'fresh' }]);
    } finally {
      await db.query(`DELETE FROM users WHERE id = $1`, [userId]);
      await db.end();
    }
  });

  it('refuses to start with a malformed configuration', async () => {
    const worker = runNode(WORKER, { ...quiet, WORKER_CONCURRENCY: 'lots' });
    expect((await worker.exited()).code).toBe(1);
    expect(worker.output().trim()).toMatch(/^Invalid configuration: WORKER_CONCURRENCY /);
  });
});
