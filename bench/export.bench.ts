// `npm run bench:export`: GET /api/evaluations/export of 10,000 and 100,000 evaluations: time, rows a
// second, and the API's resident memory during the export against before it. See docs/performance.md.
import { seedEvaluations } from '../test/support/seed-evaluations.js';
import { log, runMain } from './harness/log.js';
import { num, nums, readOptions, settingsOf } from './harness/options.js';
import { loadAverage, processRssMb } from './harness/probes.js';
import { fixed, publish, runHeading, table, type Results } from './harness/report.js';
import { BenchRun, createTenant } from './harness/run.js';

const options = readOptions({
  rows: nums(10_000, 100_000),
  runs: num(3),
  sampleMs: num(20),
});

const settings = settingsOf(options);

interface Measured {
  rows: number;
  run: number;
  seconds: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

interface ExportResults extends Results<typeof settings> {
  seedSeconds: number;
  loadAverageBefore: string;
  measured: Measured[];
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

function render(r: ExportResults): string {
  const mb = fixed(0);
  const rows = r.settings.rows.map((size) => {
    const runs = r.measured.filter((m) => m.rows === size);
    const of = (pick: (m: Measured) => number) => median(runs.map(pick));
    return [
      size.toLocaleString('en-US'),
      fixed(2)(of((m) => m.seconds)),
      Math.round(of((m) => m.rows / m.seconds)).toLocaleString('en-US'),
      fixed(1)(of((m) => m.bytes / m.seconds / 2 ** 20)),
      mb(of((m) => m.rssBeforeMb)),
      mb(of((m) => m.rssPeakMb)),
      mb(of((m) => m.rssPeakMb - m.rssBeforeMb)),
    ];
  });
  return [
    runHeading(
      r,
      `one user's evaluations exported with GET /api/evaluations/export (no filter), ${r.settings.runs} runs a size, ` +
        `sizes alternating; the API with its production flags (\`NODE_ENV=production\`); its RSS read from /proc every ` +
        `${r.settings.sampleMs} ms during each export; seeded in ${r.seedSeconds.toFixed(0)} s; medians; MB are MiB; ` +
        `load average before the runs ${r.loadAverageBefore}`,
    ),
    '',
    table(['rows', 'time s', 'rows/s', 'MiB/s', 'RSS before', 'RSS peak (sampled)', 'peak − before'], rows),
  ].join('\n');
}

runMain(() => BenchRun.with('export', options, {}, exportBenchmark));

/** One export read to its end as a client would, counting its bytes and rows; the API's RSS sampled meanwhile. */
async function measure(
  url: string,
  apiKey: string,
  pid: number,
  rows: number,
  run: number,
): Promise<Measured> {
  const rssBeforeMb = processRssMb(pid);
  let rssPeakMb = rssBeforeMb;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      rssPeakMb = Math.max(rssPeakMb, processRssMb(pid));
      await new Promise((resolve) => setTimeout(resolve, options.sampleMs));
    }
  })();
  const started = performance.now();
  const response = await fetch(url, { headers: { 'x-api-key': apiKey } });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 0x0a) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  // The seeded tickets hold no line break, so every line is a row but the header.
  if (lines - 1 !== rows) throw new Error(`expected ${rows} rows, got ${lines - 1}`);
  log(
    `run ${run}, ${rows} rows: ${seconds.toFixed(2)} s, RSS ${rssBeforeMb.toFixed(0)} -> ${rssPeakMb.toFixed(0)} MiB`,
  );
  return { rows, run, seconds, bytes, rssBeforeMb, rssPeakMb };
}

async function exportBenchmark(run: BenchRun): Promise<void> {
  const api = await run.api({ NODE_ENV: 'production' });
  const db = await run.postgres();
  await db.query('SET synchronous_commit = off');
  const seedStarted = performance.now();
  const tenants = [];
  for (const rows of options.rows) {
    const tenant = await createTenant(api.url);
    await seedEvaluations(db, { packId: tenant.packId, rows, days: 30 });
    tenants.push({ rows, tenant });
    log(`seeded ${rows} rows`);
  }
  await db.query('VACUUM ANALYZE evaluations');
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const loadAverageBefore = loadAverage();
  const measured: Measured[] = [];
  for (let i = 1; i <= options.runs; i++) {
    const order = i % 2 ? tenants : [...tenants].reverse();
    for (const { rows, tenant } of order)
      measured.push(await measure(`${api.url}/api/evaluations/export`, tenant.apiKey, api.pid, rows, i));
  }
  publish<ExportResults>(
    {
      benchmark: 'export',
      at: new Date().toISOString(),
      machine: run.machine,
      settings,
      seedSeconds,
      loadAverageBefore,
      measured,
    },
    render,
    options.writeDocs,
  );
}
