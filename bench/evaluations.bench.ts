// `npm run bench:evaluations`: GET /api/evaluations' filters, search and capped total on a large
// table, and what the search indexes add to an insert. See docs/performance.md for the method.
import type pg from 'pg';
import type { QueryRunner } from 'typeorm';
import { CursorCodec } from '@app/persistence';
import {
  EvaluationSearch1795750411000,
  SEARCH_INDEXES,
} from '../libs/persistence/src/migrations/1795750411000-evaluation-search.js';
import { seedEvaluations } from '../test/support/seed-evaluations.js';
import { median, percentile, timeGets, type Timing } from './harness/load.js';
import { log, runMain } from './harness/log.js';
import { num, readOptions, settingsOf } from './harness/options.js';
import { fixed, publish, runHeading, table, type Results } from './harness/report.js';
import { BenchRun, createTenant } from './harness/run.js';

const SECRET = 'bench-session-secret-0123456789abcdef0123456789';
const TARGET_P95_MS = 100;
const DAYS = 90;
const LIVE = 'source=api,webhook,mcp';

const options = readOptions({
  rows: num(2_000_000),
  otherUsers: num(4),
  otherRows: num(100_000),
  requests: num(100),
  inserts: num(3_000),
});

const settings = { ...settingsOf(options), days: DAYS };

interface InsertCost {
  name: string;
  medianMs: number;
  p95Ms: number;
}

interface EvaluationsResults extends Results<typeof settings> {
  seedSeconds: number;
  /** Building the migration's indexes on the seeded table. */
  indexSeconds: number;
  indexSizes: Record<string, string>;
  timings: Array<Timing & { name: string; total: string }>;
  inserts: InsertCost[];
}

function render(r: EvaluationsResults): string {
  const s = r.settings;
  const ms = fixed(1);
  const [withIndexes, without] = r.inserts;
  return [
    runHeading(
      r,
      `${s.rows.toLocaleString('en-US')} evaluations for the measured user over ${DAYS} days, plus ${s.otherUsers} ` +
        `other users with ${s.otherRows.toLocaleString('en-US')} each (seeded in ${r.seedSeconds.toFixed(0)} s, the ` +
        `migration's indexes built in ${r.indexSeconds.toFixed(0)} s: ${Object.entries(r.indexSizes)
          .map(([name, size]) => `${name} ${size}`)
          .join(', ')}); ${s.requests} sequential requests a row after 20 warm-up requests; every answer ` +
        `holds its page and its total (counted up to 10,001 rows, 1,001 with q)`,
    ),
    '',
    table(
      ['request', 'total', 'p50 ms', 'p95 ms', 'p99 ms', `target p95`, 'met'],
      r.timings.map((t) => [
        t.name,
        t.total,
        ms(t.p50),
        ms(t.p95),
        ms(t.p99),
        `< ${TARGET_P95_MS}`,
        t.p95 < TARGET_P95_MS ? 'yes' : 'no',
      ]),
    ),
    '',
    `Inserts: ${s.inserts.toLocaleString('en-US')} single-row INSERTs with the search indexes, half before dropping ` +
      `them and half after building them again, and ${(s.inserts / 2).toLocaleString('en-US')} without (each INSERT ` +
      `its own statement and transaction, synchronous_commit off), timed at the client:`,
    '',
    table(
      ['indexes', 'median ms', 'p95 ms'],
      r.inserts.map((i) => [i.name, fixed(3)(i.medianMs), fixed(3)(i.p95Ms)]),
    ),
    '',
    `The two search indexes add ${fixed(3)(withIndexes.medianMs - without.medianMs)} ms to the median insert.`,
  ].join('\n');
}

runMain(() => BenchRun.with('evaluations', options, {}, evaluationsBenchmark));

