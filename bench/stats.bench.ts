// `npm run bench:stats`: GET /api/stats and GET /api/reviews with 1,000,000 evaluations for one user
// (plus other users' rows). See docs/performance.md for the method and the figures.
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { CursorCodec } from '@app/persistence';
import { BenchChild } from './child-process.js';
import { writeNamedSection } from './docs-section.js';
import { percentile } from './load.js';
import {
  createScratchDatabase,
  deleteRedisNamespace,
  dropScratchDatabase,
  postgresVersion,
} from './scratch-stores.js';
import { seedEvaluations } from './seed-evaluations.js';
import { createTenant } from './tenant.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_BENCH = path.dirname(fileURLToPath(import.meta.url));
const SECRET = 'bench-session-secret-0123456789abcdef0123456789';
const TARGETS = { statsP95Ms: 100, reviewsP95Ms: 30 };

const env = process.env;
const ROWS = Number(env.BENCH_ROWS ?? 1_000_000);
const OTHER_USERS = Number(env.BENCH_OTHER_USERS ?? 4);
const OTHER_ROWS = Number(env.BENCH_OTHER_ROWS ?? 100_000);
const REQUESTS = Number(env.BENCH_REQUESTS ?? 300);
const DAYS = 90;

interface Timing {
  name: string;
  p50: number;
  p95: number;
  p99: number;
  requests: number;
}

