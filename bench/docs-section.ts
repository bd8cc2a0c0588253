import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Replaces the section between `<!-- bench:NAME:begin -->` and `<!-- bench:NAME:end -->` in a
 * markdown file (or appends it), leaving everything outside the markers as written by hand.
 */
export function writeNamedSection(file: string, name: string, body: string): void {
  const begin = `<!-- bench:${name}:begin (written by \`npm run bench:${name}\`; edit outside these markers) -->`;
  const end = `<!-- bench:${name}:end -->`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
  const from = current.indexOf(`<!-- bench:${name}:begin`);
  const to = current.indexOf(end);
  const section = `${begin}\n${body}\n${end}`;
  const next =
    from >= 0 && to > from
      ? current.slice(0, from) + section + current.slice(to + end.length)
      : `${current.trimEnd()}\n\n${section}\n`;
  writeFileSync(file, next);
}
