// What a user reads: the README and docs/ as the package ships them. Every
// relative link in them opens a file the tarball holds (inside node_modules
// and on the registry), the generated tables are current, and no text a user
// reads names loom's own development (specification numbers, issue numbers,
// this machine's folders).
import { execa } from 'execa';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replaceTable } from '../src/contract/docs';
import { replaceGuardTables } from '../src/guards/shell/tables/docs';
import { replaceWrapperTable } from '../src/guards/shell/wrappers';
import { replaceRedactionTables } from '../src/ledger/redaction/docs';
import { ROOT } from './helpers';

const userDocs = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** Relative link targets in a Markdown text (no scheme, no pure #anchor), without their #anchor. */
function relativeLinks(text: string): string[] {
  const out: string[] = [];
  // Code spans and fenced blocks hold regexes and shell text, not links.
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  for (const m of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    out.push(target.split('#')[0]);
  }
  return out;
}

describe('the docs a user reads', () => {
  it('every relative link in README.md and docs/ opens a file npm pack ships', async () => {
    const r = await execa('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, reject: false });
    expect(r.exitCode, r.stderr).toBe(0);
    const shipped = new Set((JSON.parse(r.stdout)[0] as { files: { path: string }[] }).files.map((f) => f.path));
    for (const doc of userDocs) expect(shipped, `${doc} is not in the package`).toContain(doc);
    const dead: string[] = [];
    for (const doc of userDocs) {
      for (const link of relativeLinks(readFileSync(join(ROOT, doc), 'utf8'))) {
        const target = normalize(join(dirname(doc), link));
        if (!shipped.has(target)) dead.push(`${doc} -> ${link}`);
      }
    }
    expect(dead, 'links that are dead inside node_modules and on the registry').toEqual([]);
    // and nothing a user does not need: sources, tests, scripts, caches
    expect([...shipped].filter((p) => /^(src|test|scripts|specs|\.loom|\.claude)\/|^dist\/\.cache\//.test(p))).toEqual([]);
  });

  it('package.json tells a user where the code, the home page and the bug tracker are', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.repository?.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs?.url).toMatch(/^https:\/\/.*\/issues$/);
  });

  it('names no specification number, issue number or development folder', () => {
    const jargon = /\bseed[ -]0\d\d\b|\(seed \d+\)|\bissues? \d+|\/work\/|\bLOOM_FOLD_EVERY\b|NODE_EXTRA_CA_CERTS|no SQLite/gi;
    const found: string[] = [];
    for (const doc of userDocs) {
      const lines = readFileSync(join(ROOT, doc), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const m of line.matchAll(jargon)) {
          // Internals have their place in the contributor docs; the README is for users.
          if (doc !== 'README.md' && /LOOM_FOLD_EVERY|NODE_EXTRA_CA_CERTS|no SQLite/i.test(m[0])) continue;
          found.push(`${doc}:${i + 1}: ${m[0]}`);
        }
      });
    }
    expect(found).toEqual([]);
  });

  it('the generated tables are current (npm run docs writes them)', () => {
    const read = (f: string) => readFileSync(join(ROOT, f), 'utf8');
    expect(replaceTable(read('docs/harnesses.md')) === read('docs/harnesses.md'), 'docs/harnesses.md: run npm run docs').toBe(true);
    expect(replaceWrapperTable(replaceGuardTables(read('docs/guard.md'))) === read('docs/guard.md'), 'docs/guard.md: run npm run docs').toBe(true);
    expect(replaceRedactionTables(read('docs/redaction.md')) === read('docs/redaction.md'), 'docs/redaction.md: run npm run docs').toBe(true);
  });
});
