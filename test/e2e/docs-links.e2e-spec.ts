import { describe, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Every Markdown file in the repository, as git tracks it (README.md, docs/, the client's README). */
const MARKDOWN = execFileSync('git', ['ls-files', '*.md'], { encoding: 'utf8' }).split('\n').filter(Boolean);

/** Fenced blocks hold commands and output, not links. */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, '');
}

/**
 * A heading's anchor as GitHub writes it: lower case, punctuation dropped (hyphens and underscores
 * kept), each space a hyphen, and `-1`, `-2`... after repeats of the same heading.
 */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, title] of prose(markdown).matchAll(/^#{1,6} +(.*?)[ #]*$/gm)) {
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

/** `[text](target)` and `![alt](target)` pointing into the repository: no scheme, no `mailto:`. */
function localLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)]
    .map(([, target]) => target)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** What is wrong with `target` as written in `file`, or null when it resolves. */
function brokenLink(file: string, target: string): string | null {
  const [pathPart, anchor] = target.split('#');
  const resolved = pathPart ? path.join(path.dirname(file), decodeURI(pathPart)) : file;
  if (!existsSync(resolved)) return `${file}: ${target} (no file ${resolved})`;
  if (anchor && resolved.endsWith('.md') && !anchorsOf(readFileSync(resolved, 'utf8')).has(anchor))
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
    expect(brokenLink('README.md', 'docs/operations.md#no-such-heading')).toMatch(/no heading/);
    expect([...anchorsOf('# A `code`, title: (with) [a link](x.md)\n## Repeat\n## Repeat\n')]).toEqual([
      'a-code-title-with-a-link',
      'repeat',
      'repeat-1',
    ]);
  });
});
