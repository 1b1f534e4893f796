import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GUARD_TABLES_END, GUARD_TABLES_START, guardTablesMarkdown } from '../src/guards/shell/tables/docs';
import { ROOT } from './helpers';

describe('docs/guard.md', () => {
  it('lists exactly the tables the rule families read (run `npm run docs` after changing a table)', () => {
    const doc = readFileSync(join(ROOT, 'docs/guard.md'), 'utf8');
    const a = doc.indexOf(GUARD_TABLES_START);
    const b = doc.indexOf(GUARD_TABLES_END);
    expect(a).toBeGreaterThan(0);
    expect(doc.slice(a + GUARD_TABLES_START.length, b).trim()).toBe(guardTablesMarkdown());
  });

  it('names every family module and every rule id the families can report', () => {
    const doc = readFileSync(join(ROOT, 'docs/guard.md'), 'utf8');
    for (const f of ['delete', 'git', 'download', 'remote-shell', 'interpreters', 'secrets', 'tamper', 'disk', 'windows']) expect(doc).toContain(`families/${f}.ts`);
    const policy = JSON.parse(readFileSync(join(ROOT, 'config/policy.default.json'), 'utf8')) as { rules: Record<string, string> };
    const src = ['delete', 'git', 'download', 'remote-shell', 'interpreters', 'secrets', 'tamper', 'disk', 'windows'].map((f) => readFileSync(join(ROOT, `src/guards/shell/families/${f}.ts`), 'utf8')).join('\n') + readFileSync(join(ROOT, 'src/guards/shell/path-rules.ts'), 'utf8');
    const ids = new Set([...src.matchAll(/hit\(\s*'([a-z-]+)'/g)].map((m) => m[1]));
    for (const id of ids) {
      expect(doc, `docs/guard.md should name ${id}`).toContain('`' + id + '`');
      expect(policy.rules, `config/policy.default.json should give ${id} an action`).toHaveProperty(id);
    }
  });
});
