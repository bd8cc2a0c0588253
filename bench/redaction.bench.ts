// `npm run bench:redaction`: redactText's speed on ordinary tickets, and on every adversarial family
// at the body limit (1 MiB), each family in a fresh process so its first, cold call counts too.
// Target: no input under the body limit takes more than 50 ms. Figures go to docs/performance.md.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { redactText, warmUpRedaction } from '@app/domain';
import { median } from './harness/load.js';
import { log } from './harness/log.js';
import { flag, num, readOptions, settingsOf } from './harness/options.js';
import { describeMachine } from './harness/probes.js';
import { PRODUCTION_NODE_FLAGS } from './harness/processes.js';
import { publish, runHeading, table, type Results } from './harness/report.js';
import { ADVERSARIAL_INPUTS, ordinaryTicketText } from './redaction-inputs.js';

const SELF = fileURLToPath(import.meta.url);
const BODY_LIMIT = 1024 * 1024;
const TARGET_MS = 50;
const options = readOptions({ calls: num(5), runs: num(5), cold: flag(false) });
const settings = settingsOf(options);
const CALLS = options.calls;
const ROUNDS = options.runs;
/** Set in the fresh process that measures one family. */
const FAMILY = 'BENCH_REDACTION_FAMILY';
const megabytesPerSecond = (chars: number, ms: number) => chars / 1e6 / (ms / 1000);

interface FamilyResult {
  name: string;
  rule: string;
  /** Every call in call order; the first is the process's first. */
  callsMs: number[];
}

/**
 * Child mode: one family, CALLS calls in a fresh process that has just booted as the API and the
 * worker do (`warmUpRedaction`), the times as JSON on stdout. BENCH_COLD=1 skips the warm-up.
 */
function measureFamily(index: number): void {
  if (!options.cold) warmUpRedaction();
  const text = ADVERSARIAL_INPUTS[index].build(BODY_LIMIT);
  const callsMs: number[] = [];
  for (let call = 0; call < CALLS; call++) {
    const started = performance.now();
    redactText(text);
    callsMs.push(performance.now() - started);
  }
  process.stdout.write(JSON.stringify(callsMs));
}

function familyInFreshProcess(index: number): FamilyResult {
  const output = execFileSync(process.execPath, [...PRODUCTION_NODE_FLAGS, SELF], {
    encoding: 'utf8',
    env: {
      ...process.env,
      BENCH_CALLS: String(CALLS),
      BENCH_COLD: options.cold ? '1' : '0',
      [FAMILY]: String(index),
    },
  });
  const { name, rule } = ADVERSARIAL_INPUTS[index];
  return { name, rule, callsMs: JSON.parse(output) as number[] };
}

/** MB/s over 2,000 ordinary tickets (about 0.8 KB each), the median of ROUNDS rounds after a warm-up. */
function ordinaryThroughput(): { megabytesPerSecond: number; ticketChars: number; perTicketUs: number } {
  const texts = Array.from({ length: 2000 }, (_, index) => ordinaryTicketText(index));
  const chars = texts.reduce((sum, text) => sum + text.length, 0);
  const pass = () => {
    const started = performance.now();
    for (const text of texts) redactText(text);
    return performance.now() - started;
  };
  for (let warm = 0; warm < 3; warm++) pass();
  const ms = median(Array.from({ length: ROUNDS }, pass));
  return {
    megabytesPerSecond: megabytesPerSecond(chars, ms),
    ticketChars: Math.round(chars / texts.length),
    perTicketUs: (ms * 1000) / texts.length,
  };
}

type Ordinary = ReturnType<typeof ordinaryThroughput>;

interface RedactionResults extends Results<typeof settings> {
  ordinary: Ordinary;
  families: FamilyResult[];
}

function render({ ordinary, families, ...r }: RedactionResults): string {
  const rows = families
    .map((family) => ({
      ...family,
      median: median(family.callsMs),
      first: family.callsMs[0],
      slowest: Math.max(...family.callsMs),
    }))
    .sort((a, b) => b.median - a.median);
  const [worst] = rows;
  const slowest = rows.reduce((a, b) => (b.slowest > a.slowest ? b : a));
  const fmt = (ms: number) => ms.toFixed(1);
  const rate = (ms: number) => megabytesPerSecond(BODY_LIMIT, ms).toFixed(1);
  const { calls, runs, cold } = r.settings;
  const warmUp = cold ? 'no warm-up' : 'after the warm-up the API and worker run at boot';
  return [
    runHeading(r, `${calls} calls a family, ${runs} rounds of ordinary tickets`),
    '',
    `- **Ordinary tickets:** ${ordinary.megabytesPerSecond.toFixed(1)} MB/s (2,000 tickets of about ${ordinary.ticketChars} characters, ${ordinary.perTicketUs.toFixed(1)} µs a ticket; median of ${runs} rounds).`,
    `- **Worst input found:** "${worst.name}", median ${fmt(worst.median)} ms for 1 MiB (${rate(worst.median)} MB/s). Target: every input under the body limit in under ${TARGET_MS} ms (median of a family's calls): **${worst.median < TARGET_MS ? 'met' : 'missed'}**.`,
    `- **Slowest single call:** ${fmt(slowest.slowest)} ms ("${slowest.name}", call ${slowest.callsMs.indexOf(slowest.slowest) + 1} of ${calls}).`,
    '',
    `Each family at 1 MiB in a fresh process (${warmUp}), ${calls} calls; sorted by the median.`,
    '',
    table(
      ['Family', 'Aimed at', 'First call ms', 'Median ms', 'Slowest ms', 'MB/s (median)'],
      rows.map((row) => [
        row.name,
        row.rule,
        fmt(row.first),
        fmt(row.median),
        fmt(row.slowest),
        rate(row.median),
      ]),
    ),
  ].join('\n');
}

function main(): void {
  const family = process.env[FAMILY];
  if (family !== undefined) return measureFamily(Number(family));
  log('ordinary tickets');
  const ordinary = ordinaryThroughput();
  const families: FamilyResult[] = [];
  for (const [index, input] of ADVERSARIAL_INPUTS.entries()) {
    families.push(familyInFreshProcess(index));
    log(
      `${input.name}: ${families
        .at(-1)!
        .callsMs.map((ms) => ms.toFixed(1))
        .join(' ')} ms`,
    );
  }
  const results = {
    benchmark: 'redaction',
    at: new Date().toISOString(),
    machine: describeMachine(''),
    settings,
  };
  publish<RedactionResults>({ ...results, ordinary, families }, render, options.writeDocs);
}

main();