async function time(name: string, url: string, apiKey: string): Promise<Timing> {
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${name} answered ${response.status}`);
    return performance.now() - started;
  };
  for (let i = 0; i < 20; i++) await once();
  const samples: number[] = [];
  for (let i = 0; i < REQUESTS; i++) samples.push(await once());
  samples.sort((a, b) => a - b);
  return {
    name,
    p50: percentile(samples, 50),
    p95: percentile(samples, 95),
    p99: percentile(samples, 99),
    requests: REQUESTS,
  };
}

function table(timings: Timing[]): string {
  const fmt = (n: number) => n.toFixed(1);
  return [
    '| request | p50 ms | p95 ms | p99 ms | target p95 | met |',
    '| - | - | - | - | - | - |',
    ...timings.map((t) => {
      const target = t.name.startsWith('GET /api/stats') ? TARGETS.statsP95Ms : TARGETS.reviewsP95Ms;
      return `| ${t.name} | ${fmt(t.p50)} | ${fmt(t.p95)} | ${fmt(t.p99)} | < ${target} | ${t.p95 < target ? 'yes' : 'no'} |`;
    }),
  ].join('\n');
}

async function main(): Promise<void> {
  const serverUrl = env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/ticket_judge';
  const redisUrl = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const stamp = Date.now();
  const dbName = `ticket_judge_bench_stats_${stamp}`;
  const prefix = `tjbench-${stamp}`;
  const databaseUrl = await createScratchDatabase(serverUrl, dbName);
  let api: BenchChild | undefined;
  const db = new pg.Client({ connectionString: databaseUrl });
  try {
    api = await BenchChild.start('api', path.join(DIST_BENCH, 'serve-api.js'), {
      env: {
        ...env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        REDIS_PREFIX: prefix,
        SESSION_SECRET: SECRET,
        MIGRATE_ON_START: 'true',
        API_RATE_LIMIT_PER_DAY: '100000000',
        MODEL_GATEWAY_URL: '',
      },
    });
    const tenant = await createTenant(api.url);
    await db.connect();
    await db.query(`SET synchronous_commit = off`);
    const owner = await db.query<{ user_id: string; live_version_id: string }>(
      `SELECT user_id, live_version_id FROM packs WHERE id = $1`,
      [tenant.packId],
    );
    const { user_id: userId, live_version_id: versionId } = owner.rows[0];
    const seedStarted = performance.now();
    await seedEvaluations(db, { userId, packId: tenant.packId, versionId, rows: ROWS, days: DAYS });
    for (let i = 0; i < OTHER_USERS; i++) {
      const other = await createTenant(api.url);
      const row = await db.query<{ user_id: string; live_version_id: string }>(
        `SELECT user_id, live_version_id FROM packs WHERE id = $1`,
        [other.packId],
      );
      await seedEvaluations(db, {
        userId: row.rows[0].user_id,
        packId: other.packId,
        versionId: row.rows[0].live_version_id,
        rows: OTHER_ROWS,
        days: DAYS,
      });
    }
    await db.query(`VACUUM ANALYZE evaluations`);
    await db.query(`VACUUM ANALYZE evaluation_daily_stats`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const total = ROWS + OTHER_USERS * OTHER_ROWS;
    process.stdout.write(`[bench] seeded ${total} evaluations in ${seedSeconds.toFixed(1)} s\n`);

    // A deep page: the cursor the API would hand out after 2,000 pages of reviews (100,000 rows;
    // half the queue with smaller BENCH_ROWS).
    const deepOffset = Math.min(100_000, Math.floor((ROWS * 0.3) / 2));
    const deep = await db.query<{ created_at: string; id: string }>(
      `SELECT created_at::text AS created_at, id FROM evaluations WHERE user_id = $1 AND status = 'review'
        ORDER BY created_at DESC, id DESC OFFSET $2 LIMIT 1`,
      [userId, deepOffset],
    );
    const deepCursor = new CursorCodec(SECRET).encode(
      { createdAt: deep.rows[0].created_at, id: deep.rows[0].id },
      `${userId}:reviews`,
    );

    const timings = [
      await time('GET /api/stats', `${api.url}/api/stats`, tenant.apiKey),
      await time('GET /api/reviews (first page)', `${api.url}/api/reviews`, tenant.apiKey),
      await time(
        `GET /api/reviews (page ${(deepOffset / 50 + 1).toLocaleString('en-US')})`,
        `${api.url}/api/reviews?cursor=${encodeURIComponent(deepCursor)}`,
        tenant.apiKey,
      ),
      await time(
        'GET /api/reviews?labeled=false (first page)',
        `${api.url}/api/reviews?labeled=false`,
        tenant.apiKey,
      ),
      await time(
        `GET /api/reviews?packId&questionId (first page)`,
        `${api.url}/api/reviews?packId=${tenant.packId}&questionId=department`,
        tenant.apiKey,
      ),
    ];
    const result = table(timings);
    process.stdout.write(`\n${result}\n`);

    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    const section = [
      '## GET /api/stats and GET /api/reviews at 1,000,000 evaluations (`npm run bench:stats`)',
      '',
      `Machine: ${os.cpus().length} cores (${cpu}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${await postgresVersion(serverUrl)}.`,
      `Data: ${ROWS.toLocaleString('en-US')} evaluations for the measured user over ${DAYS} days (60% accept, 30% review, 10% reject; every tenth review labeled),`,
      `plus ${OTHER_USERS} other users with ${OTHER_ROWS.toLocaleString('en-US')} each; bulk-inserted with generate_series in ${seedSeconds.toFixed(0)} s, then VACUUM ANALYZE.`,
      `Method: the API in its own process; ${REQUESTS} sequential requests per row after 20 warm-up requests (one client, like a dashboard); latency measured at the client.`,
      '',
      result,
      '',
      'Why it stays fast: `/api/stats` reads at most 30 rows of `evaluation_daily_stats` (per user and UTC day, kept by a statement-level trigger on insert) plus an index-only count on the partial index `evaluations_unlabeled_reviews_idx`; `/api/reviews` is a keyset scan of the partial index `evaluations_reviews_idx` (status = review), so a deep page costs the same as the first.',
    ].join('\n');
    if (env.BENCH_WRITE_DOCS !== '0')
      writeNamedSection(path.join(ROOT, 'docs/performance.md'), 'stats', section);
  } finally {
    await db.end().catch(() => undefined);
    await api?.stop();
    await dropScratchDatabase(serverUrl, dbName);
    await deleteRedisNamespace(redisUrl, prefix).catch(() => 0);
  }
}

await main();
