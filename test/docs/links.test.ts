// Every relative link in README.md, BENCHMARKS.md and docs/**/*.md points at a file that exists, and
// every #anchor into a markdown file at one of its headings (GitHub's heading IDs). No Engine needed.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');

/** README.md, BENCHMARKS.md and every .md under docs/, relative to `dir`. */
function markdownFiles(dir: string): string[] {
  const docs = existsSync(join(dir, 'docs')) ? readdirSync(join(dir, 'docs'), { recursive: true, encoding: 'utf8' }).map((f) => join('docs', f)) : [];
  return ['README.md', 'BENCHMARKS.md', ...docs].filter((f) => f.endsWith('.md') && existsSync(join(dir, f)));
}

/** The text outside fenced code blocks and inline code, where a bracket is markdown and not code. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`+[^`\n]*`+/g, '');
}

/** The IDs GitHub gives the headings of a markdown file: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]+>/g, '');
    const id = plain.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '').replace(/ /g, '-');
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    ids.add(n ? `${id}-${n}` : id);
  }
  return ids;
}

/** Links that do not resolve, as "file: target (why)". */
function brokenLinks(dir: string): string[] {
  const broken: string[] = [];
  for (const file of markdownFiles(dir)) {
    const text = prose(readFileSync(join(dir, file), 'utf8'));
    const defined = new Set<string>();
    const targets: string[] = [];
    for (const m of text.matchAll(/^ {0,3}\[([^\]]+)\]:[ \t]*<?([^\s>]+)>?(?:[ \t].*)?$/gm)) {
      defined.add(m[1]!.toLowerCase());
      targets.push(m[2]!);
    }
    for (const m of text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(m[1]!);
    for (const m of text.matchAll(/<(?:a|img)\s[^>]*?(?:href|src)="([^"]+)"/g)) targets.push(m[1]!);
    // A reference link whose label has no definition renders as plain brackets.
    for (const m of text.matchAll(/\[([^\]]+)\]\[([^\]]*)\]/g)) {
      const label = (m[2] || m[1])!.toLowerCase();
      if (!defined.has(label)) broken.push(`${file}: [${m[1]}][${m[2]}] (no definition of [${label}])`);
    }
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      const [path, anchor] = target.split('#', 2) as [string, string | undefined];
      const to = path ? (path.startsWith('/') ? join(dir, path) : join(dir, dirname(file), decodeURI(path))) : join(dir, file);
      if (!existsSync(to)) {
        broken.push(`${file}: ${target} (no such file: ${relative(dir, to)})`);
      } else if (anchor && to.endsWith('.md') && statSync(to).isFile() && !anchors(readFileSync(to, 'utf8')).has(decodeURIComponent(anchor).toLowerCase())) {
        broken.push(`${file}: ${target} (no heading #${anchor} in ${relative(dir, to)})`);
      }
    }
  }
  return broken;
}

describe('markdown links', () => {
  it('resolve in README.md, BENCHMARKS.md and docs/', () => {
    expect(markdownFiles(root)).toContain('README.md');
    expect(brokenLinks(root)).toEqual([]);
  });

  it('are reported when a file, a heading or a reference definition is missing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-links-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    mkdirSync(join(dir, 'docs', 'guides'), { recursive: true });
    writeFileSync(join(dir, 'BENCHMARKS.md'), '| [a][] |\n| [b][] |\n| [c][] |\n\n[a]: docs/a.md\n[c]: docs/a.md "A page"\n');
    writeFileSync(join(dir, 'docs', 'a.md'), '# A page\n\n## The `envelope` (v1)\n');
    writeFileSync(
      join(dir, 'README.md'),
      [
        '[ok](docs/a.md) [ok](docs/a.md#the-envelope-v1) [ok](#intro) [web](https://example.com/x.md) `[code](nope.md)`',
        '[gone](docs/missing.md) [bad anchor](docs/a.md#nope)',
        '```sh',
        '[in a fence](nope.md)',
        '```',
        '# Intro',
      ].join('\n'),
    );
    writeFileSync(join(dir, 'docs', 'guides', 'g.md'), '[up](../a.md) [root](/docs/a.md) [wrong level](a.md)\n');
    expect(brokenLinks(dir).sort()).toEqual(
      [
        'BENCHMARKS.md: [b][] (no definition of [b])',
        'README.md: docs/missing.md (no such file: docs/missing.md)',
        'README.md: docs/a.md#nope (no heading #nope in docs/a.md)',
        'docs/guides/g.md: a.md (no such file: docs/guides/a.md)',
      ].sort(),
    );
  });
});
