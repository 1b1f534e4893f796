import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCommand, type AnalyzeOptions } from '../src/guards/shell/analyze';
import { loadPolicy } from '../src/policy/policy';
import { FAMILIES } from './fixtures/guard-families';
import { ROOT } from './helpers';

const policy = loadPolicy(ROOT, '/home/dev/project');
const base: AnalyzeOptions = { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy, protectedPaths: [join(ROOT, 'config')], currentBranch: 'feature' };
const judge = (c: string) => analyzeCommand(c, base);

describe('rule families corpus', () => {
  const all = Object.values(FAMILIES);
  it('holds at least 250 dangerous and 200 everyday commands', () => {
    expect(all.reduce((n, f) => n + f.deny.length + f.ask.length, 0)).toBeGreaterThanOrEqual(250);
    expect(all.reduce((n, f) => n + f.allow.length, 0)).toBeGreaterThanOrEqual(200);
  });

  for (const [family, corpus] of Object.entries(FAMILIES)) {
    describe(family, () => {
      it('denies every dangerous command', () => {
        const wrong = corpus.deny.map((c) => [c, judge(c)] as const).filter(([, r]) => r.decision !== 'deny').map(([c, r]) => `${r.decision}: ${c} ${r.reason}`);
        expect(wrong).toEqual([]);
      });
      it('asks for the risky-but-legitimate ones', () => {
        const wrong = corpus.ask.map((c) => [c, judge(c)] as const).filter(([, r]) => r.decision !== 'ask').map(([c, r]) => `${r.decision}: ${c} ${r.reason}`);
        expect(wrong).toEqual([]);
      });
      it('allows the everyday look-alikes', () => {
        const wrong = corpus.allow.map((c) => [c, judge(c)] as const).filter(([, r]) => r.decision !== 'allow').map(([c, r]) => `${c} -> ${r.reason}`);
        expect(wrong).toEqual([]);
      });
    });
  }
});
