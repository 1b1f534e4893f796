// Bash arrays the way bash keeps them: associative arrays, sparse ones, one
// element set at a time, read by key, whole or by their keys; and static
// arithmetic. The order bash lists an associative array in (its hash table's)
// and the numbers $(( )) gives are checked against the real bash on this
// machine, on seeded random keys and expressions.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCommand, type AnalyzeOptions } from '../src/guards/shell/analyze';
import { evalArithmetic } from '../src/guards/shell/arithmetic';
import { bashOrder } from '../src/guards/shell/arrays';
import { loadPolicy } from '../src/policy/policy';
import { rng } from './fuzz/rng';
import { ROOT } from './helpers';

const policy = loadPolicy(ROOT, '/home/dev/project');
const base: AnalyzeOptions = { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy, protectedPaths: [join(ROOT, 'config')], currentBranch: 'feature' };
const decide = (c: string) => analyzeCommand(c, base).decision;

function bash(script: string): string {
  return execFileSync('bash', ['--norc', '--noprofile', '-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
}

describe('bash arrays in the guard', () => {
  it('an element reached by key, by index or whole runs what it holds', () => {
    const dangerous = [
      "declare -A m=([x]='-rf ~'); rm ${m[x]}",
      'declare -A m; m[x]=~; rm -rf "${m[x]}"',
      'local -A m=([k]=/); rm -rf ${m[k]}',
      'declare -A m=([x]=/); rm -rf "${m[@]}"',
      'typeset -A t=([c]=rm [f]=-rf); ${t[c]} ${t[f]} ~',
      'declare -A m=(c rm a -rf b ~); "${m[c]}" "${m[a]}" "${m[b]}"',
      'a[0]=-rf; a[1]=~; rm "${a[@]}"',
      'a=(build dist); a[1]=~; rm -rf ${a[@]}',
      'a=([3]=~); rm -rf ${a[3]}',
      'a=([5]=~ [2]=-rf); rm "${a[@]}"',
      'k=t; declare -A m=([t]=/); rm -rf "${m[$k]}"',
      'declare -A m=([t]=/); for k in "${!m[@]}"; do rm -rf "${m[$k]}"; done',
      'i=1; a=(x ~); rm -rf "${a[i]}"',
      'i=0; a=(x ~); rm -rf "${a[i+1]}"',
      'a=(x ~); rm -rf "${a[$((2-1))]}"',
      'a=(rm -rf); a+=($((1+2))); "${a[@]}" ~',
      'x=$((2*3-6)); a=(/ x); rm -rf "${a[x]}"',
    ];
    expect(dangerous.filter((c) => decide(c) !== 'deny')).toEqual([]);
    const everyday = [
      'declare -A m=([x]=/ [y]=build); rm -rf "${m[y]}"',
      'a=([3]=~); rm -rf "${a[0]}" ./out',
      'dirs=(dist build); rm -rf "${dirs[@]}"',
      'declare -A m=([x]=dist); rm -rf "${m[x]}"',
      'a={r,}; ${a%,*}m -rf ~ 2>/dev/null',
      'declare -A ports=([web]=8080 [api]=9090); for s in "${!ports[@]}"; do echo "$s ${ports[$s]}"; done',
      'n=$((3+4)); echo "$n files"',
    ];
    expect(everyday.filter((c) => decide(c) !== 'allow')).toEqual([]);
  });

  it('an associative array is listed in the order bash lists it (seeded random keys, against the real bash)', () => {
    const r = rng(20261204);
    const sets: string[][] = [];
    for (let i = 0; i < 200; i++) {
      const n = 2 + Math.floor(r() * 12);
      const keys: string[] = [];
      for (let k = 0; k < n; k++) {
        const len = 1 + Math.floor(r() * 8);
        let key = '';
        for (let c = 0; c < len; c++) key += 'abcxyzAZ019_.-'[Math.floor(r() * 14)];
        keys.push(key);
      }
      sets.push(keys);
    }
    const script = sets.map((keys) => `unset m; declare -A m; ${keys.map((k, i) => `m['${k}']=${i}`).join('; ')}; printf '%s\\n' "\${m[*]}"`).join('\n');
    const lines = bash(script).split('\n');
    const mismatches = sets.filter((keys, i) => {
      const firstAt = new Map<string, number>();
      keys.forEach((k, j) => firstAt.set(k, firstAt.get(k) ?? j));
      // A key set twice keeps its first place and its last value.
      const uniq = [...firstAt.keys()];
      const last = new Map(keys.map((k, j) => [k, j]));
      const ours = bashOrder(uniq, true).map((j) => last.get(uniq[j])).join(' ');
      return ours !== lines[i];
    });
    expect(mismatches).toEqual([]);
  });

  it('$(( )) of literals and known variables is the number bash prints; anything else stays unknown', () => {
    const r = rng(4242);
    const atom = () => (r() < 0.2 ? `$v${Math.floor(r() * 3)}` : r() < 0.3 ? `v${Math.floor(r() * 3)}` : String(Math.floor(r() * 2000) - (r() < 0.2 ? 1000 : 0)));
    const expr = (d: number): string => {
      if (d > 3 || r() < 0.3) return atom();
      const op = ['+', '-', '*', '/', '%'][Math.floor(r() * 5)];
      return r() < 0.3 ? `(${expr(d + 1)} ${op} ${expr(d + 1)})` : `${expr(d + 1)}${op}${expr(d + 1)}`;
    };
    const vars: Record<string, string> = { v0: '7', v1: '-3', v2: '100000000000' };
    const exprs = Array.from({ length: 300 }, () => expr(0));
    const prelude = Object.entries(vars).map(([k, v]) => `${k}=${v}`).join('; ');
    const lines = bash(`${prelude}\n${exprs.map((e) => `( echo "$(( ${e} ))" ) 2>/dev/null || echo ERR`).join('\n')}`).split('\n');
    let compared = 0;
    const wrong: string[] = [];
    exprs.forEach((e, i) => {
      const ours = evalArithmetic(e, (n) => vars[n]);
      if (ours === undefined) return; // left to run time (division by zero and the like)
      compared++;
      if (String(ours) !== lines[i]) wrong.push(`${e}: ours ${ours}, bash ${lines[i]}`);
    });
    expect(wrong).toEqual([]);
    expect(compared).toBeGreaterThan(200);
    expect(evalArithmetic('1/0', () => undefined)).toBeUndefined();
    expect(evalArithmetic('x+1', () => undefined)).toBeUndefined();
    expect(evalArithmetic('i++', () => '1')).toBeUndefined();
  });
});
