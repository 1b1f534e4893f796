import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyzeCommand, type AnalyzeOptions } from '../src/guards/shell/analyze';
import { loadPolicy } from '../src/policy/policy';
import { DANGEROUS, EVERYDAY, MUST_ASK } from './fixtures/guard-corpus';
import { ROOT } from './helpers';

const policy = loadPolicy(ROOT, '/home/dev/project');
const base: AnalyzeOptions = { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy, protectedPaths: [join(ROOT, 'config')], currentBranch: 'main' };

describe('guard corpus', () => {
  it('holds at least 150 dangerous and 150 everyday commands', () => {
    expect(DANGEROUS.length).toBeGreaterThanOrEqual(150);
    expect(EVERYDAY.length).toBeGreaterThanOrEqual(150);
  });

  it('denies every dangerous command, each with a rule and the part that hit', () => {
    const missed = DANGEROUS.filter((c) => analyzeCommand(c, base).decision !== 'deny');
    expect(missed).toEqual([]);
    for (const c of DANGEROUS.slice(0, 20)) expect(analyzeCommand(c, base).reason).toMatch(/^[a-z-]+: .+ \(`.+`\)/);
  });

  it('asks for the risky-but-legitimate ones', () => {
    const wrong = MUST_ASK.map((c) => [c, analyzeCommand(c, { ...base, currentBranch: 'feature' }).decision]).filter(([, d]) => d !== 'ask');
    expect(wrong).toEqual([]);
  });

  it('allows every everyday command', () => {
    const stopped = EVERYDAY.map((c) => [c, analyzeCommand(c, { ...base, currentBranch: 'feature' }).reason]).filter(([, r]) => r !== '');
    expect(stopped).toEqual([]);
  });
});

interface AgentCommand {
  cmd: string;
  cwd: string;
}
const load = (f: string): AgentCommand[] =>
  readFileSync(join(ROOT, 'test/fixtures/agent-commands', f), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

export function judgeAgentCommand(c: AgentCommand) {
  const home = c.cwd.startsWith('/Users/') || c.cwd.startsWith('/home/') ? c.cwd.split('/').slice(0, 3).join('/') : '/root';
  return analyzeCommand(c.cmd, { ...base, projectDir: c.cwd, cwd: c.cwd, home, currentBranch: 'feature' });
}

describe('real agent commands', () => {
  it('stops at most 0.5% of the 4,150 commands agents really ran', () => {
    const all = load('commands.jsonl');
    expect(all.length).toBe(4150);
    const stopped = all.filter((c) => judgeAgentCommand(c).decision !== 'allow');
    expect(stopped.length / all.length).toBeLessThanOrEqual(0.005);
  });

  it('asks or denies every command of destructive.jsonl', () => {
    const passed = load('destructive.jsonl').filter((c) => judgeAgentCommand(c).decision === 'allow').map((c) => c.cmd);
    expect(passed).toEqual([]);
  });
});

describe('a project under the temp folder', () => {
  const tmpProject = { ...base, projectDir: '/tmp/work/app', cwd: '/tmp/work/app', currentBranch: 'feature' };
  it('keeps its root, its contents as a whole, .git and .loom protected', () => {
    for (const c of ['rm -rf .', 'rm -rf ./*', 'rm -rf *', 'find . -delete', 'rm -rf "$PWD"', 'rm -rf /tmp/work/app', 'rm -rf /tmp/work', 'rm -rf /tmp/*', 'rm -rf .loom', 'rm .loom/compliance/ledger.db', 'cd .. && rm -rf app', 'find /tmp -delete']) {
      expect([c, analyzeCommand(c, tmpProject).decision]).toEqual([c, 'deny']);
    }
    expect(analyzeCommand('rm -rf .git', tmpProject).decision).not.toBe('allow');
  });
  it('still lets the agent clean the temp folder outside the project', () => {
    for (const c of ['rm -rf /tmp/other', 'rm -rf /tmp/build-*', 'rm -rf dist node_modules', 'find . -name "*.pyc" -delete', 'rm -rf /tmp/work/app/dist']) {
      expect([c, analyzeCommand(c, tmpProject).decision]).toEqual([c, 'allow']);
    }
  });
});
