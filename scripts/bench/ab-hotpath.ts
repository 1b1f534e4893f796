// A/B of the hook path: a full PreToolUse and a PostToolUse through the wrapper
// of this tree and of another built copy of the pack (LOOM_BENCH_OTHER, e.g. a
// copy of hooks/ dist/ config/ handlers/ taken before a change), interleaved
// round by round on ledgers of their own, with `node -e 0` as the baseline.
// Each pair runs in both orders (before first on even rounds, after first on
// odd ones), so running second in a round favours neither.
// usage: LOOM_BENCH_OTHER=/tmp/before npx tsx scripts/bench/ab-hotpath.ts (LOOM_BENCH_THIS: another copy as "after", e.g. the same one for an A/A run)
import { join } from 'node:path';
import { benchProject, compare, median, ROOT, sample, type Sample } from './measure';

const other = process.env.LOOM_BENCH_OTHER;
if (!other) throw new Error('set LOOM_BENCH_OTHER to a built copy of the pack');
const rounds = Number(process.env.LOOM_BENCH_ROUNDS ?? 40);
const pre = (p: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'npm test && git status --short' }, cwd: p });
const post = (p: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'npm test' }, tool_response: { stdout: 'ok', exit_code: 0 }, cwd: p });
const hook = (root: string, name: string, body: (p: string) => string, p: string) => () => sample(join(root, 'hooks', name), [], body(p), { LOOM_PROJECT_DIR: p, LOOM_CONFIG: '', LOOM_FOLD_EVERY: '100000000' }, p);

const contenders: { name: string; run: (i: number) => Sample }[] = [{ name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') }];
for (const [ev, name, body] of [['PreToolUse', 'pre-tool-guard', pre], ['PostToolUse', 'tool-audit', post]] as const) {
  const before = hook(other, name, body, benchProject());
  const after = hook(process.env.LOOM_BENCH_THIS ?? ROOT, name, body, benchProject());
  let afterSample: Sample | undefined;
  contenders.push(
    {
      name: `${ev} before`,
      run: (i) => {
        // Odd rounds: after runs first (its sample is handed to the next contender), then before.
        afterSample = i % 2 ? after() : undefined;
        return before();
      },
    },
    { name: `${ev} after`, run: () => afterSample ?? after() },
  );
}
const results = compare(contenders, rounds);
// CPU (user + system, GNU time's 10 ms ticks) averaged over many rounds resolves about 1 ms; a loaded machine's wall does not.
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
for (const [name, s] of results) console.log(`${name}: median wall ${median(s.map((x) => x.wallMs)).toFixed(2)} ms, mean CPU ${mean(s.map((x) => x.cpuMs)).toFixed(2)} ms (n=${s.length})`);
for (const ev of ['PreToolUse', 'PostToolUse']) {
  const b = results.get(`${ev} before`)!;
  const a = results.get(`${ev} after`)!;
  const d = a.map((x, i) => x.wallMs - b[i].wallMs);
  const c = a.map((x, i) => x.cpuMs - b[i].cpuMs);
  console.log(`${ev}: after - before, median of paired wall differences ${median(d).toFixed(3)} ms (range ${Math.min(...d).toFixed(2)} to ${Math.max(...d).toFixed(2)}); mean CPU difference ${mean(c).toFixed(2)} ms`);
}
