// The guard's in-process cost as the hook pays it: this file is bundled by esbuild
// the way scripts/build.ts bundles the hook (no keepNames, which tsx adds and
// which costs a call per closure), run in a fresh Node, and prints one JSON
// line: the first pass (code not yet optimised, what one hook process pays) and
// warm passes over the real agent commands.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeCommand, type AnalyzeOptions } from '../../src/guards/shell/analyze';
import { loadPolicy } from '../../src/policy/policy';

interface AgentCommand {
  cmd: string;
  cwd: string;
}

function main(): void {
  const [root, passesArg] = process.argv.slice(2);
  const policy = loadPolicy(root, '/home/dev/project');
  const base: AnalyzeOptions = { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy, protectedPaths: [join(root, 'config')], currentBranch: 'main' };
  const all: AgentCommand[] = readFileSync(join(root, 'test/fixtures/agent-commands/commands.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const judge = (c: AgentCommand) => {
    const home = c.cwd.startsWith('/Users/') || c.cwd.startsWith('/home/') ? c.cwd.split('/').slice(0, 3).join('/') : '/root';
    return analyzeCommand(c.cmd, { ...base, projectDir: c.cwd, cwd: c.cwd, home, currentBranch: 'feature' });
  };
  const passes: { wall: number; cpu: number }[] = [];
  for (let p = 0; p < Number(passesArg); p++) {
    const u0 = process.cpuUsage();
    const t0 = process.hrtime.bigint();
    for (const c of all) judge(c);
    const u = process.cpuUsage(u0);
    passes.push({ wall: Number(process.hrtime.bigint() - t0) / 1e6 / all.length, cpu: (u.user + u.system) / 1000 / all.length });
  }
  process.stdout.write(JSON.stringify({ commands: all.length, passes }) + '\n');
}

main();
