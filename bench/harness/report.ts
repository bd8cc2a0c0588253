import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { log } from './log.js';
import type { Machine } from './probes.js';

/** The checkout: dist/bench/harness/report.js is three levels below it. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DOCS = path.join(ROOT, 'docs/performance.md');

/** The one table renderer: a markdown table, every cell already formatted. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '-')), ...rows.map(line)].join('\n');
}

export const fixed = (digits: number) => (value: number) => value.toFixed(digits);
export const pct = (share: number) => `${(share * 100).toFixed(0)}%`;
export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** What every results file holds besides the benchmark's own figures. */
export interface Results<S = Record<string, unknown>> {
  benchmark: string;
  /** ISO time the run ended. */
  at: string;
  machine: Machine;
  settings: S;
}

/** The opening lines of every generated section: when, on what, with which settings. */
export function runHeading(results: Results<unknown>, settings: string): string {
  const { machine } = results;
  return [
    `### Latest run (${results.at.slice(0, 16).replace('T', ' ')} UTC)`,
    '',
    `Machine: ${machine.cpus} CPUs (\`nproc\`), ${machine.cpuModel}, Node.js ${machine.node}` +
      `${machine.postgres ? `, PostgreSQL ${machine.postgres}` : ''}; load average before the run ${machine.loadAverage}.`,
    `Settings: ${settings}.`,
  ].join('\n');
}

/**
 * Replaces the text between `<!-- bench:NAME:begin … -->` and `<!-- bench:NAME:end -->` in
 * docs/performance.md (or appends the pair), leaving everything outside the markers as written by hand.
 */
export function writeSection(name: string, body: string, file = DOCS): void {
  const begin = `<!-- bench:${name}:begin (written by \`npm run bench:${name}\`; edit outside these markers) -->`;
  const end = `<!-- bench:${name}:end -->`;
  const current = readFileSync(file, 'utf8');
  const from = current.indexOf(`<!-- bench:${name}:begin`);
  const to = current.indexOf(end);
  const section = `${begin}\n${body}\n${end}`;
  writeFileSync(
    file,
    from >= 0 && to > from
      ? current.slice(0, from) + section + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${section}\n`,
  );
}

/**
 * Writes a run's figures to bench/results/NAME.json (kept out of git: docs/performance.md is the
 * record, the JSON is for comparing runs), prints the rendered section, and writes it to the docs
 * unless told not to.
 */
export function publish<R extends Results<unknown>>(
  results: R,
  render: (results: R) => string,
  writeDocs: boolean,
): void {
  const dir = path.join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${results.benchmark}.json`);
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  const section = render(results);
  console.log(`\n${section}\n`);
  log(`wrote ${path.relative(ROOT, file)}`);
  if (!writeDocs) return;
  writeSection(results.benchmark, section);
  log(`wrote the results to docs/performance.md (bench:${results.benchmark})`);
}
