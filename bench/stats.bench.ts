// `npm run bench:stats`: the dashboard's reads (GET /api/stats, the review queue, the evaluation list
// filtered, the quality and calibration reports) with 1,000,000 evaluations for one user (plus other
// users' rows; issue 26 runs it at 10,000,000). See docs/performance.md for the method and the figures.
import { CursorCodec } from '@app/persistence';
import { seedEvaluations } from '../test/support/seed-evaluations.js';
import { timeGets, type Timing } from './harness/load.js';
import { log, runMain } from './harness/log.js';
import { num, readOptions, settingsOf } from './harness/options.js';
import { printProfiles, profileFlags } from './harness/profile.js';
import { fixed, publish, runHeading, table, type Results } from './harness/report.js';
import { BenchRun, createTenant } from './harness/run.js';

const SECRET = 'bench-session-secret-0123456789abcdef0123456789';
/** p95 targets (issue 26, goal 4), by the request's first words. */
const TARGETS: Array<[prefix: string, p95Ms: number]> = [
  ['GET /api/stats', 50],
  ['GET /api/reviews', 20],
  ['GET /api/evaluations', 20],
  ['GET /api/packs/{id}/quality', 100],
  ['GET /api/packs/{id}/calibration', 100],
];
/** The latest audit-selected evaluations labeled on two questions: what the quality and calibration reports read. */
const LABELED_AUDITS = 5_000;
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
  /** pg_database_size after seeding, and pg_total_relation_size('evaluations'). */
  databaseBytes: number;
  evaluationsBytes: number;
  timings: Array<Timing & { name: string }>;
}

const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);

function render(r: StatsResults): string {
  const s = r.settings;
  const ms = fixed(1);
  return [
    runHeading(
      r,
      `${s.rows.toLocaleString('en-US')} evaluations for the measured user over ${DAYS} days, plus ${s.otherUsers} ` +
        `other users with ${s.otherRows.toLocaleString('en-US')} each, the latest ${LABELED_AUDITS.toLocaleString('en-US')} ` +
        `of the measured user's selected for audit and labeled on two questions (seeded in ${r.seedSeconds.toFixed(0)} s; ` +
        `database ${gib(r.databaseBytes)} GiB, evaluations ${gib(r.evaluationsBytes)} GiB with its indexes); ` +
        `${s.requests} sequential requests a row after 20 warm-up requests`,
    ),
    '',
    table(
      ['request', 'p50 ms', 'p95 ms', 'p99 ms', 'target p95', 'met'],
      r.timings.map((t) => {
        const target = TARGETS.find(([prefix]) => t.name.startsWith(prefix))![1];
        return [t.name, ms(t.p50), ms(t.p95), ms(t.p99), `< ${target}`, t.p95 < target ? 'yes' : 'no'];
      }),
    ),
  ].join('\n');
}

const profile = options.profile ? profileFlags() : undefined;

runMain(async () => {
  await BenchRun.with('stats', options, {}, statsBenchmark);
  if (profile) printProfiles(profile.dir, 'API');
});

async function statsBenchmark(run: BenchRun): Promise<void> {
  const api = await run.api({ SESSION_SECRET: SECRET, MODEL_GATEWAY_URL: '' }, profile?.execArgv);
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
  // The latest audit draws labeled, as reviewers would (the labels copy the judge's answers).
  await db.query(
    `WITH chosen AS (
       UPDATE evaluations SET audit_probability = 0.05, audit_selected = true, labeled = true
        WHERE id IN (SELECT id FROM evaluations WHERE pack_id = $1 ORDER BY created_at DESC LIMIT $2)
       RETURNING id, user_id, result)
     INSERT INTO labels (id, user_id, evaluation_id, question_id, answer, agreement)
     SELECT gen_random_uuid(), chosen.user_id, chosen.id, q.question, chosen.result -> 'answers' -> q.question, true
       FROM chosen, (VALUES ('department'), ('abusive')) AS q(question)`,
    [tenant.packId, LABELED_AUDITS],
  );
  await db.query('VACUUM ANALYZE evaluations');
  await db.query('VACUUM ANALYZE labels');
  await db.query('VACUUM ANALYZE evaluation_daily_stats');
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  log(`seeded in ${seedSeconds.toFixed(1)} s`);
  const sizes = await db.query<{ database: string; evaluations: string }>(
    `SELECT pg_database_size(current_database()) AS database, pg_total_relation_size('evaluations') AS evaluations`,
  );

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
    ['GET /api/evaluations?packId (first page)', `/api/evaluations?packId=${tenant.packId}`],
    ['GET /api/evaluations?status=review (first page)', '/api/evaluations?status=review'],
    ['GET /api/packs/{id}/quality', `/api/packs/${tenant.packId}/quality`],
    ['GET /api/packs/{id}/calibration', `/api/packs/${tenant.packId}/calibration`],
  ];
  // The calibration report must reach the histogram: a suggested threshold, and the share below it.
  const calibration = (await (
    await fetch(`${api.url}/api/packs/${tenant.packId}/calibration`, {
      headers: { 'x-api-key': tenant.apiKey },
    })
  ).json()) as { questions: Array<{ questionId: string; reviewShareAtSuggested: number | null }> };
  const shares = calibration.questions.map((q) => `${q.questionId} ${q.reviewShareAtSuggested}`).join(', ');
  if (calibration.questions.every((q) => q.reviewShareAtSuggested === null)) {
    throw new Error(`the calibration report counted no share below a threshold (${shares})`);
  }
  log(`calibration: review share at the suggested threshold: ${shares}`);
  // The quality report must read the labeled audits (the labels' copies of their evaluations' facts).
  const quality = (await (
    await fetch(`${api.url}/api/packs/${tenant.packId}/quality`, { headers: { 'x-api-key': tenant.apiKey } })
  ).json()) as { labeled: number };
  if (!(quality.labeled > 0))
    throw new Error(`the quality report read no labeled audit (${quality.labeled})`);
  log(`quality: ${quality.labeled} labeled audits in the window`);
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
      databaseBytes: Number(sizes.rows[0].database),
      evaluationsBytes: Number(sizes.rows[0].evaluations),
      timings,
    },
    render,
    options.writeDocs,
  );
}
