/**
 * The README is the front door to docs/: every page there must be reachable from it, and no relative link in the
 * README, CONTRIBUTING.md or docs/ may lead to a file that is not there (a page renamed, a folder moved).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const README = path.join(ROOT, 'README.md');
const DOCS = path.join(ROOT, 'docs');

/** Every Markdown file under a folder, at any depth. */
function markdownFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFilesUnder(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

/** The text a reader sees as prose: code blocks and code spans can hold brackets and parentheses that are not links. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
}

/** The targets of a Markdown text's links and images: inline, reference definitions, and HTML src/href. */
function linkTargets(markdown: string): string[] {
  const prose = withoutCode(markdown);
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]!);
  const references = [...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?([^\s>]+)>?/gm)].map((match) => match[1]!);
  const html = [...prose.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
  return [...inline, ...references, ...html];
}

/**
 * The file a link leads to, without its #anchor or ?query, or null when it leads off the repository (a URL, a mail
 * address) or only to a place in the same page.
 */
function linkedFile(fromFile: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) return null;
  const file = decodeURIComponent(target.replace(/[#?].*$/, ''));
  if (file === '') return null;
  return file.startsWith('/') ? path.join(ROOT, file) : path.resolve(path.dirname(fromFile), file);
}

/** Each link of a file that leads to nothing, as `file: target`. */
function brokenLinks(fromFile: string, markdown: string): string[] {
  return linkTargets(markdown)
    .filter((target) => {
      const file = linkedFile(fromFile, target);
      return file !== null && !existsSync(file);
    })
    .map((target) => `${path.relative(ROOT, fromFile)}: ${target}`);
}

describe('the links between the README, CONTRIBUTING.md and docs/', () => {
  const pages = markdownFilesUnder(DOCS);

  it('when docs/ is listed, then every page in it is linked from the README', () => {
    const linked = new Set(
      linkTargets(readFileSync(README, 'utf8'))
        .map((target) => linkedFile(README, target))
        .filter((file): file is string => file !== null),
    );
    const unlinked = pages.filter((page) => !linked.has(page)).map((page) => path.relative(ROOT, page));
    expect(pages.length).toBeGreaterThan(0);
    expect(unlinked).toEqual([]);
  });

  it('when every relative link is followed, then each leads to a file that exists', () => {
    const files = [README, path.join(ROOT, 'CONTRIBUTING.md'), ...pages];
    const broken = files.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8')));
    expect(broken).toEqual([]);
  });

  it('when a page links to a missing file, then that link is reported, and links off the repository, anchors and code are not', () => {
    const page = path.join(DOCS, 'example.md');
    const markdown = [
      'See [the database](database.md#kept-totals), [a missing page](missing.md#top) and ![a picture](images/none.png).',
      'Also [the web](https://example.com/missing.md), [mail](mailto:someone@example.com) and [this page](#top).',
      '`[not a link](nowhere.md)`',
      '```',
      '[not a link either](nowhere-either.md)',
      '```',
      '[defined]: ../no-such-file.md',
    ].join('\n');
    expect(brokenLinks(page, markdown)).toEqual(['docs/example.md: missing.md#top', 'docs/example.md: images/none.png', 'docs/example.md: ../no-such-file.md']);
  });
});
