// Issue 17 §4: a full PreToolUse (the pack's guard + a durable record)
// through hooks/pre-tool-guard with a warm `loom daemon` (the wrapper's sh
// and curl, no Node), against `node -e 0` and the same wrapper through Node
// (LOOM_FAST=0), interleaved round by round.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchProject, compare, median, report, ROOT, sample } from './measure';

export async function benchFastpath(): Promise<string[]> {
  const project = benchProject();
  const runtime = mkdtempSync(join(tmpdir(), 'loom-bench-run-'));
  chmodSync(runtime, 0o700);
  const env = { XDG_RUNTIME_DIR: runtime, LOOM_PROJECT_DIR: project, LOOM_SOCKET: '', LOOM_CONFIG: '', LOOM_FAST: '1', LOOM_DAEMON: '' };
  const cli = join(ROOT, 'bin', 'loom.js');
  const daemon = (action: string) => spawnSync(process.execPath, [cli, 'daemon', action, '--project-dir', project], { env: { ...process.env, ...env }, encoding: 'utf8' });
  const started = daemon('start');
  if (started.status !== 0) throw new Error(`loom daemon start: ${started.stderr}`);
  try {
    const payload = JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'git status && ls -la src' }, cwd: project });
    const wrapper = join(ROOT, 'hooks', 'pre-tool-guard');
    const results = compare(
      [
        { name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') },
        { name: 'fast path (warm daemon)', run: () => sample(wrapper, [], payload, env, project) },
        { name: 'Node runner (LOOM_FAST=0)', run: () => sample(wrapper, [], payload, { ...env, LOOM_FAST: '0' }, project) },
      ],
      Number(process.env.LOOM_BENCH_ROUNDS) || 30,
    );
    const lines = report('fastpath: full PreToolUse (guard + durable record) through hooks/pre-tool-guard (issue 17 §4)', results, 'node -e 0', {
      'fast path (warm daemon)': { wall: 0.35 },
    });
    const base = results.get('node -e 0')!;
    const fast = results.get('fast path (warm daemon)')!;
    const slow = results.get('Node runner (LOOM_FAST=0)')!;
    const paired = median(fast.map((s, i) => s.wallMs / base[i].wallMs));
    lines.push(`fast path / node -e 0, median of per-round ratios = ${paired.toFixed(3)} x (target <= 0.35: ${paired <= 0.35 ? 'met' : 'NOT met'})`);
    lines.push(`fast path / Node runner, median of per-round ratios = ${median(fast.map((s, i) => s.wallMs / slow[i].wallMs)).toFixed(3)} x`);
    return lines;
  } finally {
    daemon('stop');
  }
}
