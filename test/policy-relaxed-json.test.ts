// The starter policy explains itself in comments; uncommenting its last example leaves a comma before the
// closing brace. A teammate's edit like that must not block every hook: the comma is accepted, and a real
// syntax error names the file, its line and column (not a character offset).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../src/policy/policy';
import { dropTrailingCommas, parseRelaxedJson } from '../src/util/jsonc';
import { ROOT, tempDir } from './helpers';

function project(policy: string): string {
  const p = tempDir();
  mkdirSync(join(p, '.loom'));
  writeFileSync(join(p, '.loom', 'policy.json'), policy);
  return p;
}

describe('the policy file as people edit it', () => {
  it('a comma left before } or ] (after an uncommented example) is accepted', () => {
    const p = project('{\n  "rules": {\n    // "git-clean": "deny",\n    "sudo": "ask",\n  },\n  "sensitivePaths": ["secrets/**", ],\n}\n');
    const policy = loadPolicy(ROOT, p) as { rules?: Record<string, string> };
    expect(policy.rules?.sudo).toBe('ask');
  });

  it('a syntax error names the file, the line and the column', () => {
    const p = project('{\n  "rules": {\n    "sudo" "ask"\n  }\n}\n');
    expect(() => loadPolicy(ROOT, p)).toThrow(`${join(p, '.loom', 'policy.json')}: $: invalid JSON: Expected ':' after property name at line 3, column 12`);
  });

  it('commas inside strings stay, and the text keeps its length (error positions point into the file)', () => {
    const text = '{"a": "x, }", "b": [1, 2, ], }';
    const out = dropTrailingCommas(text);
    expect(out).toHaveLength(text.length);
    expect(JSON.parse(out)).toEqual({ a: 'x, }', b: [1, 2] });
    expect(parseRelaxedJson('[1, /* two */ 2, // end\n]')).toEqual([1, 2]);
  });

  it('differential: random JSON with trailing commas added parses to what JSON.parse gives without them', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const gen = (d: number): unknown => (d > 3 || rnd() < 0.3 ? (rnd() < 0.5 ? Math.floor(rnd() * 100) : `s${Math.floor(rnd() * 9)},]}`) : rnd() < 0.5 ? Array.from({ length: Math.floor(rnd() * 4) }, () => gen(d + 1)) : Object.fromEntries(Array.from({ length: Math.floor(rnd() * 4) }, (_, i) => [`k${i}`, gen(d + 1)])));
    for (let i = 0; i < 300; i++) {
      const v = gen(0);
      const withCommas = JSON.stringify(v, null, 1).replace(/(\S)(\n\s*[\]}])/g, (m, a, b) => (a === '[' || a === '{' ? m : `${a},${b}`));
      expect(parseRelaxedJson(withCommas)).toEqual(v);
    }
  });
});
