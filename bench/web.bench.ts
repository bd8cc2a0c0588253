// `npm run bench:web`: the dashboard in Debian's Chromium for a user with 100,000 evaluations, served
// by the real API (production mode) from the built app. Measures, per load, the time from navigation
// to the chart drawn with the user's data (interactive), cold (empty cache) and warm, and the
// gzipped JavaScript of the first page. Targets: interactive within 1 s; JavaScript under 300 kB.
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../test/support/chromium.js';
import { Client } from '../test/support/client.js';
import { seedEvaluations } from '../test/support/seed-evaluations.js';
import { median } from './harness/load.js';
import { log, runMain } from './harness/log.js';
import { flag, num, readOptions, settingsOf } from './harness/options.js';
import { publish, ROOT, runHeading, table, type Results } from './harness/report.js';
import { BenchRun, createTenant } from './harness/run.js';

const TARGETS = { interactiveMs: 1000, scriptKb: 300 };
const options = readOptions({ rows: num(100_000), runs: num(7), verbose: flag(false) });
const settings = settingsOf(options);

/** In the page: resolves once the dashboard's chart is drawn, with ms since navigation started. */
const CHART_DRAWN = `new Promise((resolve) => {
  const check = () => document.querySelector('.recharts-surface') ? resolve(performance.now()) : requestAnimationFrame(check);
  check();
})`;

/** In the page: when each request started and ended, for `--verbose 1`. */
const WATERFALL = `performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))
  .map((e) => Math.round(e.startTime) + '-' + Math.round(e.responseEnd) + ' ' + e.name.replace(location.origin, ''))
  .join('\\n')`;

interface Load {
  interactiveMs: number;
  scriptGzipBytes: number;
}

interface WebResults extends Results<typeof settings> {
  cold: Load[];
  warm: Load[];
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
  if (options.verbose) log(await page.evaluate<string>(WATERFALL));
  const scriptGzipBytes = (await Promise.all(scripts)).reduce((sum, size) => sum + size, 0);
  await context.close();
  return { interactiveMs, scriptGzipBytes };
}

function render(r: WebResults): string {
  const coldMs = median(r.cold.map((load) => load.interactiveMs));
  const warmMs = median(r.warm.map((load) => load.interactiveMs));
  const slowest = (loads: Load[]) => Math.max(...loads.map((load) => load.interactiveMs)).toFixed(0);
  const kb = r.cold[0].scriptGzipBytes / 1024;
  const verdict = (met: boolean) => (met ? 'met' : 'missed');
  return [
    runHeading(
      r,
      `Chromium (headless), ${r.settings.rows.toLocaleString('en-US')} evaluations for the user over 30 days; ` +
        `the API in production mode; ${r.settings.runs} loads each, medians`,
    ),
    '',
    table(
      ['Load', 'Interactive ms (median)', 'Slowest ms', 'Target'],
      [
        [
          'Cold (empty cache)',
          coldMs.toFixed(0),
          slowest(r.cold),
          `${verdict(coldMs < TARGETS.interactiveMs)} (< ${TARGETS.interactiveMs} ms)`,
        ],
        ['Warm (cached assets)', warmMs.toFixed(0), slowest(r.warm), verdict(warmMs < TARGETS.interactiveMs)],
      ],
    ),
    '',
    `JavaScript of the first page: ${kb.toFixed(0)} kB gzipped (${verdict(kb < TARGETS.scriptKb)}, target < ${TARGETS.scriptKb} kB).`,
  ].join('\n');
}

async function webBenchmark(run: BenchRun): Promise<void> {
  const api = await run.api({ NODE_ENV: 'production', WEB_ROOT: path.join(ROOT, 'dist/web') });
  const tenant = await createTenant(api.url);
  const db = await run.postgres();
  await seedEvaluations(db, { packId: tenant.packId, rows: options.rows, days: 30 });
  await db.query('VACUUM ANALYZE evaluations');
  const session = new Client(api.url);
  const signIn = await session.post('/api/auth/sign-in', { email: tenant.email, password: tenant.password });
  if (signIn.status !== 200 || !session.cookie) throw new Error(`sign-in answered ${signIn.status}`);
  const browser = await launchBrowser();
  run.onClose(() => browser.close());
  await loadDashboard(browser, api.url, session.cookie, false);
  const cold: Load[] = [];
  const warm: Load[] = [];
  for (let round = 0; round < options.runs; round++) {
    cold.push(await loadDashboard(browser, api.url, session.cookie, false));
    warm.push(await loadDashboard(browser, api.url, session.cookie, true));
    log(
      `load ${round + 1}: cold ${cold.at(-1)!.interactiveMs.toFixed(0)} ms, warm ${warm.at(-1)!.interactiveMs.toFixed(0)} ms`,
    );
  }
  const at = new Date().toISOString();
  publish<WebResults>(
    { benchmark: 'web', at, machine: run.machine, settings, cold, warm },
    render,
    options.writeDocs,
  );
}

runMain(() => BenchRun.with('web', options, {}, webBenchmark));
