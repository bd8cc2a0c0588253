import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const git = (args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);

/** Every Markdown file in the repository, as git tracks it (README.md, docs/, the client's README). */
const MARKDOWN = git(['ls-files', '*.md']);

/** What a clone holds: the tracked files and their folders. A link to anything else breaks on GitHub. */
const TRACKED = new Set(
  git(['ls-files']).flatMap((file) =>
    file.split('/').map((_, i, parts) => parts.slice(0, parts.length - i).join('/')),
  ),
);

/** Fenced blocks (``` or ~~~, indented up to three spaces) hold examples: no heading, no link. */
function withoutFences(markdown: string): string {
  return markdown.replace(/^ {0,3}(```|~~~)[\s\S]*?^ {0,3}\1/gm, '');
}

/** Outside fences and code spans, where links are links. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/`[^`\n]*`/g, '');
}

/**
 * A heading's anchor as GitHub writes it: lower case, punctuation dropped (hyphens and underscores
 * kept), each space a hyphen, and `-1`, `-2`... after repeats of the same heading.
 */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, title] of withoutFences(markdown).matchAll(/^#{1,6} +(.*?)[ #]*$/gm)) {
    const text = title.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const repeats = seen.get(base) ?? 0;
    seen.set(base, repeats + 1);
    anchors.add(repeats === 0 ? base : `${base}-${repeats}`);
  }
  return anchors;
}

/**
 * Every link target pointing into the repository: inline links and images (`[text](target "title")`,
 * `(<target>)`), reference definitions (`[ref]: target`) and HTML `src`/`href`; not those with a
 * scheme (`https:`, `mailto:`).
 */
function localLinks(markdown: string): string[] {
  const text = prose(markdown);
  const targets = [
    ...[...text.matchAll(/\]\(\s*<([^>]+)>/g)].map(([, target]) => target),
    ...[...text.matchAll(/\]\(\s*([^)\s<]+)(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g)].map(
      ([, target]) => target,
    ),
    ...[...text.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)/gm)].map(([, target]) => target),
    ...[...text.matchAll(/\s(?:src|href)="([^"]+)"/g)].map(([, target]) => target),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with `target` as written in `file`, or null when it resolves. */
function brokenLink(file: string, target: string): string | null {
  const [pathAndQuery, anchor] = target.split('#');
  const pathPart = decodeURI(pathAndQuery.split('?')[0]);
  const resolved = !pathPart
    ? file
    : path.posix
        .normalize(
          pathPart.startsWith('/') ? pathPart.slice(1) : path.posix.join(path.posix.dirname(file), pathPart),
        )
        .replace(/\/$/, '');
  if (!TRACKED.has(resolved) || !existsSync(resolved))
    return `${file}: ${target} (no file ${resolved} in the repository)`;
  if (
    anchor &&
    resolved.endsWith('.md') &&
    !anchorsOf(readFileSync(resolved, 'utf8')).has(decodeURIComponent(anchor))
  )
    return `${file}: ${target} (no heading #${anchor} in ${resolved})`;
  return null;
}

describe('the documentation', () => {
  it('is found: README.md and the docs folder are tracked Markdown', () => {
    expect(MARKDOWN).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md']));
  });

  it("links only to files and headings that exist, each link resolved from its own file's folder", () => {
    const links = MARKDOWN.flatMap((file) =>
      localLinks(readFileSync(file, 'utf8')).map((target) => ({ file, target })),
    );
    expect(links.length).toBeGreaterThan(50);
    expect(links.flatMap(({ file, target }) => brokenLink(file, target) ?? [])).toEqual([]);
  });

  it('reads a link written from the root inside docs/ as broken, and GitHub anchors as GitHub writes them', () => {
    expect(brokenLink('docs/configuration.md', 'docs/cost.md')).toMatch(/no file docs\/docs\/cost\.md/);
    expect(brokenLink('docs/configuration.md', 'cost.md')).toBeNull();
    expect(brokenLink('docs/configuration.md', '../README.md#requirements')).toBeNull();
    expect(brokenLink('docs/configuration.md', '/docs/cost.md')).toBeNull();
    expect(brokenLink('README.md', 'docs/operations.md#no-such-heading')).toMatch(/no heading/);
    // Built or ignored files exist here but not in a clone.
    expect(brokenLink('README.md', 'dist/apps/api/src/main.js')).toMatch(/no file/);
    expect(
      localLinks(
        [
          '[a](a.md) [b](b.md "title") [c](<c d.md>) ![e](e.png \'alt\') `[f](f.md)`',
          '<img src="g.png"> <a href="https://example.com">x</a>',
          '```sh',
          '[h](h.md)',
          '```',
          '[ref]: i.md',
        ].join('\n'),
      ),
    ).toEqual(['c d.md', 'a.md', 'b.md', 'e.png', 'i.md', 'g.png']);
    expect([...anchorsOf('# A `code`, title: (with) [a link](x.md)\n## Repeat\n## Repeat\n')]).toEqual([
      'a-code-title-with-a-link',
      'repeat',
      'repeat-1',
    ]);
  });
});
