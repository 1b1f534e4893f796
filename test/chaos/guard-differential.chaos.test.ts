// The shell guard against the real bash: generated lines (agent commands and
// the shell-structure corpus, mutated the ways an attacker hides a command,
// plus grammar lines) run in bash 5.2 in a private mount namespace where every
// program is a logging stub; every command bash ran must be one loom found.
// Fixed seeds by default, so a red CI run always replays the same lines;
// LOOM_DIFF_SEED=<n> or LOOM_DIFF_SEED=random explores others (printed, replay
// with `npx tsx scripts/guard-differential.ts N SEED`).
import { describe, expect, it } from 'vitest';
import { confirmMismatches, differential } from '../../scripts/guard-differential';
import { mismatchClass } from '../differential/compare';
import { sandboxAvailable } from '../differential/sandbox';

function report(seed: number, n: number): string[] {
  const { compared, mismatches: first } = differential(n, seed);
  expect(compared).toBe(n);
  if (first.length) console.log(`seed ${seed}: ${first.length} line(s) mismatched on the first run, re-run to confirm: ${JSON.stringify(first.map((m) => [m.line, m.missing]))}`);
  const mismatches = confirmMismatches(first.map((m) => m.line));
  return mismatches.map((m) => `seed ${seed}: ${mismatchClass(m)}: ${JSON.stringify(m.line)} -> bash ran ${JSON.stringify(m.missing[0])}, loom did not see it`);
}

describe('the guard against the real bash (differential)', () => {
  it('needs Linux as root with unshare and setpriv (CI runs as root)', () => {
    expect(sandboxAvailable()).toBe(true);
  });

  it('a fixed seed: every command bash ran is one loom found', () => {
    expect(report(12, 250)).toEqual([]);
  });

  it('a second seed (LOOM_DIFF_SEED, else 41; printed): every command bash ran is one loom found', () => {
    const env = process.env.LOOM_DIFF_SEED;
    const seed = env === 'random' ? Math.floor(Math.random() * 2 ** 31) : env ? Number(env) : 41;
    console.log(`guard differential: seed ${seed} (replay: npx tsx scripts/guard-differential.ts 150 ${seed})`);
    expect(report(seed, 150)).toEqual([]);
  });
});
