// Issues 5 and 12: the guard corpora in test/ scored per family (dangerous
// stopped, everyday stopped), the stop rate and the in-process cost per
// command on 4,150 real agent commands, the work and wall time on hostile
// input at two sizes, and a PreToolUse through the full guard plus the
// durable ledger append.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { buildSync } from 'esbuild';
import { join } from 'node:path';
import { analyzeCommand, type AnalyzeOptions } from '../../src/guards/shell/analyze';
import { work, WORK_BUDGET } from '../../src/guards/shell/work';
import { loadPolicy } from '../../src/policy/policy';
import { DANGEROUS, EVERYDAY, MUST_ASK } from '../../test/fixtures/guard-corpus';
import { COMBINED } from '../../test/fixtures/guard-combined';
import { FAMILIES } from '../../test/fixtures/guard-families';
import { SHELL_FAMILIES } from '../../test/fixtures/guard-shell-corpus';
import { guardTable, scoreGuard, type GuardCase } from '../guard-eval';
import { benchProject, compare, median, report, ROOT, sample } from './measure';

interface AgentCommand {
  cmd: string;
  cwd: string;
}

const load = (f: string): AgentCommand[] =>
  readFileSync(join(ROOT, 'test/fixtures/agent-commands', f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));

/** The corpora in test/, as per-family cases. */
function testCorpora(): { dangerous: GuardCase[]; everyday: GuardCase[] } {
  const dangerous: GuardCase[] = [...DANGEROUS.map((command) => ({ family: 'corpus (issue 5)', command, branch: 'main' })), ...MUST_ASK.map((command) => ({ family: 'corpus (issue 5)', command }))];
  const everyday: GuardCase[] = EVERYDAY.map((command) => ({ family: 'corpus (issue 5)', command }));
  for (const f of SHELL_FAMILIES) {
    dangerous.push(...f.dangerous.map((command) => ({ family: f.name, command })));
    everyday.push(...f.everyday.map((command) => ({ family: f.name, command })));
  }
  for (const f of COMBINED) {
    dangerous.push(...f.dangerous.map((command) => ({ family: `combined: ${f.name}`, command })));
    everyday.push(...f.everyday.map((command) => ({ family: `combined: ${f.name}`, command })));
  }
  for (const [family, f] of Object.entries(FAMILIES)) {
    dangerous.push(...[...f.deny, ...f.ask].map((command) => ({ family, command })));
    everyday.push(...f.allow.map((command) => ({ family, command })));
  }
  return { dangerous, everyday };
}

/** Hostile shapes, each at two sizes: work units (exact) and wall time (this machine, this moment). */
const HOSTILE: Record<string, (n: number) => string> = {
  'ls; repeated': (n) => 'ls;'.repeat(n / 3),
  'nested $( )': (n) => 'echo ' + '$('.repeat(n / 3) + 'ls' + ')'.repeat(n / 3),
  'many here-docs': (n) => 'cat' + ' <<E'.repeat(n / 10) + '\n' + 'x\nE\n'.repeat(n / 10),
  'assignments then pipes': (n) => Array.from({ length: n / 16 }, (_, i) => `A${i}=x; `).join('') + 'cat | '.repeat(n / 12) + 'cat',
  'long word': (n) => 'echo ' + 'a'.repeat(n),
  'many redirections': (n) => 'ls' + ' >f'.repeat(n / 3),
  'rm of many paths': (n) => 'rm -rf' + ' a'.repeat(n / 2),
  'function called many times': (n) => `f(){ echo ${'a'.repeat(n / 2)}; }; ` + 'f;'.repeat(n / 4),
};

