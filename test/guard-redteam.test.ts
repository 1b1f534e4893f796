// Blind red-team corpora kept as regression nets: written by a session that
// never saw the guard's code or tests (round 11: 622 dangerous commands in
// 14 families, 378 everyday look-alikes). First look: 621/622 stopped (the
// miss, shred of project files, is allowed as rm of them is), 1/378 everyday
// stopped (fixed). Held at what they scored after the fixes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scoreGuard, type GuardCase } from '../scripts/guard-eval';
import { ROOT } from './helpers';

function load(name: string): GuardCase[] {
  return readFileSync(join(ROOT, 'test/fixtures/redteam', name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const o = JSON.parse(l) as { command: string; family: string; expect?: 'deny' | 'ask' };
      return { command: o.command, family: o.family, expect: o.expect };
    });
}

describe('blind red-team corpus, round 11', () => {
  const score = scoreGuard(load('round11-guard-dangerous.jsonl'), load('round11-guard-everyday.jsonl'));
  it('stops every dangerous command but the shredding of project files', () => {
    expect(score.misses).toEqual(['F6: "shred -u -n 3 src/*.py"']);
  });
  it('lets every everyday look-alike through', () => {
    expect(score.falseStops).toEqual([]);
  });
});
