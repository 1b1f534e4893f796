// A/B of the hook path: a full PreToolUse and a PostToolUse through the wrapper
// of this tree and of another built copy of the pack (LOOM_BENCH_OTHER, e.g. a
// copy of hooks/ dist/ config/ handlers/ taken before a change), interleaved
// round by round on two ledgers of their own, with `node -e 0` as the baseline.
// usage: LOOM_BENCH_OTHER=/tmp/before npx tsx scripts/bench/ab-hotpath.ts
import { join } from 'node:path';
import { benchProject, compare, median, ROOT, sample } from './measure';

const other = process.env.LOOM_BENCH_OTHER;
if (!other) throw new Error('set LOOM_BENCH_OTHER to a built copy of the pack');
const rounds = Number(process.env.LOOM_BENCH_ROUNDS ?? 40);
const pre = (p: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test && git status --short' }, cwd: p });
const post = (p: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok', exit_code: 0 }, cwd: p });
const hook = (root: string, name: string, body: (p: string) => string, p: string) => () => sample(join(root, 'hooks', name), [], body(p), { LOOM_PROJECT_DIR: p, LOOM_CONFIG: '', LOOM_FOLD_EVERY: '100000000' }, p);
const pa = benchProject();
const pb = benchProject();
const qa = benchProject();
const qb = benchProject();
const results = compare(
  [
    { name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') },
    { name: 'PreToolUse before', run: hook(other, 'pre-tool-guard', pre, pb) },
    { name: 'PreToolUse after', run: hook(ROOT, 'pre-tool-guard', pre, pa) },
    { name: 'PostToolUse before', run: hook(other, 'tool-audit', post, qb) },
    { name: 'PostToolUse after', run: hook(ROOT, 'tool-audit', post, qa) },
  ],
  rounds,
);
for (const [name, s] of results) console.log(`${name}: median wall ${median(s.map((x) => x.wallMs)).toFixed(2)} ms, CPU ${median(s.map((x) => x.cpuMs)).toFixed(0)} ms (n=${s.length})`);
for (const ev of ['PreToolUse', 'PostToolUse']) {
  const b = results.get(`${ev} before`)!;
  const a = results.get(`${ev} after`)!;
  const d = a.map((x, i) => x.wallMs - b[i].wallMs);
  console.log(`${ev}: after - before, median of paired differences ${median(d).toFixed(3)} ms (range ${Math.min(...d).toFixed(2)} to ${Math.max(...d).toFixed(2)})`);
}
