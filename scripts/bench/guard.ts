// Issue 5: the guard corpus counts, the stop rate on 4,150 real agent
// commands (every stopped command listed for a person to judge), and a
// PreToolUse through the full guard plus the durable ledger append.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeCommand, type AnalyzeOptions } from '../../src/guards/shell/analyze';
import { loadPolicy } from '../../src/policy/policy';
import { DANGEROUS, EVERYDAY } from '../../test/fixtures/guard-corpus';
import { benchProject, compare, report, ROOT, sample } from './measure';

interface AgentCommand {
  cmd: string;
  cwd: string;
}

const load = (f: string): AgentCommand[] =>
  readFileSync(join(ROOT, 'test/fixtures/agent-commands', f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

export async function benchGuard(): Promise<string[]> {
  const policy = loadPolicy(ROOT, '/home/dev/project');
  const base: AnalyzeOptions = { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy, protectedPaths: [join(ROOT, 'config')], currentBranch: 'main' };
  const lines = ['## guard: corpus, real agent commands, latency (issue 5)'];
  const denied = DANGEROUS.filter((c) => analyzeCommand(c, base).decision === 'deny').length;
  const allowed = EVERYDAY.filter((c) => analyzeCommand(c, { ...base, currentBranch: 'feature' }).decision === 'allow').length;
  lines.push(`corpus: dangerous denied ${denied}/${DANGEROUS.length}; everyday allowed ${allowed}/${EVERYDAY.length}`);
  const judge = (c: AgentCommand) => {
    const home = c.cwd.startsWith('/Users/') || c.cwd.startsWith('/home/') ? c.cwd.split('/').slice(0, 3).join('/') : '/root';
    return analyzeCommand(c.cmd, { ...base, projectDir: c.cwd, cwd: c.cwd, home, currentBranch: 'feature' });
  };
  const all = load('commands.jsonl');
  const t0 = process.hrtime.bigint();
  const stopped = all.map((c) => ({ c, a: judge(c) })).filter((x) => x.a.decision !== 'allow');
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  lines.push(`real agent commands: stopped ${stopped.length}/${all.length} = ${((stopped.length / all.length) * 100).toFixed(2)}% (target < 1%: ${stopped.length / all.length < 0.01 ? 'met' : 'NOT met'}); ${(ms / all.length).toFixed(3)} ms per command in process`);
  for (const { c, a } of stopped) lines.push(`  ${a.decision.padEnd(4)} ${a.hits.filter((h) => h.action === a.decision).map((h) => h.rule).join(',')}: ${JSON.stringify(c.cmd.length > 160 ? c.cmd.slice(0, 160) + '…' : c.cmd)}`);
  const destructive = load('destructive.jsonl');
  const caught = destructive.filter((c) => judge(c).decision !== 'allow').length;
  lines.push(`destructive.jsonl: asked or denied ${caught}/${destructive.length}`);

  const project = benchProject();
  const payload = (command: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: project });
  const wrapper = join(ROOT, 'hooks', 'pre-tool-guard');
  const results = compare(
    [
      { name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') },
      { name: 'shell guard + ledger, allowed command', run: () => sample(wrapper, [], payload('npm test && git status --short'), { LOOM_PROJECT_DIR: project }, project) },
      { name: 'shell guard + ledger, denied command', run: () => sample(wrapper, [], payload('bash -c "$(echo rm) -rf /"'), { LOOM_PROJECT_DIR: project }, project) },
    ],
    40,
  );
  lines.push(
    ...report('guard latency: PreToolUse with the shell guard and the ledger append', results, 'node -e 0', {
      'shell guard + ledger, allowed command': { wall: 1.25 },
      'shell guard + ledger, denied command': { wall: 1.25 },
    }).slice(1),
  );
  return lines;
}