async function evaluationsBenchmark(run: BenchRun): Promise<void> {
  const api = await run.api({ SESSION_SECRET: SECRET, MODEL_GATEWAY_URL: '' });
  const tenant = await createTenant(api.url);
  const db = await run.postgres();
  await db.query('SET synchronous_commit = off');
  // The migration's own SQL, through the one method of a QueryRunner it calls.
  const migration = new EvaluationSearch1795750411000();
  const runner = { query: (sql: string) => db.query(sql) } as unknown as QueryRunner;

  // Seeding goes faster without the indexes, which are then built as the migration builds them.
  await migration.down(runner);
  const seedStarted = performance.now();
  const progress = (seeded: number) => log(`seeded ${seeded} rows`);
  const target = { rows: options.rows, days: DAYS, tickets: 'varied' } as const;
  await seedEvaluations(db, { ...target, packId: tenant.packId }, progress);
  for (let i = 0; i < options.otherUsers; i++) {
    const other = await createTenant(api.url);
    await seedEvaluations(db, { ...target, packId: other.packId, rows: options.otherRows }, progress);
  }
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const indexStarted = performance.now();
  await db.query("SET maintenance_work_mem = '256MB'");
  await migration.up(runner);
  const indexSeconds = (performance.now() - indexStarted) / 1000;
  await db.query('VACUUM ANALYZE evaluations');
  log(`seeded in ${seedSeconds.toFixed(1)} s, indexes in ${indexSeconds.toFixed(1)} s`);
  const sizes = await db.query<{ name: string; size: string }>(
    `SELECT relname AS name, pg_size_pretty(pg_relation_size(oid)) AS size FROM pg_class
      WHERE relname IN ('evaluations_pack_version_created_idx', 'evaluations_external_id_idx', 'evaluations_subject_words_idx')`,
  );

  const at = await db.query<{ from: string; to: string; deep_at: string; deep_id: string }>(
    `SELECT (now() - interval '45 days')::text AS from, (now() - interval '44 days')::text AS to,
            deep.created_at::text AS deep_at, deep.id AS deep_id
       FROM (SELECT created_at, id FROM evaluations WHERE user_id = $1
              ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1) deep`,
    [tenant.userId, Math.floor(options.rows / 2)],
  );
  const { from, to, deep_at: deepAt, deep_id: deepId } = at.rows[0];
  const day = `from=${encodeURIComponent(new Date(from).toISOString())}&to=${encodeURIComponent(new Date(to).toISOString())}`;
  const deepCursor = new CursorCodec(SECRET).encode(
    { createdAt: deepAt, id: deepId },
    `${tenant.userId}:evaluations`,
  );
  const pack = await tenant.client.get<{ liveVersionId: string }>(`/api/packs/${tenant.packId}`);
  const version = pack.body.liveVersionId;
  const requests: Array<[string, string]> = [
    ['default (every source, newest first)', ''],
    ['live sources (the web page)', `?${LIVE}`],
    ['live sources, oldest first', `?${LIVE}&order=oldest`],
    [
      `page ${(options.rows / 2 / 50 + 1).toLocaleString('en-US')} (cursor)`,
      `?cursor=${encodeURIComponent(deepCursor)}`,
    ],
    ['pack and version', `?packId=${tenant.packId}&packVersionId=${version}`],
    ['status=review, live sources', `?status=review&${LIVE}`],
    ['one day (from/to), live sources', `?${day}&${LIVE}`],
    ['q: common word (refund, 1 row in 5)', `?q=refund&${LIVE}`],
    ['q: rare word (zebracorn, 1 in 100,000)', `?q=zebracorn&${LIVE}`],
    ['q: word prefix (ship)', `?q=ship&${LIVE}`],
    ['q: less common word (412, 1 in 997)', `?q=412&${LIVE}`],
    ['q: exact external id', `?q=T-00123456&${LIVE}`],
    ['q: external id prefix (T-0012, 10,000 ids)', `?q=T-0012&${LIVE}`],
    ['q: no match', `?q=nothinglikeit&${LIVE}`],
    ['q: rare word, one day', `?q=zebracorn&${day}&${LIVE}`],
    ['q: common word, status=reject, one day', `?q=refund&status=reject&${day}&${LIVE}`],
  ];
  const headers = { 'x-api-key': tenant.apiKey };
  const timings: EvaluationsResults['timings'] = [];
  for (const [name, query] of requests) {
    const url = `${api.url}/api/evaluations${query}`;
    const page = (await (await fetch(url, { headers })).json()) as { total: number; totalCapped: boolean };
    const total = `${page.total.toLocaleString('en-US')}${page.totalCapped ? '+' : ''}`;
    const timing = await timeGets(url, headers, options);
    log(`${name}: p50 ${timing.p50.toFixed(1)} ms, p95 ${timing.p95.toFixed(1)} ms (total ${total})`);
    timings.push({ name, total, ...timing });
  }

  // What an insert costs with the search indexes and without (dropped, then built again): with,
  // without, with, so a drift of the machine's load shows as a gap between the two with-runs.
  const withIndexes = await timeInserts(db, tenant, version);
  await db.query('DROP INDEX evaluations_subject_words_idx');
  await db.query('DROP INDEX evaluations_external_id_idx');
  const without = await timeInserts(db, tenant, version);
  for (const index of SEARCH_INDEXES) await db.query(index);
  const again = await timeInserts(db, tenant, version);
  const inserts: InsertCost[] = [
    { name: 'with the two search indexes', ...summary([...withIndexes, ...again]) },
    { name: 'without evaluations_external_id_idx and evaluations_subject_words_idx', ...summary(without) },
    { name: 'with them, first half of the samples', ...summary(withIndexes) },
    { name: 'with them, second half (after the rebuild)', ...summary(again) },
  ];

  publish<EvaluationsResults>(
    {
      benchmark: 'evaluations',
      at: new Date().toISOString(),
      machine: run.machine,
      settings,
      seedSeconds,
      indexSeconds,
      indexSizes: Object.fromEntries(sizes.rows.map((row) => [row.name, row.size])),
      timings,
      inserts,
    },
    render,
    options.writeDocs,
  );
}

let inserted = 0;

/** `options.inserts` single-row inserts of varied tickets, each timed at the client. */
async function timeInserts(
  db: pg.Client,
  tenant: { userId: string; packId: string },
  versionId: string,
): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < options.inserts / 2 + 100; i++) {
    const n = 900_000_000 + inserted++;
    const ticket = {
      externalId: `T-${n}`,
      subject: `${['Refund for', 'Login problem', 'Invoice question', 'Shipping delay'][n % 4]} order ${n % 997}`,
      customerMessage: 'Please help',
    };
    const started = performance.now();
    await db.query(
      `INSERT INTO evaluations (id, user_id, pack_id, pack_version_id, source, status, redacted_ticket, result, model_id,
                                latency_ms, input_tokens, output_tokens)
       VALUES (gen_random_uuid(), $1, $2, $3, 'api', 'accept', $4,
               '{"status":"accept","answers":{},"reviewReasons":[],"modelId":"m","latencyMs":1}', 'm', 1, 1, 1)`,
      [tenant.userId, tenant.packId, versionId, JSON.stringify(ticket)],
    );
    // The first hundred warm the connection and the caches.
    if (i >= 100) samples.push(performance.now() - started);
  }
  return samples;
}

function summary(samples: number[]): { medianMs: number; p95Ms: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  return { medianMs: median(sorted), p95Ms: percentile(sorted, 95) };
}
