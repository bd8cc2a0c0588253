// `npm run bench:web`: the dashboard in Debian's Chromium for a user with 100,000 evaluations, served
// by the real API (production mode) from the built app. Measures, per load, the time from navigation
// to the chart drawn with the user's data (interactive), cold (empty cache) and warm, and the
// gzipped JavaScript of the first page. Targets: interactive within 1 s; JavaScript under 300 kB.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { chromium, type Browser } from 'playwright-core';
import { BenchChild } from './child-process.js';
import { writeNamedSection } from './docs-section.js';
import { median } from './load.js';
import { createScratchDatabase, deleteRedisNamespace, dropScratchDatabase } from './scratch-stores.js';
import { seedEvaluations } from './seed-evaluations.js';
import { createTenant } from './tenant.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_BENCH = path.dirname(fileURLToPath(import.meta.url));
const TARGETS = { interactiveMs: 1000, scriptKb: 300 };

const env = process.env;
const ROWS = Number(env.BENCH_ROWS ?? 100_000);
const LOADS = Number(env.BENCH_RUNS ?? 7);
const CHROMIUM = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const databaseServer = env.DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge';
const redisUrl = env.REDIS_URL || 'redis://127.0.0.1:6379';

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** In the page: resolves once the dashboard's chart is drawn, with ms since navigation started. */
const CHART_DRAWN = `new Promise((resolve) => {
  const check = () => document.querySelector('.recharts-surface') ? resolve(performance.now()) : requestAnimationFrame(check);
  check();
})`;

/** In the page: when each request started and ended, for BENCH_VERBOSE=1. */
const WATERFALL = `performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
  .map((e) => Math.round(e.startTime) + '-' + Math.round(e.responseEnd) + ' ' + e.name.replace(location.origin, ''))
  .join('\\n')`;

interface Load {
  interactiveMs: number;
  scriptGzipBytes: number;
}

async function loadDashboard(
  browser: Browser,
  baseURL: string,
  cookie: string,
  warm: boolean,
): Promise<Load> {
  const context = await browser.newContext({ baseURL, viewport: { width: 1280, height: 900 } });
  const [name, value] = cookie.split('=');
  await context.addCookies([{ name, value, url: baseURL }]);
  const page = await context.newPage();
  if (warm) {
    await page.goto('/');
    await page.evaluate(CHART_DRAWN);
  }
  const scripts: Promise<number>[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'script')
      scripts.push(response.body().then((body) => gzipSync(body).length));
  });
  await page.goto('/');
  const interactiveMs = await page.evaluate<number>(CHART_DRAWN);
  if (env.BENCH_VERBOSE === '1') log(await page.evaluate<string>(WATERFALL));
  const scriptGzipBytes = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
  await context.close();
  return { interactiveMs, scriptGzipBytes };
}

async function sessionCookie(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = response.headers.getSetCookie().find((line) => line.startsWith('tj_session='));
  if (response.status !== 200 || !cookie) throw new Error(`sign-in answered ${response.status}`);
  return cookie.split(';')[0];
}

function report(cold: Load[], warm: Load[]): string {
  const coldMs = median(cold.map((load) => load.interactiveMs));
  const warmMs = median(warm.map((load) => load.interactiveMs));
  const kb = cold[0].scriptGzipBytes / 1024;
  const verdict = (met: boolean) => (met ? 'met' : 'missed');
  return [
    `### Latest run (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `Machine: ${os.availableParallelism()} CPUs, Node ${process.version}, Chromium at ${CHROMIUM} (headless). ${ROWS.toLocaleString('en-US')} evaluations for the user over 30 days; the API in production mode; ${LOADS} loads each, medians.`,
    '',
    '| Load | Interactive ms (median) | Slowest ms | Target |',
    '| - | -: | -: | - |',
    `| Cold (empty cache) | ${coldMs.toFixed(0)} | ${Math.max(...cold.map((l) => l.interactiveMs)).toFixed(0)} | ${verdict(coldMs < TARGETS.interactiveMs)} (< ${TARGETS.interactiveMs} ms) |`,
    `| Warm (cached assets) | ${warmMs.toFixed(0)} | ${Math.max(...warm.map((l) => l.interactiveMs)).toFixed(0)} | ${verdict(warmMs < TARGETS.interactiveMs)} |`,
    '',
    `JavaScript of the first page: ${kb.toFixed(0)} kB gzipped (${verdict(kb < TARGETS.scriptKb)}, target < ${TARGETS.scriptKb} kB).`,
  ].join('\n');
}

async function main(): Promise<void> {
  const name = `tj_bench_web_${Date.now()}`;
  const prefix = `tjbench-web-${Date.now()}`;
  const databaseUrl = await createScratchDatabase(databaseServer, name);
  const db = new pg.Client({ connectionString: databaseUrl });
  let api: BenchChild | undefined;
  let browser: Browser | undefined;
  try {
    api = await BenchChild.start('api', path.join(DIST_BENCH, 'serve-api.js'), {
      env: {
        ...env,
        NODE_ENV: 'production',
        SESSION_SECRET: 'bench-session-secret-0123456789abcdef0123456789',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: prefix,
        MIGRATE_ON_START: 'true',
        WEB_ROOT: path.join(ROOT, 'dist/web'),
        LOG_LEVEL: 'silent',
      },
    });
    const account = { email: `bench-${Date.now()}@example.com`, password: 'bench-password-123' };
    const tenant = await createTenant(api.url, account);
    await db.connect();
    const owner = await db.query<{ user_id: string; live_version_id: string }>(
      `SELECT user_id, live_version_id FROM packs WHERE id = $1`,
      [tenant.packId],
    );
    const { user_id: userId, live_version_id: versionId } = owner.rows[0];
    await seedEvaluations(db, { userId, packId: tenant.packId, versionId, rows: ROWS, days: 30 });
    await db.query('VACUUM ANALYZE evaluations');
    const cookie = await sessionCookie(api.url, account.email, account.password);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    await loadDashboard(browser, api.url, cookie, false);
    const cold: Load[] = [];
    const warm: Load[] = [];
    for (let round = 0; round < LOADS; round++) {
      cold.push(await loadDashboard(browser, api.url, cookie, false));
      warm.push(await loadDashboard(browser, api.url, cookie, true));
      log(
        `load ${round + 1}: cold ${cold.at(-1)!.interactiveMs.toFixed(0)} ms, warm ${warm.at(-1)!.interactiveMs.toFixed(0)} ms`,
      );
    }
    const section = report(cold, warm);
    console.log(section);
    if (env.BENCH_WRITE_DOCS !== '0')
      writeNamedSection(path.join(ROOT, 'docs/performance.md'), 'web', section);
  } finally {
    await browser?.close();
    await api?.stop();
    await db.end().catch(() => undefined);
    await dropScratchDatabase(databaseServer, name).catch(() => undefined);
    await deleteRedisNamespace(redisUrl, prefix).catch(() => undefined);
  }
}

await main();