/** Per-pass cost of the guard in a fresh Node running it bundled as the hook is (scripts/bench/guard-latency.ts). */
function shippedLatency(): { wall: number; cpu: number }[] {
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-guard-'));
  try {
    const out = join(dir, 'guard-latency.js');
    buildSync({ entryPoints: [join(ROOT, 'scripts/bench/guard-latency.ts')], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: out, logLevel: 'warning' });
    const r = spawnSync(process.execPath, [out, ROOT, '6'], { encoding: 'utf8', maxBuffer: 1 << 20 });
    if (r.status !== 0) throw new Error(`guard latency child exited ${r.status}: ${r.stderr.trim().split('\n')[0]}`);
    return (JSON.parse(r.stdout) as { passes: { wall: number; cpu: number }[] }).passes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function cpuMs(fn: () => void): { wall: number; cpu: number } {
  const u0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  fn();
  const u = process.cpuUsage(u0);
  return { wall: Number(process.hrtime.bigint() - t0) / 1e6, cpu: (u.user + u.system) / 1000 };
}

export async function benchGuard(): Promise<string[]> {
  const policy = loadPolicy(ROOT, '/home/dev/project');
  const base: AnalyzeOptions = { projectDir: '/home/dev/project', cwd: '/home/dev/project', home: '/home/dev', tmp: '/tmp', policy, protectedPaths: [join(ROOT, 'config')], currentBranch: 'main' };
  const lines = ['## guard: corpora per family, real agent commands, hostile input, latency (issues 5 and 12)'];
  const { dangerous, everyday } = testCorpora();
  const score = scoreGuard(dangerous, everyday);
  lines.push('corpora in test/ (stopped = deny or ask):', ...guardTable(score).map((l) => `  ${l}`));
  for (const m of score.misses) lines.push(`  let through: ${m}`);
  for (const m of score.falseStops) lines.push(`  everyday stopped: ${m}`);

  const judge = (c: AgentCommand) => {
    const home = c.cwd.startsWith('/Users/') || c.cwd.startsWith('/home/') ? c.cwd.split('/').slice(0, 3).join('/') : '/root';
    return analyzeCommand(c.cmd, { ...base, projectDir: c.cwd, cwd: c.cwd, home, currentBranch: 'feature' });
  };
  const all = load('commands.jsonl');
  // First pass: what one hook process pays (code not yet optimised by V8); then warm passes.
  let stopped: { c: AgentCommand; a: ReturnType<typeof analyzeCommand> }[] = [];
  const first = cpuMs(() => {
    stopped = all.map((c) => ({ c, a: judge(c) })).filter((x) => x.a.decision !== 'allow');
  });
  const warm: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < 3; i++) warm.push(cpuMs(() => all.forEach(judge)));
  const per = (x: number) => (x / all.length).toFixed(3);
  const w = { wall: median(warm.map((x) => x.wall)), cpu: median(warm.map((x) => x.cpu)) };
  lines.push(`real agent commands: stopped ${stopped.length}/${all.length} = ${((stopped.length / all.length) * 100).toFixed(2)}% (target <= 0.5%: ${stopped.length / all.length <= 0.005 ? 'met' : 'NOT met'})`);
  const shipped = shippedLatency();
  const sw = { wall: median(shipped.slice(1).map((x) => x.wall)), cpu: median(shipped.slice(1).map((x) => x.cpu)) };
  const f = (x: number) => x.toFixed(3);
  lines.push(`  guard analysis in process, as the hook runs it (esbuild bundle, fresh node), per command: first pass ${f(shipped[0].wall)} ms wall / ${f(shipped[0].cpu)} ms CPU; warm (median of ${shipped.length - 1} passes) ${f(sw.wall)} ms wall / ${f(sw.cpu)} ms CPU (target <= 0.2 ms: ${sw.wall <= 0.2 ? 'met' : 'NOT met'} warm, ${shipped[0].wall <= 0.2 ? 'met' : 'NOT met'} first pass)`);
  lines.push(`  the same under tsx (keepNames wraps every closure; not what ships): first pass ${per(first.wall)} ms wall; warm (median of 3 passes) ${per(w.wall)} ms wall / ${per(w.cpu)} ms CPU`);
  for (const { c, a } of stopped) lines.push(`  ${a.decision.padEnd(4)} ${a.hits.filter((h) => h.action === a.decision).map((h) => h.rule).join(',')}: ${JSON.stringify(c.cmd.length > 160 ? c.cmd.slice(0, 160) + '…' : c.cmd)}`);
  const destructive = load('destructive.jsonl');
  const caught = destructive.filter((c) => judge(c).decision !== 'allow').length;
  lines.push(`destructive.jsonl: asked or denied ${caught}/${destructive.length}`);

  lines.push(`hostile input at 16 KiB and 64 KiB (work units are exact; budget ${WORK_BUDGET.toLocaleString('en-US')} units, past it: too-complex, deny):`);
  for (const [name, gen] of Object.entries(HOSTILE)) {
    const row: string[] = [];
    let prev: { u: number; ms: number } | undefined;
    for (const n of [16 * 1024, 64 * 1024]) {
      const cmd = gen(n);
      analyzeCommand(cmd, base);
      const u0 = work.units;
      let decision = '';
      const t = cpuMs(() => {
        decision = analyzeCommand(cmd, base).decision;
      });
      const u = work.units - u0;
      row.push(`${(cmd.length / 1024).toFixed(0)} KiB: ${u.toLocaleString('en-US')} units, ${t.wall.toFixed(1)} ms, ${decision}`);
      if (prev) row.push(`x${(u / prev.u).toFixed(2)} work, x${(t.wall / prev.ms).toFixed(2)} wall`);
      prev = { u, ms: t.wall };
    }
    lines.push(`  ${name.padEnd(28)} ${row.join('; ')}`);
  }

  const project = benchProject();
  const payload = (command: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: project });
  const wrapper = join(ROOT, 'hooks', 'pre-tool-guard');
  const results = compare(
    [
      { name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') },
      { name: 'shell guard + ledger, allowed command', run: () => sample(wrapper, [], payload('npm test && git status --short'), { LOOM_PROJECT_DIR: project }, project) },
      { name: 'shell guard + ledger, denied command', run: () => sample(wrapper, [], payload('bash -c "$(echo rm) -rf /"'), { LOOM_PROJECT_DIR: project }, project) },
    ],
    Number(process.env.LOOM_BENCH_ROUNDS ?? 40),
  );
  lines.push(
    ...report('guard latency: PreToolUse with the shell guard and the ledger append', results, 'node -e 0', {
      'shell guard + ledger, allowed command': { wall: 1.25 },
      'shell guard + ledger, denied command': { wall: 1.25 },
    }).slice(1),
  );
  return lines;
}
