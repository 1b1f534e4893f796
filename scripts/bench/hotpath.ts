// Issue 17: the command-hook path as users run it. A full PreToolUse (the
// shell guard and the durable journal append) through the wrapper against
// `node -e 0`, on an empty ledger and on one of 1,000,000 records (paired per
// round); then every other event of the pack's registry through its wrapper.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchProject, compare, median, report, ROOT, sample, type Sample } from './measure';
import { seedLedger } from './seed';

/** One payload per event the pack registers (besides PreToolUse), with the hook whose wrapper runs it. */
const EVENTS: [string, string, Record<string, unknown>][] = [
  ['PostToolUse', 'tool-audit', { tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok', exit_code: 0 } }],
  ['UserPromptSubmit', 'prompt-guard', { prompt: 'run the tests and fix the failing one' }],
  ['SessionStart', 'session-audit', { source: 'startup' }],
  ['SessionEnd', 'session-audit', { reason: 'exit' }],
  ['Stop', 'stop-check', { stop_hook_active: false }],
  ['SubagentStop', 'subagent-audit', { stop_hook_active: false }],
  ['Notification', 'lifecycle-audit', { message: 'Claude needs your permission to use Bash' }],
  ['PreCompact', 'compaction-handoff', { trigger: 'auto', custom_instructions: '' }],
  ['PermissionRequest', 'permission-audit', { tool_name: 'Bash', tool_input: { command: 'npm test' } }],
];

const ratioLine = (name: string, xs: number[], target: number) => {
  const m = median(xs);
  return `${name}: median of per-round ratios ${m.toFixed(3)} x, range ${Math.min(...xs).toFixed(3)} to ${Math.max(...xs).toFixed(3)} (target <= ${target.toFixed(2)}: ${m <= target ? 'met' : 'NOT met'})`;
};

export async function benchHotpath(): Promise<string[]> {
  const rounds = Number(process.env.LOOM_BENCH_ROUNDS ?? 40);
  const flatRecords = Number(process.env.LOOM_BENCH_FLAT_RECORDS ?? 1_000_000);
  const lines = ['## hook path: a full PreToolUse and every other event through the wrapper (issue 17)'];
  const empty = benchProject();
  const full = benchProject();
  const t0 = Date.now();
  seedLedger(full, flatRecords);
  lines.push(`seeded ${flatRecords.toLocaleString('en-US')} records (database, history.json) in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const payload = (p: string, command: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: p });
  const wrapper = join(ROOT, 'hooks', 'pre-tool-guard');
  const guard = (p: string) => () => sample(wrapper, [], payload(p, 'npm test && git status --short'), { LOOM_PROJECT_DIR: p, LOOM_CONFIG: '' }, p);
  const results = compare(
    [
      { name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') },
      { name: 'PreToolUse, guard + journal, empty ledger', run: guard(empty) },
      { name: `PreToolUse, guard + journal, ${flatRecords.toLocaleString('en-US')} records`, run: guard(full) },
    ],
    rounds,
  );
  lines.push(
    ...report('full PreToolUse through the wrapper', results, 'node -e 0', {
      'PreToolUse, guard + journal, empty ledger': { wall: 1.2, rss: 1.12 },
      [`PreToolUse, guard + journal, ${flatRecords.toLocaleString('en-US')} records`]: { wall: 1.2, rss: 1.12 },
    }).slice(1),
  );
  const base = results.get('node -e 0')!;
  const e = results.get('PreToolUse, guard + journal, empty ledger')!;
  const f = results.get(`PreToolUse, guard + journal, ${flatRecords.toLocaleString('en-US')} records`)!;
  lines.push(ratioLine('PreToolUse / node -e 0 (paired)', e.map((s, i) => s.wallMs / base[i].wallMs), 1.2));
  lines.push(ratioLine(`flat: ${flatRecords.toLocaleString('en-US')} records / empty (paired)`, f.map((s, i) => s.wallMs / e[i].wallMs), 1.03));

  // Every other event, each through its hook's wrapper, against node -e 0 in the same rounds.
  const project = benchProject();
  mkdirSync(join(project, '.loom'), { recursive: true });
  writeFileSync(join(project, 'README.md'), '# bench\n');
  const contenders = [{ name: 'node -e 0', run: (): Sample => sample(process.execPath, ['-e', '0'], '') }];
  for (const [event, hook, extra] of EVENTS) {
    const body = JSON.stringify({ session_id: 'bench', hook_event_name: event, cwd: project, transcript_path: join(project, 'transcript.jsonl'), ...extra });
    contenders.push({ name: `${event} (${hook})`, run: () => sample(join(ROOT, 'hooks', hook), [], body, { LOOM_PROJECT_DIR: project, LOOM_CONFIG: '' }, project) });
  }
  const ev = compare(contenders, Math.max(10, Math.round(rounds / 2)));
  const targets: Record<string, { wall: number }> = {};
  for (const c of contenders.slice(1)) targets[c.name] = { wall: 1.15 };
  lines.push(...report('every other event through its wrapper', ev, 'node -e 0', targets).slice(1));
  return lines;
}
