// One way to check a corpus of causes: each cause's dangerous commands denied
// (or asked), its everyday look-alikes allowed, judged the way the hook judges
// them (project /home/dev/project, home /home/dev, branch `feature`).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCommand, type AnalyzeOptions } from '../src/guards/shell/analyze';
import { loadPolicy } from '../src/policy/policy';
import type { FamilyCorpus } from './fixtures/guard-families';
import { ROOT } from './helpers';

const policy = loadPolicy(ROOT, '/home/dev/project');
export const guardBase: AnalyzeOptions = { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy, protectedPaths: [join(ROOT, 'config')], currentBranch: 'feature' };
export const judge = (c: string) => analyzeCommand(c, guardBase);

export function describeCauses(title: string, causes: Record<string, FamilyCorpus>): void {
  describe(title, () => {
    for (const [cause, corpus] of Object.entries(causes)) {
      describe(cause, () => {
        it('holds at least 10 commands, dangerous and everyday', () => {
          expect(corpus.deny.length + corpus.ask.length).toBeGreaterThanOrEqual(10);
          expect(corpus.allow.length).toBeGreaterThanOrEqual(5);
        });
        it('denies the dangerous ones', () => {
          expect(corpus.deny.map((c) => [c, judge(c)] as const).filter(([, r]) => r.decision !== 'deny').map(([c, r]) => `${r.decision}: ${c} ${r.reason}`)).toEqual([]);
        });
        it('asks where the family says ask', () => {
          expect(corpus.ask.map((c) => [c, judge(c)] as const).filter(([, r]) => r.decision !== 'ask').map(([c, r]) => `${r.decision}: ${c} ${r.reason}`)).toEqual([]);
        });
        it('allows the everyday look-alikes', () => {
          expect(corpus.allow.map((c) => [c, judge(c)] as const).filter(([, r]) => r.decision !== 'allow').map(([c, r]) => `${c} -> ${r.reason}`)).toEqual([]);
        });
      });
    }
  });
}
