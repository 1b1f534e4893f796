// `read` splits a line into fields as bash does (the guard follows `IFS=: read -r a b <<< ...` into
// what a later command runs): compared with the real bash on generated lines and IFS values.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { readFields } from '../src/guards/shell/analyze';
import { prng } from './differential/generate';

describe('read field splitting against the real bash', () => {
  it('300 generated lines, IFS values and name counts split the same way', () => {
    const r = prng(7);
    const pick = (s: string) => s[Math.floor(r() * s.length)];
    const cases: [string, string, number][] = [];
    for (let k = 0; k < 300; k++) {
      const ifs = ['\u0020\t\n', ':', ': ', ',', ', \t', '/', ' '][Math.floor(r() * 7)];
      let line = '';
      for (let i = 0, len = Math.floor(r() * 14); i < len; i++) line += pick('ab-~/: ,\t.');
      cases.push([line, ifs, 1 + Math.floor(r() * 4)]);
    }
    // One bash for all cases: each prints its fields separated by \x1f, cases by \x1e.
    const script = cases.map(([line, ifs, n], i) => {
      const names = Array.from({ length: n }, (_, j) => `v${j}`);
      return `IFS=$'${[...ifs].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}' read -r ${names.join(' ')} <<< "\${L[${i}]}"; printf '%s\\x1f' ${names.map((v) => `"$${v}"`).join(' ')}; printf '\\x1e'`;
    });
    const decl = `L=(${cases.map(([line]) => `$'${[...line].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}'`).join(' ')})`;
    const out = execFileSync('bash', ['-c', [decl, ...script].join('\n')]).toString().split('\x1e').slice(0, cases.length);
    const mismatches = cases.filter(([line, ifs, n], i) => {
      const loom = readFields(line, ifs, n);
      while (loom.length < n) loom.push('');
      return JSON.stringify(out[i].split('\x1f').slice(0, n)) !== JSON.stringify(loom);
    });
    expect(mismatches).toEqual([]);
  });
});
