// Issue 2: a PreToolUse invocation through the POSIX wrapper with a trivial
// handler, against `node -e 0`.
import { join } from 'node:path';
import { benchProject, compare, report, ROOT, sample } from './measure';

export async function benchRunner(): Promise<string[]> {
  const project = benchProject();
  const payload = JSON.stringify({ session_id: 'bench', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project });
  const cfg = join(ROOT, 'scripts', 'bench', 'trivial-hooks.json');
  const results = compare(
    [
      { name: 'node -e 0', run: () => sample(process.execPath, ['-e', '0'], '') },
      {
        name: 'wrapper, trivial handler, no ledger',
        run: () => sample(join(ROOT, 'hooks', 'pre-tool-guard'), [], payload, { LOOM_CONFIG: cfg, LOOM_PROJECT_DIR: project, LOOM_LEDGER: 'off' }, project),
      },
    ],
    40,
  );
  return report('runner: PreToolUse through the wrapper (issue 2)', results, 'node -e 0', {
    'wrapper, trivial handler, no ledger': { wall: 1.1, rss: 1.2 },
  });
}
