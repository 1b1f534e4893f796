// A test run must leave the repository's own specs/ as it found it: specs/
// holds loom's committed specs and handoffs, and a test that writes a
// handoff there (a hook run without a temp project folder, so the runner
// fell back to the process cwd) leaves debris that ends up committed. Every
// test writes into a temp project; this check, run after all test files
// (vitest globalSetup teardown), fails the run and names each file a test
// added, changed or removed.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';

const SPECS = join(__dirname, '..', 'specs');

export function snapshot(dir: string = SPECS): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(d, n);
      const st = statSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(relative(dir, p), createHash('sha256').update(readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

export function changes(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [p, h] of after) if (!before.has(p)) out.push(`added specs/${p}`);
  else if (before.get(p) !== h) out.push(`changed specs/${p}`);
  for (const p of before.keys()) if (!after.has(p)) out.push(`removed specs/${p}`);
  return out.sort();
}

/**
 * Variables a harness sets for the commands it runs: a test run started by an
 * agent working on loom (this repository's own .claude/settings.json governs
 * it) must not hand them to the hooks and CLIs the tests start, or their
 * records and handoffs would land in this repository instead of the tests'
 * temp projects. Cleared here, in the main process, before the test workers
 * are forked (they inherit the environment).
 */
export const HARNESS_VARIABLES = ['CLAUDE_PROJECT_DIR', 'GEMINI_PROJECT_DIR', 'CURSOR_PROJECT_DIR', 'QWEN_PROJECT_DIR', 'FACTORY_PROJECT_DIR', 'CRUSH_PROJECT_DIR', 'LOOM_PROJECT_DIR', 'LOOM_CONFIG', 'LOOM_HARNESS', 'LOOM_HOOK_SCOPE', 'LOOM_MANAGED_SETTINGS_DIR'];

export default function setup(): () => void {
  for (const v of HARNESS_VARIABLES) delete process.env[v];
  const before = snapshot();
  return () => {
    const diff = changes(before, snapshot());
    if (diff.length) {
      // vitest reports a teardown error but keeps its exit code: set it too.
      process.exitCode = 1;
      throw new Error(`the test run changed the repository's specs/ (a test must write handoffs into a temp project): ${diff.join(', ')}`);
    }
  };
}
