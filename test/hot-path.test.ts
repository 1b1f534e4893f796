// The command-hook path (issue 17 §2, §3), observed from outside with strace
// on a real hook process: it loads one bundle (the runner with the event's
// own handlers inlined), never opens the SQLite ledger or writes history.json
// (folding happens in a detached child every LOOM_FOLD_EVERY records), and the
// guard, running without a watchdog thread, still ends past its work budget
// in a block with a one-line reason.
import { execaSync } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, tempDir } from './helpers';

const WRAPPER = join(ROOT, 'hooks', 'pre-tool-guard');

function sandbox(): { project: string; env: NodeJS.ProcessEnv } {
  const home = tempDir('loom-hot-home-');
  const project = tempDir('loom-hot-');
  mkdirSync(join(project, 'src'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_RUNTIME_DIR: join(home, 'run'),
    LOOM_CHECKPOINT_DIR: join(home, 'checkpoints'),
    LOOM_CONFIG: '',
    LOOM_LEDGER_KEY: '',
    LOOM_PROJECT_DIR: project,
    NODE_OPTIONS: '',
  };
  return { project, env };
}

const payload = (project: string, command: string) => JSON.stringify({ session_id: 'hot', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: project });

/** One hook call under strace (the hook's Node process only): the files it opened and renamed, the threads it started. */
function traced(project: string, env: NodeJS.ProcessEnv, command: string): { code: number | null; stderr: string; opened: string[]; renamed: string[]; threads: number } {
  const dir = tempDir('loom-strace-');
  const log = join(dir, 'trace');
  // -ff: one file per process. The wrapper's shell runs node (it does not exec, so it can turn a crash into a block);
  // the hook is the process that exec'd run-hook.js; a detached fold child is another file, left out.
  const r = execaSync('strace', ['-qq', '-ff', '-s', '512', '-e', 'trace=execve,openat,open,rename,renameat,renameat2,clone,clone3', '-o', log, WRAPPER], { input: payload(project, command), env, reject: false, stripFinalNewline: false, extendEnv: false });
  if (r.exitCode === undefined && !r.signal) throw new Error(r.message);
  const files = readdirSync(dir).filter((n) => n.startsWith('trace.')).map((n) => readFileSync(join(dir, n), 'utf8'));
  const hook = files.find((t) => /^execve\("[^"]*node", \[[^\]]*run-hook\.js", "pre-tool-guard"/m.test(t));
  if (!hook) throw new Error(`no trace of the hook's node process among ${files.length} processes`);
  const lines = hook.split('\n');
  const paths = (re: RegExp) => lines.filter((l) => re.test(l)).map((l) => /"([^"]*)"/.exec(l)?.[1] ?? '');
  return {
    code: r.exitCode ?? null,
    stderr: r.stderr,
    opened: paths(/^open(at)?\(/).filter((p) => !/ENOENT/.test(p)),
    renamed: lines.filter((l) => /^rename/.test(l)),
    threads: lines.filter((l) => /^clone3?\(/.test(l)).length,
  };
}

function verify(project: string, env: NodeJS.ProcessEnv): { status: number | null; stdout: string } {
  const r = execaSync(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], { env, reject: false, stripFinalNewline: false, extendEnv: false });
  return { status: r.exitCode ?? null, stdout: r.stdout };
}

describe('the command-hook path', () => {
  it('loads one bundle with the guard inlined; no SQLite, no history.json; a detached child folds every LOOM_FOLD_EVERY records', () => {
    const { project, env } = sandbox();
    const every = { ...env, LOOM_FOLD_EVERY: '3' };
    const compliance = join(project, '.loom', 'compliance');
    const calls = [];
    for (let i = 0; i < 2; i++) calls.push(traced(project, every, `npm test -- --grep case-${i}`));
    // Below the fold threshold nothing folds: no database exists yet, and no hook touched one.
    expect(existsSync(join(compliance, 'ledger.db'))).toBe(false);
    calls.push(traced(project, every, 'git status --short'));
    for (const c of calls) {
      expect(c.code, c.stderr).toBe(0);
      const ours = c.opened.filter((p) => p.includes('/dist/'));
      expect(ours.filter((p) => p.endsWith('.js'))).toEqual([join(ROOT, 'dist', 'loader.js'), join(ROOT, 'dist', 'hot', 'pre-tool-guard.js')]);
      expect(c.opened.filter((p) => /ledger\.db|history\.json|better_sqlite3/.test(p))).toEqual([]);
      expect(c.renamed.filter((l) => /history|ledger\.db/.test(l))).toEqual([]);
    }
    // The third record crossed the threshold: the detached fold brings the database and history.json up.
    for (let i = 0; i < 200 && !existsSync(join(compliance, 'history.json')); i++) execaSync('sleep', ['0.05'], { reject: false, stripFinalNewline: false });
    expect(existsSync(join(compliance, 'ledger.db'))).toBe(true);
    expect(existsSync(join(compliance, 'history.json'))).toBe(true);
    const v = verify(project, env);
    expect(v.status, v.stdout).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ status: 'intact', records: 3 });
  });

  it('the guard runs without a watchdog thread; past its work budget the call is a block with a one-line reason, recorded', () => {
    const { project, env } = sandbox();
    const quick = traced(project, env, 'ls');
    // One function called 6,000 times: short input, work that multiplies past the budget.
    const huge = traced(project, env, `f(){ echo ${'a '.repeat(3000)}; }; ` + 'f;'.repeat(6000));
    expect(quick.code).toBe(0);
    // Node's own threads only (those `node -e 0` starts), for a trivial and a budget-breaking command alike.
    const log = join(tempDir('loom-strace-'), 'trace');
    execaSync('strace', ['-qq', '-e', 'trace=clone,clone3', '-o', log, process.execPath, '-e', '0'], { env, reject: false, stripFinalNewline: false, extendEnv: false });
    const nodeThreads = readFileSync(log, 'utf8').split('\n').filter((l) => /^clone3?\(/.test(l)).length;
    expect(quick.threads).toBe(nodeThreads);
    expect(huge.threads).toBe(nodeThreads);
    expect(huge.code).toBe(2);
    const lines = huge.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/too-complex: the command is too large to analyse in full \(more than [\d,]+ steps of analysis\)/);
    const v = verify(project, env);
    expect(v.status, v.stdout).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ status: 'intact', records: 2 });
  });
});
