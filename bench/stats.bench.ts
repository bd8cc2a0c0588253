// `npm run bench:stats`: GET /api/stats and GET /api/reviews with 1,000,000 evaluations for one user
// (plus other users' rows). See docs/performance.md for the method and the figures.
import { CursorCodec } from '@app/persistence';
import { seedEvaluations } from '../test/support/seed-evaluations.js';
import { timeGets, type Timing } from './harness/load.js';
import { log, runMain } from './harness/log.js';
import { num, readOptions, settingsOf } from './harness/options.js';
import { fixed, publish, runHeading, table, type Results } from './harness/report.js';
import { BenchRun, createTenant } from './harness/run.js';

const SECRET = 'bench-session-secret-0123456789abcdef0123456789';
const TARGETS = { statsP95Ms: 100, reviewsP95Ms: 30 };
const DAYS = 90;

const options = readOptions({
  rows: num(1_000_000),
  otherUsers: num(4),
  otherRows: num(100_000),
  requests: num(300),
});

const settings = { ...settingsOf(options), days: DAYS };

interface StatsResults extends Results<typeof settings> {
  seedSeconds: number;
  timings: Array<Timing & { name: string }>;
}

function render(r: StatsResults): string {
  const s = r.settings;
  const ms = fixed(1);
  return [
    runHeading(
      r,
      `${s.rows.toLocaleString('en-US')} evaluations for the measured user over ${DAYS} days, plus ${s.otherUsers} ` +
        `other users with ${s.otherRows.toLocaleString('en-US')} each (seeded in ${r.seedSeconds.toFixed(0)} s); ` +
        `${s.requests} sequential requests a row after 20 warm-up requests`,
    ),
    '',
    table(
      ['request', 'p50 ms', 'p95 ms', 'p99 ms', 'target p95', 'met'],
      r.timings.map((t) => {
        const target = t.name.startsWith('GET /api/stats') ? TARGETS.statsP95Ms : TARGETS.reviewsP95Ms;
        return [t.name, ms(t.p50), ms(t.p95), ms(t.p99), `< ${target}`, t.p95 < target ? 'yes' : 'no'];
      }),
    ),
  ].join('\n');
}

runMain(() => BenchRun.with('stats', options, {}, statsBenchmark));

async function statsBenchmark(run: BenchRun): Promise<void> {
  const api = await run.api({ SESSION_SECRET: SECRET, MODEL_GATEWAY_URL: '' });
  const tenant = await createTenant(api.url);
  const db = await run.postgres();
  await db.query('SET synchronous_commit = off');
  const seedStarted = performance.now();
  const progress = (seeded: number) => log(`seeded ${seeded} rows`);
  await seedEvaluations(db, { packId: tenant.packId, rows: options.rows, days: DAYS }, progress);
  for (let i = 0; i < options.otherUsers; i++) {
    const other = await createTenant(api.url);
    await seedEvaluations(db, { packId: other.packId, rows: options.otherRows, days: DAYS }, progress);
  }
  await db.query('VACUUM ANALYZE evaluations');
  await db.query('VACUUM ANALYZE evaluation_daily_stats');
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(`seeded in ${seedSeconds.toFixed(1)} s`);

  // A deep page: the cursor the API would hand out after 2,000 pages of reviews (100,000 rows;
  // half the queue with fewer rows).
  const deepOffset = Math.min(100_000, Math.floor((options.rows * 0.3) / 2));
  const deep = await db.query<{ created_at: string; id: string }>(
    `SELECT created_at::text AS created_at, id FROM evaluations WHERE user_id = $1 AND status = 'review'
      ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
    [tenant.userId, deepOffset],
  );
  const { created_at: createdAt, id } = deep.rows[0];
  const deepCursor = new CursorCodec(SECRET).encode({ createdAt, id }, `${tenant.userId}:reviews`);
  const requests: Array<[string, string]> = [
    ['GET /api/stats', '/api/stats'],
    ['GET /api/reviews (first page)', '/api/reviews'],
    [
      `GET /api/reviews (page ${(deepOffset / 50 + 1).toLocaleString('en-US')})`,
      `/api/reviews?cursor=${encodeURIComponent(deepCursor)}`,
    ],
    ['GET /api/reviews?labeled=false (first page)', '/api/reviews?labeled=false'],
    [
      'GET /api/reviews?packId&questionId (first page)',
      `/api/reviews?packId=${tenant.packId}&questionId=department`,
    ],
  ];
  const timings: StatsResults['timings'] = [];
  for (const [name, route] of requests) {
    const timing = await timeGets(api.url + route, { 'x-api-key': tenant.apiKey }, options);
    timings.push({ name, ...timing });
  }
  publish<StatsResults>(
    {
      benchmark: 'stats',
      at: new Date().toISOString(),
      machine: run.machine,
      settings,
      seedSeconds,
      timings,
    },
    render,
    options.writeDocs,
  );
}
