// Issue 3: a PreToolUse invocation that appends to the ledger, its cost on a
// ledger that already holds 100,000 records, and verify throughput.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { verifyLedger } from '../../src/ledger/verify';
import { benchProject, compare, median, report, ROOT, sample } from './measure';
import { seedLedger } from './seed';

export async function benchLedger(): Promise<string[]> {
  const empty = benchProject();
  const full = benchProject();
  seedLedger(full, 100_000);
  const cfg = join(ROOT, 'scripts', 'bench', 'ledger-hooks.json');
  const payload = (p: string) => JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: p });
  const wrapper = join(ROOT, 'hooks', 'pre-tool-guard');
  const results = compare(
    [
      { name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') },
      { name: 'append, empty ledger', run: () => sample(wrapper, [], payload(empty), { LOOM_CONFIG: cfg, LOOM_PROJECT_DIR: empty }, empty) },
      { name: 'append, 100k-record ledger', run: () => sample(wrapper, [], payload(full), { LOOM_CONFIG: cfg, LOOM_PROJECT_DIR: full }, full) },
    ],
    40,
  );
  const lines = report('ledger: PreToolUse with a durable ledger append (issue 3)', results, 'node -e 0', {
    'append, empty ledger': { wall: 1.25 },
    'append, 100k-record ledger': { wall: 1.25 },
  });
  // Paired per round (both ran back to back), so drift of the shared machine cancels out.
  const emptyRuns = results.get('append, empty ledger')!;
  const fullRuns = results.get('append, 100k-record ledger')!;
  const flat = median(fullRuns.map((s, i) => s.wallMs / emptyRuns[i].wallMs));
  lines.push(`flat cost: 100k-record ledger / empty ledger, median of per-round ratios = ${flat.toFixed(3)} x (target <= 1.10: ${flat <= 1.1 ? 'met' : 'NOT met'})`);

  // verify throughput, in-process, against the CLI too
  const t0 = process.hrtime.bigint();
  const v = verifyLedger(full);
  const secs = Number(process.hrtime.bigint() - t0) / 1e9;
  lines.push(`verify: ${v.records} records in ${secs.toFixed(2)} s = ${Math.round(v.records / secs).toLocaleString('en-US')} records/s (target >= 100,000: ${v.records / secs >= 100_000 ? 'met' : 'NOT met'}), status ${v.status}`);
  const t1 = process.hrtime.bigint();
  execFileSync(process.execPath, [join(ROOT, 'bin', 'loom.js'), 'verify', '--project-dir', full], { stdio: 'ignore' });
  const cliSecs = Number(process.hrtime.bigint() - t1) / 1e9;
  lines.push(`loom verify (CLI, process start included): ${Math.round(v.records / cliSecs).toLocaleString('en-US')} records/s`);
  return lines;
}
