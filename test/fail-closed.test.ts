// Nothing abnormal ends in "allow": the runner's catch-all, payload limits,
// prototype names where tables are indexed, hostile project folders. Real
// runner processes; a quick in-process fuzz (the chaos suite runs 10,000).
import { execaSync } from 'execa';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { processStart } from '../src/ledger/journal-lock';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { answerProblems, fuzzCase, isBlock } from './fuzz/payloads';
import { BEHAVE, CLI, ROOT, RUNNER, run, runHook, tempDir, writeRegistry } from './helpers';

const deep = (n: number) => '['.repeat(n) + ']'.repeat(n);
const dangerousDeep = (shape: Record<string, unknown>, depth = 5000) => JSON.stringify(shape).replace(/^\{/, `{"junk":${deep(depth)},`);

function records(project: string): Record<string, unknown>[] {
  // Records reach the database when the journal is folded: fold first, as a reader would.
  const f = execaSync(process.execPath, [CLI, 'fold', '--project-dir', project], { reject: false, stripFinalNewline: false });
  if (f.exitCode !== 0) throw new Error(`loom fold: ${f.stderr}`);
  const db = new Database(join(project, '.loom', 'compliance', 'ledger.db'), { readonly: true });
  try {
    return (db.prepare('SELECT body FROM records ORDER BY seq').all() as { body: string }[]).map((r) => JSON.parse(r.body));
  } finally {
    db.close();
  }
}

describe('the runner fails closed', () => {
  const shapes: [string, string, Record<string, unknown>][] = [
    ['claude', 'PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }],
    ['codex', 'PreToolUse', { hook_event_name: 'PreToolUse', turn_id: 't', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }],
    ['gemini', 'BeforeTool', { hook_event_name: 'BeforeTool', timestamp: 'x', tool_name: 'run_shell_command', tool_input: { command: 'rm -rf /' } }],
    ['cursor', 'beforeShellExecution', { hook_event_name: 'beforeShellExecution', conversation_id: 'c', command: 'rm -rf /' }],
  ];
  for (const [harness, event, shape] of shapes) {
    it(`a payload nested 5,000 levels deep is ${harness}'s block, recorded, in one line`, async () => {
      const project = tempDir();
      const r = await runHook(['--event', event, '--project-dir', project], dangerousDeep(shape));
      expect(isBlock({ exitCode: r.code, stdout: r.stdout, stderr: r.stderr })).toBe(true);
      expect(r.code).not.toBe(1);
      expect(r.stderr).toMatch(/nests deeper than 256 levels \(at \$\.junk\[0\]/);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      const recs = records(project);
      expect(recs).toHaveLength(1);
      expect(recs[0]).toMatchObject({ hook_id: 'pre-tool-guard', status: 'failed', decision: 'deny' });
    });
  }

  it('a deep payload on an event that cannot block is the documented exit 1, recorded', async () => {
    const project = tempDir();
    const r = await runHook(['--event', 'PostToolUse', '--project-dir', project], dangerousDeep({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^loom: stdin payload nests deeper/);
    expect(records(project)[0]).toMatchObject({ hook_id: 'tool-audit', decision: 'error' });
  });

  it('a stack overflow anywhere in the runner is a block, not exit 1 (real process with a small stack)', async () => {
    const project = tempDir();
    // 200 levels is under the payload limit; with 60 KB of stack the copy of the payload made for a
    // handler from outside the pack overflows (the pack's guard reads the payload without a copy).
    const body = dangerousDeep({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }, 200);
    const cfg = writeRegistry({ PreToolUse: [{ id: 'pre-tool-guard', entry: '../handlers/pre-tool-guard.cjs', blocking: true }, { id: 'elsewhere', entry: BEHAVE, blocking: true, policy: { mode: 'ok' } }] });
    const r = await run(process.execPath, ['--stack-size=60', RUNNER, '--event', 'PreToolUse', '--config', cfg, '--project-dir', project], body);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
  });

  it('tool names, events and command words that name Object.prototype members are plain data', async () => {
    const project = tempDir();
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const r = await runHook(['--event', 'PreToolUse', '--project-dir', project], { hook_event_name: 'PreToolUse', tool_name: name, tool_input: { command: 'ls' } });
      expect(r.code, `${name}: ${r.stderr}`).toBe(0);
      const s = await runHook(['--event', 'PreToolUse', '--project-dir', project], { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `${name} --help; ${name}` } });
      expect(s.code, `${name}: ${s.stderr}`).toBe(0);
    }
    const recs = records(project);
    expect(recs).toHaveLength(8);
    // A tool with a prototype name is an unknown tool, judged by its input (a command: shell), never Object's members.
    expect(recs.map((r) => (r.tool_call as { tool: string }).tool)).toEqual(['constructor', 'Bash', 'toString', 'Bash', '__proto__', 'Bash', 'hasOwnProperty', 'Bash']);
    expect(recs.every((r) => (r.tool_call as { tool_kind: string }).tool_kind === 'shell')).toBe(true);
    const v = await run(process.execPath, [CLI, 'verify', '--project-dir', project], null);
    expect(v.code).toBe(0);
  });

  it('a NUL byte inside a command hides nothing: bash drops it, and the command is judged without it (real process)', async () => {
    const project = tempDir();
    for (const command of ['rm -rf\u0000 /', 'rm -r\u0000f ~', 'git push --force\u0000 origin main', 'chmod -R\u0000 777 /']) {
      const r = await runHook(['--event', 'PreToolUse', '--project-dir', project], { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command } });
      expect(isBlock({ exitCode: r.code, stdout: r.stdout, stderr: r.stderr }), JSON.stringify(command)).toBe(true);
    }
    const fine = await runHook(['--event', 'PreToolUse', '--project-dir', project], { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls\u0000 -la' } });
    expect(fine.code).toBe(0);
    expect(records(project).map((r) => r.decision)).toEqual(['deny', 'deny', 'deny', 'deny', 'allow']);
  });

  it('1e999 in a payload is kept in the record as "Infinity", and the chain verifies', async () => {
    const project = tempDir();
    const body = '{"hook_event_name":"Notification","session_id":"s","message":"m","level":1e999,"title":-1e999}';
    const r = await runHook(['--event', 'Notification', '--project-dir', project], body);
    expect(r.code).toBe(0);
    const text = JSON.stringify(records(project));
    expect(text).toContain('"title":"-Infinity"');
    expect((await run(process.execPath, [CLI, 'verify', '--project-dir', project], null)).code).toBe(0);
  });

  it('a hostile cwd never becomes a project: nothing created in /, /proc/self, a missing path or a symlink loop', async () => {
    const home = tempDir();
    const loop = join(home, 'loop');
    symlinkSync(loop, loop);
    const missing = join(home, 'no', 'such', 'dir');
    for (const cwd of ['/', '/proc/self', missing, join(loop, 'x'), loop]) {
      const r = await run(process.execPath, [RUNNER, '--event', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd }), {}, home);
      expect(r.code, cwd).toBe(2);
    }
    expect(existsSync('/.loom')).toBe(false);
    expect(existsSync(join(home, 'no'))).toBe(false);
    // The process cwd (the harness starts hooks in the project) took the records instead.
    expect(records(home)).toHaveLength(5);
  });

  it('--project-dir naming a folder that does not exist is refused, not created', async () => {
    const base = tempDir();
    const missing = join(base, 'a', 'b');
    const r = await runHook(['--event', 'PreToolUse', '--project-dir', missing], { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`project folder ${missing} does not exist`);
    expect(existsSync(join(base, 'a'))).toBe(false);
  });

  it('quick fuzz: 300 malformed payloads in process, every answer documented, every dangerous call blocked', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'run'));
    const r = await run(join(ROOT, 'node_modules', '.bin', 'tsx'), [join(ROOT, 'test', 'fuzz', 'runner-driver.ts'), String(Date.now() % 100000), '300', dir], null, {}, join(dir, 'run'));
    const out = JSON.parse(r.stderr.trim().split('\n').pop()!);
    expect(out.failures).toEqual([]);
    expect(out.counts.cases).toBe(300);
    expect(out.counts.dangerous).toBeGreaterThan(100);
    expect(out.counts.blocked).toBe(out.counts.dangerous);
  });

  it('the fuzz oracle itself tells a block from an allow', () => {
    const c = fuzzCase(1, 0);
    expect(answerProblems({ ...c, dangerous: true, event: 'PreToolUse' }, { exitCode: 0, stdout: '', stderr: '' })).toContain('dangerous call not blocked');
    expect(answerProblems({ ...c, dangerous: true, event: 'PreToolUse' }, { exitCode: 1, stdout: '', stderr: 'x' })).toContain('exit 1 on an event that can block');
    expect(answerProblems({ ...c, dangerous: true, event: 'PreToolUse' }, { exitCode: 2, stdout: '', stderr: 'loom: x\n' })).toEqual([]);
    expect(isBlock({ exitCode: 0, stdout: '{"permission":"deny"}\n', stderr: '' })).toBe(true);
  });
});

// Red-team round 4 (findings 2, 11, 12): the real wrapper, a real project, real folders.
const GUARD = join(ROOT, 'hooks', 'pre-tool-guard');
const SESSION = join(ROOT, 'hooks', 'session-audit');

function gitProject(): string {
  const p = tempDir('loom-proj-');
  mkdirSync(join(p, '.git'));
  return p;
}

function hook(wrapper: string, body: string, env: NodeJS.ProcessEnv, args: string[] = []) {
  const r = execaSync(wrapper, args, { input: body,
    timeout: 15_000,
    env: { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_HARNESS: '', LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '', ...env }, reject: false, stripFinalNewline: false });
  return { code: r.exitCode, stdout: r.stdout, stderr: r.stderr, timedOut: r.timedOut };
}

const dangerous = (cwd: string) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd });

describe('a checkpoint folder that cannot be made (finding 2)', () => {
  for (const [name, env] of [
    ['LOOM_CHECKPOINT_DIR=/proc/nope/cp', { LOOM_CHECKPOINT_DIR: '/proc/nope/cp' }],
    ['XDG_STATE_HOME=/proc/nope', { XDG_STATE_HOME: '/proc/nope' }],
  ] as const) {
    it(`${name}: the deny is answered at once with a one-line checkpoint warning; the record is kept`, () => {
      const project = gitProject();
      const started = performance.now();
      const r = hook(GUARD, dangerous(project), { ...env, LOOM_CHECKPOINT_EVERY: '1', CLAUDE_PROJECT_DIR: project });
      expect(r.timedOut).toBe(false);
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('rm-recursive-root');
      const warn = r.stderr.split('\n').filter((l) => l.includes('checkpoint'));
      expect(warn).toHaveLength(1);
      expect(warn[0]).toMatch(/under \/proc/);
      expect(records(project)).toHaveLength(1);
    });
  }

  it('SessionEnd, loom checkpoint and loom report --out under /proc end with one line', () => {
    const project = gitProject();
    const env = { LOOM_CHECKPOINT_DIR: '/proc/nope/cp', CLAUDE_PROJECT_DIR: project };
    const s = hook(SESSION, JSON.stringify({ session_id: 's', hook_event_name: 'SessionEnd', cwd: project }), env);
    expect(s.timedOut).toBe(false);
    expect(s.code).toBe(0);
    expect(s.stderr).toMatch(/checkpoint .*under \/proc/);
    const cp = execaSync(process.execPath, [CLI, 'checkpoint', '--project-dir', project], { timeout: 15_000, env: { ...process.env, ...env }, reject: false, stripFinalNewline: false });
    expect(cp.timedOut).toBe(false);
    expect(cp.exitCode).toBe(1);
    expect(cp.stderr.trim().split('\n')).toHaveLength(1);
    for (const out of ['/proc/nope/x.html', '/etc/passwd/x.html']) {
      const rep = execaSync(process.execPath, [CLI, 'report', '--project-dir', project, '--out', out], { timeout: 15_000, reject: false, stripFinalNewline: false });
      expect(rep.timedOut).toBe(false);
      expect(rep.exitCode).toBe(2);
      expect(rep.stderr.trim().split('\n')).toHaveLength(1);
      expect(rep.stderr).toMatch(out.startsWith('/proc') ? /under \/proc/ : /is not a folder/);
    }
  });
});

describe('configuration errors and empty payloads on a guard (findings 11, 12)', () => {
  const cases: [string, NodeJS.ProcessEnv, string[]][] = [
    ['LOOM_HARNESS=bogus', { LOOM_HARNESS: 'bogus' }, []],
    ['LOOM_CONFIG=<missing file>', { LOOM_CONFIG: '/no/such/hooks.json' }, []],
    ['LOOM_CONFIG=<invalid JSON>', { LOOM_CONFIG: 'BAD' }, []],
    ['--harness without a value', {}, ['--harness']],
  ];
  for (const [name, given, args] of cases) {
    it(`${name}: PreToolUse is blocked (exit 2, one line), and recorded`, () => {
      const project = gitProject();
      const env = given.LOOM_CONFIG === 'BAD' ? { LOOM_CONFIG: writeRegistry('{"PreToolUse":[{"id":"x"') } : given;
      const r = hook(GUARD, dangerous(project), env, args);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain('configuration error');
      expect(records(project)).toHaveLength(1);
    });
  }

  it('an unknown hook id given to the runner: PreToolUse is blocked (exit 2, one line), and recorded', () => {
    const project = gitProject();
    const r = execaSync('node', [join(ROOT, 'dist', 'runner.js'), 'no-such-hook'], { input: dangerous(project), timeout: 15_000, env: { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_HARNESS: 'claude', LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '' }, reject: false });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('unknown hook id "no-such-hook"');
    expect(records(project)).toHaveLength(1);
  });

  it('an --event loom cannot name and no hook answers (a misspelling): PreToolUse is blocked and recorded, not a silent allow', () => {
    const project = gitProject();
    for (const e of ['pretooluse', 'Bogus', 'constructor']) {
      const r = execaSync('node', [join(ROOT, 'dist', 'runner.js'), '--event', e], { input: dangerous(project), timeout: 15_000, env: { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_HARNESS: '', LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '' }, reject: false });
      expect(r.exitCode, e).toBe(2);
      expect(r.stderr, e).toContain(`unknown event "${e}"`);
    }
    expect(records(project)).toHaveLength(3);
  });

  it('a configuration error on an event that cannot block stays the documented exit 1', () => {
    const project = gitProject();
    const r = hook(join(ROOT, 'hooks', 'tool-audit'), JSON.stringify({ hook_event_name: 'PostToolUse', cwd: project }), { LOOM_HARNESS: 'bogus' });
    expect(r.code).toBe(1);
  });

  it('empty and white-space stdin on the guard are a block ("empty payload"), recorded', () => {
    const project = gitProject();
    for (const body of ['', '  \n']) {
      const r = hook(GUARD, body, { CLAUDE_PROJECT_DIR: project });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('empty payload');
    }
    expect(records(project)).toHaveLength(2);
  });
});

describe('a journal.lock that names no live owner (findings 5, 13)', () => {
  const post = (cwd: string) => JSON.stringify({ session_id: 's', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: {}, cwd });
  const harmless = (cwd: string) => JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd });
  const doctor = (project: string) => execaSync(process.execPath, [CLI, 'doctor', '--project-dir', project], { timeout: 30_000, reject: false, stripFinalNewline: false });

  for (const content of ['garbage', '999999', '']) {
    it(`a lock holding ${JSON.stringify(content)} is set aside at once: no wait, nothing lost, doctor names it first`, () => {
      const project = gitProject();
      expect(hook(GUARD, harmless(project), {}).code).toBe(0);
      const dir = join(project, '.loom', 'compliance');
      writeFileSync(join(dir, 'journal.lock'), content);
      const d = doctor(project);
      expect(d.stdout).toMatch(/FAIL journal lock: stuck: .*journal\.lock names no owner/);
      const started = performance.now();
      const pre = hook(GUARD, harmless(project), {});
      const po = hook(join(ROOT, 'hooks', 'tool-audit'), post(project), {});
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(pre.code, pre.stderr).toBe(0);
      expect(po.code).toBe(0);
      expect(po.stderr).not.toMatch(/locked/);
      expect(existsSync(join(dir, 'journal.lock'))).toBe(false);
      expect(readdirSync(dir).filter((n) => n.startsWith('journal.lock.aside-'))).toHaveLength(1);
      expect(records(project)).toHaveLength(3);
    });
  }

  it('a lock held by a live process is never broken (the writer waits, then blocks)', () => {
    const project = gitProject();
    expect(hook(GUARD, harmless(project), {}).code).toBe(0);
    const ns = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? '0';
    const owner = `owner-${process.pid}-${processStart('self') || '0'}-${ns}-testtoken`;
    const lock = join(project, '.loom', 'compliance', 'journal.lock');
    writeFileSync(lock, owner);
    const r = hook(GUARD, harmless(project), { LOOM_LOCK_WAIT_MS: '300' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/stayed locked by pid/);
    expect(readFileSync(lock, 'utf8')).toBe(owner);
    expect(doctor(project).stdout).toMatch(/ok {3}journal lock: held by a live writer/);
  });

  it('a lock of another pid namespace is waited for while young, and broken once older than any writer holds it (black-box round 3, F4)', () => {
    const project = gitProject();
    expect(hook(GUARD, harmless(project), {}).code).toBe(0);
    const lock = join(project, '.loom', 'compliance', 'journal.lock');
    // pid 1 of a namespace this process cannot see: nothing here can say whether it lives.
    writeFileSync(lock, 'owner-1-1-4026539999-BBBBBBBBBBBB');
    const young = hook(GUARD, harmless(project), { LOOM_LOCK_WAIT_MS: '300' });
    expect(young.code).toBe(2);
    expect(doctor(project).stdout).toMatch(/ok {3}journal lock: held by a live writer/);
    const old = new Date(Date.now() - 2 * 3600_000);
    utimesSync(lock, old, old);
    expect(doctor(project).stdout).toMatch(/FAIL journal lock: stuck: .*held for \d+ s by pid 1 of another pid namespace/);
    const started = performance.now();
    const pre = hook(GUARD, harmless(project), {});
    const po = hook(join(ROOT, 'hooks', 'tool-audit'), post(project), {});
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(pre.code, pre.stderr).toBe(0);
    expect(po.stderr).not.toMatch(/locked/);
    expect(existsSync(lock)).toBe(false);
    // The first call, the young lock's block (it could not take the lock to record), the two after the break.
    expect(records(project).map((r) => r.decision ?? r.status)).toEqual(['allow', 'allow', 'succeeded']);
  });

  it('doctor says FAIL when hooks cannot record (the ledger folder is not a folder)', () => {
    const project = gitProject();
    mkdirSync(join(project, '.loom'));
    writeFileSync(join(project, '.loom', 'compliance'), 'not a folder');
    const d = doctor(project);
    expect(d.stdout).toMatch(/FAIL ledger writable: .* hooks cannot record/);
    expect(d.exitCode).not.toBe(0);
  });
});

describe('a payload cwd that is a system folder or no project (finding 9)', () => {
  it('/etc through a symlink, /usr/share, /var, /bin and $HOME never get a .loom/; the records go to the process cwd (the project)', () => {
    const project = gitProject();
    const home = tempDir('loom-home-');
    const links = tempDir('loom-links-');
    symlinkSync('/etc', join(links, 'etclink'));
    const cwds = [join(links, 'etclink'), '/usr/share', '/var', '/bin', home];
    for (const cwd of cwds) {
      const r = execaSync(GUARD, [], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd }), cwd: project, env: { ...process.env, HOME: home, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' }, reject: false, stripFinalNewline: false });
      expect(r.exitCode, `${cwd}: ${r.stderr}`).toBe(0);
    }
    for (const d of ['/etc', '/usr/share', '/var', '/bin', home]) expect(existsSync(join(d, '.loom')), d).toBe(false);
    expect(records(project)).toHaveLength(cwds.length);
  });

  it('an ordinary folder (a new project with no marker yet) is the agent\'s and gets the records; a subfolder of a repository records to the repository', () => {
    const project = gitProject();
    const plain = tempDir('loom-plain-');
    const sub = join(project, 'src');
    mkdirSync(sub);
    for (const cwd of [plain, sub]) {
      const r = execaSync(GUARD, [], { input: JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd }), cwd: project, env: { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' }, reject: false, stripFinalNewline: false });
      expect(r.exitCode, r.stderr).toBe(0);
    }
    expect(existsSync(join(plain, '.loom', 'compliance', 'journal.log'))).toBe(true);
    expect(existsSync(join(sub, '.loom'))).toBe(false);
    expect(existsSync(join(project, '.loom', 'compliance', 'journal.log'))).toBe(true);
  });

  it('a session working in a subfolder is governed by the project\'s policy and records to its one ledger (black-box finding G4)', () => {
    const project = gitProject();
    mkdirSync(join(project, '.loom'));
    writeFileSync(join(project, '.loom', 'policy.json'), JSON.stringify({ rules: { sudo: 'deny' } }));
    const deeper = join(project, 'packages', 'api', 'src');
    mkdirSync(deeper, { recursive: true });
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'sudo ls' }, cwd: deeper });
    const env = { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', QWEN_PROJECT_DIR: '' };
    for (const harness of ['codex', 'copilot', 'claude']) {
      const r = execaSync(process.execPath, [RUNNER, '--event', 'PreToolUse', '--harness', harness], { input: payload, cwd: deeper, env, reject: false });
      expect(r.stdout + r.stderr, harness).toMatch(/sudo/);
      expect(r.exitCode === 2 || /"deny"/.test(r.stdout), `${harness}: ${r.exitCode} ${r.stdout}`).toBe(true);
    }
    // Qwen Code names the project in its own variable.
    const other = gitProject();
    const q = execaSync(process.execPath, [RUNNER, '--event', 'PreToolUse', '--harness', 'qwen'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'q', tool_name: 'run_shell_command', tool_input: { command: 'sudo ls' } }), cwd: other, env: { ...env, QWEN_PROJECT_DIR: project }, reject: false });
    expect(q.exitCode === 2 || /"deny"/.test(q.stdout), q.stdout + q.stderr).toBe(true);
    expect(existsSync(join(deeper, '.loom'))).toBe(false);
    expect(existsSync(join(other, '.loom'))).toBe(false);
    expect(records(project).length).toBe(4);
    // The CLI run from that subfolder reads the same ledger the hooks wrote, and creates nothing there.
    const cliEnv = { ...env, HOME: tempDir('loom-home-'), LOOM_TEAM_URL: '' };
    const h = execaSync(process.execPath, [CLI, 'history', '--json'], { cwd: deeper, env: cliEnv, reject: false });
    expect(h.exitCode, h.stderr).toBe(0);
    expect(h.stdout).toMatch(/sudo ls/);
    const v = execaSync(process.execPath, [CLI, 'verify'], { cwd: deeper, env: cliEnv, reject: false });
    expect(v.exitCode, v.stdout + v.stderr).toBe(0);
    expect(existsSync(join(deeper, '.loom'))).toBe(false);
  });

  it("a nested repository or submodule inside a project with loom is governed by the project's policy and ledger (black-box adoption round 2, M3)", () => {
    const project = gitProject();
    mkdirSync(join(project, '.loom'));
    writeFileSync(join(project, '.loom', 'policy.json'), JSON.stringify({ rules: { sudo: 'deny' } }));
    const nested = join(project, 'vendor', 'lib');
    mkdirSync(join(nested, '.git'), { recursive: true });
    const env = { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', QWEN_PROJECT_DIR: '' };
    const r = execaSync(process.execPath, [RUNNER, '--event', 'PreToolUse', '--harness', 'codex'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', turn_id: 't', tool_name: 'Bash', tool_input: { command: 'sudo ls' }, cwd: nested }), cwd: nested, env, reject: false });
    expect(r.exitCode === 2 || /"deny"/.test(r.stdout), `${r.exitCode} ${r.stdout}`).toBe(true);
    expect(existsSync(join(nested, '.loom'))).toBe(false);
    expect(records(project)).toHaveLength(1);
  });

  it('a system folder named as the project (a flag or the process cwd) is refused: a block with one reason, nothing created', () => {
    const r = execaSync(GUARD, ['--project-dir', '/usr/share'], { input: dangerous('/usr/share'), env: { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '' }, reject: false, stripFinalNewline: false });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/project folder \/usr\/share is a system folder/);
    expect(existsSync('/usr/share/.loom')).toBe(false);
  });
});

describe('a key configured over a plain ledger (finding 15)', () => {
  it('PreToolUse is refused with one line naming the fix; PostToolUse is recorded with a warning', () => {
    const project = gitProject();
    const env = { CLAUDE_PROJECT_DIR: project };
    expect(hook(GUARD, JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo x' }, cwd: project }), env).code).toBe(0);
    const keyed = { ...env, LOOM_LEDGER_KEY: 'secretkey1234567890' };
    const pre = hook(GUARD, JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'echo x' }, cwd: project }), keyed);
    expect(pre.code).toBe(2);
    expect(pre.stderr.trim().split('\n')).toHaveLength(1);
    expect(pre.stderr).toMatch(/the ledger is unkeyed .* while LOOM_LEDGER_KEY is set.*unset the key/);
    const post = hook(join(ROOT, 'hooks', 'tool-audit'), JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'echo x' }, tool_response: {}, cwd: project }), keyed);
    expect(post.code).toBe(0);
    expect(post.stderr).toMatch(/the ledger is unkeyed/);
    expect(records(project).map((r) => r.event)).toEqual(['PreToolUse', 'PostToolUse']);
  });
});

describe('a keyed chain whose chain.json was deleted (black-box round 3, F5)', () => {
  it('a hook without the key blocks instead of appending plain records; with the key it goes on, and the chain stays keyed', () => {
    const project = gitProject();
    const keyed = { CLAUDE_PROJECT_DIR: project, LOOM_LEDGER_KEY: 'supersecretkey1234567890abcdef' };
    const pre = (command: string, env: NodeJS.ProcessEnv) => hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command }, cwd: project }), env);
    for (let i = 0; i < 3; i++) expect(pre(`echo ${i}`, keyed).code).toBe(0);
    const meta = join(project, '.loom', 'compliance', 'chain.json');
    rmSync(meta);
    const nokey = pre('ls nokey', { CLAUDE_PROJECT_DIR: project });
    expect(nokey.code).toBe(2);
    expect(nokey.stderr).toMatch(/the ledger is keyed \(HMAC\); set LOOM_LEDGER_KEY/);
    // Nothing written for a keyless writer: the keyed writer puts the description back.
    expect(existsSync(meta)).toBe(false);
    expect(pre('echo with-key', keyed).code).toBe(0);
    expect(JSON.parse(readFileSync(meta, 'utf8')).chain).toBe('hmac-sha256');
    const v = execaSync(process.execPath, [CLI, 'verify', '--project-dir', project], { env: { ...process.env, ...keyed }, reject: false, stripFinalNewline: false });
    expect(v.exitCode, v.stdout + v.stderr).toBe(0);
    expect(v.stdout).toMatch(/intact: 4 records/);
  });
});

function ledgerOf(n: number, env: NodeJS.ProcessEnv = {}): string {
  const project = gitProject();
  for (let i = 1; i <= n; i++) {
    const r = hook(GUARD, JSON.stringify({ session_id: 't', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `echo r${i}` }, cwd: project }), { CLAUDE_PROJECT_DIR: project, LOOM_CHECKPOINT_EVERY: '10', ...env });
    if (r.code !== 0) throw new Error(r.stderr);
  }
  const f = execaSync(process.execPath, [CLI, 'fold', '--project-dir', project], { reject: false, stripFinalNewline: false });
  if (f.exitCode !== 0) throw new Error(f.stderr);
  return project;
}

const verifyJson = (project: string) => {
  const r = execaSync(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], { reject: false, stripFinalNewline: false });
  return { status: r.exitCode, out: JSON.parse(r.stdout) as { status: string; problem?: { seq: number; kind: string } } };
};

describe('checkpoint copies outside the project removed (black-box round 3, F3)', () => {
  it('verify warns that the checkpoints live only inside the project, and doctor fails the check', () => {
    const state = tempDir('loom-state-');
    const env = { LOOM_CHECKPOINT_DIR: state };
    const project = ledgerOf(25, env);
    const run = (args: string[]) => execaSync(process.execPath, [CLI, ...args, '--project-dir', project], { env: { ...process.env, ...env }, reject: false, stripFinalNewline: false });
    expect(run(['verify']).stderr).not.toMatch(/outside copies/);
    expect(run(['doctor']).stdout).not.toMatch(/checkpoint copies/);
    for (const f of readdirSync(state)) if (f.endsWith('.checkpoints.jsonl')) rmSync(join(state, f));
    const v = run(['verify']);
    expect(v.exitCode).toBe(0);
    expect(v.stderr).toMatch(/warning: the outside copies of this ledger's checkpoints are missing \(.*\): its checkpoints live only inside the project/);
    expect(run(['doctor']).stdout).toMatch(/FAIL checkpoint copies: \d+ checkpoints in the project, none in .*: they live only inside the project/);
  });
});

describe('a chain.json that says something else than the database (black-box finding G7)', () => {
  it('garbage or another mode: hooks refuse to append, and verify names the file and what to write back; restored, intact again', () => {
    const project = ledgerOf(3);
    const file = join(project, '.loom', 'compliance', 'chain.json');
    const original = readFileSync(file, 'utf8');
    const detail = () => {
      const r = execaSync(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], { reject: false, stripFinalNewline: false });
      return { code: r.exitCode, problem: (JSON.parse(r.stdout) as { problem?: { kind: string; detail: string } }).problem };
    };
    writeFileSync(file, 'zz\n');
    expect(hook(GUARD, JSON.stringify({ session_id: 't', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), { CLAUDE_PROJECT_DIR: project }).code).toBe(2);
    const garbage = detail();
    expect(garbage.code).toBe(1);
    expect(garbage.problem?.kind).toBe('edited');
    expect(garbage.problem?.detail).toContain(`${file}: not a chain description`);
    writeFileSync(file, JSON.stringify({ chain: 'hmac-sha256', key_id: 'abc' }));
    const keyedClaim = detail();
    expect(keyedClaim.code).toBe(1);
    expect(keyedClaim.problem?.detail).toContain(`${file} says hmac-sha256, the database says sha256`);
    expect(keyedClaim.problem?.detail).toContain('write {"chain":"sha256"} back');
    writeFileSync(file, original);
    expect(detail().code).toBe(0);
  });
});

describe('verify names the right kind (finding 8)', () => {
  it('record 1 changed and re-hashed is edited, not restarted', () => {
    const project = ledgerOf(25);
    const db = new Database(join(project, '.loom', 'compliance', 'ledger.db'));
    db.exec('DROP TRIGGER IF EXISTS records_no_update');
    const old = (db.prepare('SELECT body FROM records WHERE seq = 1').get() as { body: string }).body;
    const body = old.replace('"decision":"allow"', '"decision":"deny"');
    expect(body).not.toBe(old);
    db.prepare('UPDATE records SET body = ?, hash = ? WHERE seq = 1').run(body, createHash('sha256').update(body).digest('hex'));
    db.close();
    const v = verifyJson(project);
    expect(v.status).toBe(1);
    expect(v.out.problem).toMatchObject({ seq: 1, kind: 'edited' });
  });

  it('ledger.db deleted with the journal kept is ledger-missing; verify creates no database and keeps history.json', () => {
    const project = ledgerOf(25);
    const dir = join(project, '.loom', 'compliance');
    for (const f of readdirSync(dir)) if (f.startsWith('ledger.db')) rmSync(join(dir, f));
    const history = readFileSync(join(dir, 'history.json'), 'utf8');
    const v = verifyJson(project);
    expect(v.status).toBe(1);
    expect(v.out.problem?.kind).toBe('ledger-missing');
    expect(existsSync(join(dir, 'ledger.db'))).toBe(false);
    expect(readFileSync(join(dir, 'history.json'), 'utf8')).toBe(history);
    expect(readdirSync(dir).filter((f) => f.includes('aside'))).toEqual([]);
  });
});

describe('the head witness in the state folder (finding 6)', () => {
  it('a tail cut after the last fold (no checkpoint yet) is tail-cut; a young ledger deleted and started again is restarted', () => {
    const project = ledgerOf(12, { LOOM_CHECKPOINT_EVERY: '1000' });
    expect(verifyJson(project).status).toBe(0);
    const dir = join(project, '.loom', 'compliance');
    const db = new Database(join(dir, 'ledger.db'));
    db.exec('DROP TRIGGER IF EXISTS records_no_delete');
    db.prepare('DELETE FROM records WHERE seq > 9').run();
    db.close();
    writeFileSync(join(dir, 'journal.log'), '');
    const cut = verifyJson(project);
    expect(cut.status).toBe(1);
    expect(cut.out.problem).toMatchObject({ seq: 10, kind: 'tail-cut' });

    const young = ledgerOf(6, { LOOM_CHECKPOINT_EVERY: '1000' });
    rmSync(join(young, '.loom', 'compliance'), { recursive: true });
    expect(hook(GUARD, JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: young }), { CLAUDE_PROJECT_DIR: young }).code).toBe(0);
    const re = verifyJson(young);
    expect(re.status).toBe(1);
    expect(re.out.problem?.kind).toBe('restarted');
  });
});

describe('a policy file that is not a regular file (black-box findings)', () => {
  it('a FIFO, a link to /dev/zero, a link to nothing or a folder as .loom/policy.json: the guard blocks at once, naming why', () => {
    const cases: [string, (f: string) => void, RegExp][] = [
      ['fifo', (f) => execaSync('mkfifo', [f]), /not a regular file/],
      ['/dev/zero', (f) => symlinkSync('/dev/zero', f), /not a regular file/],
      ['dangling link', (f) => symlinkSync(join(tempDir(), 'gone.json'), f), /a link to a file that does not exist/],
      ['folder', (f) => mkdirSync(f), /is a folder/],
      // A link to itself: one line in words, not the stat's own message (black-box round 3, F7).
      ['link loop', (f) => symlinkSync('policy.json', f), /invalid policy: .*policy\.json: too many symbolic links \(ELOOP\)/],
    ];
    for (const [name, make, why] of cases) {
      const project = gitProject();
      mkdirSync(join(project, '.loom'));
      make(join(project, '.loom', 'policy.json'));
      const r = hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), {});
      expect(r.timedOut, name).toBe(false);
      expect(r.code, name).toBe(2);
      expect(r.stderr, name).toMatch(why);
    }
  });
});

describe('a ledger folder that a link puts outside the project (black-box findings)', () => {
  it('.loom/compliance or .loom linked outside: the guard blocks naming the link, and nothing is written there', () => {
    for (const at of ['.loom/compliance', '.loom']) {
      const outside = tempDir('loom-outside-');
      const project = gitProject();
      if (at === '.loom/compliance') mkdirSync(join(project, '.loom'));
      symlinkSync(outside, join(project, at));
      const r = hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), {});
      expect(r.code, at).toBe(2);
      expect(r.stderr, at).toContain('outside the project');
      expect(readdirSync(outside), at).toEqual([]);
    }
  });

  it('journal.log as a link (to a file outside the project): the hook blocks naming it, and nothing is appended there (black-box round 3, F6)', () => {
    const project = gitProject();
    const outside = join(tempDir('loom-outside-'), 'stolen.log');
    writeFileSync(outside, '');
    mkdirSync(join(project, '.loom', 'compliance'), { recursive: true });
    symlinkSync(outside, join(project, '.loom', 'compliance', 'journal.log'));
    const r = hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/journal\.log: is a symbolic link/);
    expect(readFileSync(outside, 'utf8')).toBe('');
  });

  it('journal.log as a FIFO: the hook blocks saying it is not a regular file, never hangs (black-box round 4, F12)', () => {
    const project = gitProject();
    mkdirSync(join(project, '.loom', 'compliance'), { recursive: true });
    execaSync('mkfifo', [join(project, '.loom', 'compliance', 'journal.log')]);
    const r = hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), {});
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/journal\.log: not a regular file \(a FIFO\)/);
  });

  it('a link to a folder inside the project is followed', () => {
    const project = gitProject();
    mkdirSync(join(project, 'kept'));
    mkdirSync(join(project, '.loom'));
    symlinkSync(join(project, 'kept'), join(project, '.loom', 'compliance'));
    const r = hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), {});
    expect(r.code).toBe(0);
    expect(readdirSync(join(project, 'kept'))).toContain('journal.log');
  });
});

describe("the daemon's socket folder is loom's (black-box findings)", () => {
  it('removing, moving or binding again a socket under $XDG_RUNTIME_DIR/loom is denied; other sockets are not', () => {
    const project = gitProject();
    const xdg = tempDir('loom-xdg-');
    const call = (c: string) => hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: c }, cwd: project }), { XDG_RUNTIME_DIR: xdg });
    for (const c of [`rm -f ${xdg}/loom/p1.sock`, `mv ${xdg}/loom /tmp/elsewhere`, `socat UNIX-LISTEN:${xdg}/loom/p1.sock,fork EXEC:cat`]) expect(call(c).code, c).toBe(2);
    expect(call('socat UNIX-LISTEN:/tmp/other.sock,fork STDOUT').code).toBe(0);
  });
});

describe('a cut tail whose only trace is the history view (black-box findings)', () => {
  it('records cut from the database and journal, witnesses removed: the fold sets history.json aside and verify names the cut from it', async () => {
    const project = gitProject();
    const state = tempDir('loom-state-');
    const env = { XDG_STATE_HOME: state };
    for (let i = 0; i < 10; i++) expect(hook(GUARD, JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: `echo ${i}` }, cwd: project }), env).code).toBe(0);
    expect((await run(process.execPath, [CLI, 'history', '--project-dir', project], null, env)).code).toBe(0);
    const dir = join(project, '.loom', 'compliance');
    const db = new Database(join(dir, 'ledger.db'));
    db.exec('DROP TRIGGER IF EXISTS records_no_delete; DROP TRIGGER IF EXISTS records_no_update; DELETE FROM records WHERE seq > 7');
    const head = db.prepare('SELECT hash, body FROM records WHERE seq = 7').get() as { hash: string; body: string };
    db.close();
    writeFileSync(join(dir, 'journal.log'), `7 ${head.hash} ${head.body}\n`);
    rmSync(join(state, 'loom'), { recursive: true, force: true });
    for (let k = 0; k < 2; k++) {
      const v = await run(process.execPath, [CLI, 'verify', '--project-dir', project], null, env);
      expect(v.code, v.stdout + v.stderr).toBe(1);
      expect(v.stdout + v.stderr).toMatch(/tail-cut: .*history\.json\.aside-.*up to seq 10; the ledger ends at seq 7/);
    }
  });
});

describe('configuration errors in the dialect of the harness the hook names (black-box findings)', () => {
  it('--harness copilot with an unreadable registry or an unknown option: Copilot\'s block (a JSON deny on exit 0), not a bare exit 2', () => {
    const project = gitProject();
    const body = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd: project });
    for (const extra of [['--config', '/no/such/hooks.json'], ['--nope']]) {
      const r = execaSync('node', [join(ROOT, 'dist', 'runner.js'), 'pre-tool-guard', '--harness', 'copilot', ...extra], { input: body, timeout: 15_000, env: { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_HARNESS: '', LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '' }, reject: false });
      expect(r.exitCode, extra.join(' ')).toBe(0);
      const out = JSON.parse(r.stdout) as { permissionDecision?: string; permissionDecisionReason?: string };
      expect(out.permissionDecision, extra.join(' ')).toBe('deny');
      expect(out.permissionDecisionReason, extra.join(' ')).toContain('configuration error');
    }
  });
});

describe('a working folder removed under the process (black-box findings)', () => {
  // The shell enters the folder, removes it and only then starts loom, as an agent's `rm -rf` of its own worktree leaves it.
  const inRemoved = (args: string[], input = '') => {
    const dir = join(tempDir(), 'gone');
    mkdirSync(dir);
    return execaSync('sh', ['-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh', dir, process.execPath, ...args], { input, reject: false, env: { LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' } });
  };

  it('every reviewer command says so in one line and exits 2', () => {
    for (const cmd of ['history', 'verify', 'report', 'doctor', 'demo', 'export']) {
      const r = inRemoved([CLI, cmd]);
      expect(r.exitCode, cmd).toBe(2);
      expect(r.stderr.trim().split('\n'), cmd).toEqual([`loom ${cmd}: the current folder no longer exists (removed or renamed while in use); run loom from a folder that exists`]);
      expect(r.stdout, cmd).toBe('');
    }
  });

  it('a PreToolUse with no cwd in its payload is a block with that one reason; with a cwd it is judged and recorded there', () => {
    const payload = { hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } };
    const blind = inRemoved([RUNNER, '--event', 'PreToolUse'], JSON.stringify(payload));
    expect(blind.exitCode).toBe(2);
    expect(blind.stderr.trim().split('\n')).toEqual(['loom: the current folder no longer exists (removed or renamed while in use); run loom from a folder that exists']);
    const project = tempDir();
    const judged = inRemoved([RUNNER, '--event', 'PreToolUse'], JSON.stringify({ ...payload, cwd: project }));
    expect(judged.exitCode).toBe(2);
    expect(judged.stderr).toContain('rm-recursive-root');
    expect(records(project).some((b) => JSON.stringify(b).includes('rm-recursive-root'))).toBe(true);
  });
});

describe('loom without its compiled SQLite addon (black-box findings)', () => {
  it('readers of the database say the addon is missing in one line; report and evidence write no page of 0 records; hooks still answer and record', () => {
    // The package as installed, minus node_modules: the compiled better-sqlite3 file cannot be found.
    const pack = tempDir();
    for (const d of ['bin', 'dist', 'hooks', 'config', 'handlers', 'package.json']) execaSync('cp', ['-r', join(ROOT, d), pack]);
    const project = tempDir();
    const hook = execaSync(process.execPath, [join(pack, 'hooks', 'run-hook.js'), 'pre-tool-guard'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd: project }), reject: false });
    expect(hook.exitCode).toBe(2);
    // The live view reads the journal, which needs no addon: the hook's record is there.
    const history = execaSync(process.execPath, [join(pack, 'bin', 'loom.js'), 'history', '--project-dir', project], { reject: false });
    expect(history.stdout).toMatch(/deny\s+critical/);
    for (const cmd of ['export', 'report', 'evidence', 'fold', 'verify']) {
      const r = execaSync(process.execPath, [join(pack, 'bin', 'loom.js'), cmd, ...(cmd === 'export' ? ['--format', 'jsonl'] : []), '--project-dir', project], { reject: false });
      expect(r.exitCode, cmd).not.toBe(0);
      expect(r.stderr.trim().split('\n'), cmd).toEqual([`loom ${cmd}: ${join(project, '.loom', 'compliance', 'ledger.db')}: the SQLite addon (better-sqlite3) cannot be loaded (its compiled file is missing); reinstall loom with npm ci`]);
    }
    expect(existsSync(join(project, '.loom', 'reports', 'compliance.html'))).toBe(false);
    const doctor = execaSync(process.execPath, [join(pack, 'bin', 'loom.js'), 'doctor', '--project-dir', project], { reject: false });
    expect(doctor.stdout).toContain('FAIL better-sqlite3: the SQLite addon (better-sqlite3) cannot be loaded (its compiled file is missing)');
    // The fix works where loom is installed (no lock file there for npm ci); the ledger's line points at the addon, not at a key.
    expect(doctor.stdout).toContain(`-> fix: run npm rebuild better-sqlite3 in ${pack}`);
    expect(doctor.stdout).not.toContain('LOOM_LEDGER_KEY if the ledger is keyed');
  });
});

describe('a payload that never arrives (black-box findings)', () => {
  // The harness's pipe stays open: half a payload, or nothing. The hook must still answer, with a block, in time.
  const stalled = (harness: string, signal?: NodeJS.Signals) =>
    new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
      const project = tempDir();
      const t0 = Date.now();
      const child = spawn(process.execPath, [RUNNER, '--event', 'PreToolUse', '--harness', harness], { cwd: project, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, LOOM_STDIN_TIMEOUT_MS: '1500', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' } });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.stdin.write('{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /');
      if (signal) setTimeout(() => child.kill(signal), 400);
      child.on('exit', (code) => {
        child.stdin.destroy();
        resolve({ code, stdout, stderr, ms: Date.now() - t0 });
      });
    });

  it('half a payload and a pipe left open: a block with the reason once the deadline passes, not a hang', async () => {
    const r = await stalled('claude');
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('loom: the payload did not arrive on stdin within 1500 ms');
  }, 20_000);

  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${sig} while the payload is awaited: the harness's block, not death by the signal`, async () => {
      const claude = await stalled('claude', sig);
      expect(claude.code).toBe(2);
      expect(claude.stderr.trim()).toBe(`loom: stopped by ${sig} before the payload arrived`);
      const copilot = await stalled('copilot', sig);
      expect(copilot.code).toBe(0);
      expect(JSON.parse(copilot.stdout).permissionDecision).toBe('deny');
    }, 20_000);
  }
});

describe('files loom reads that an agent or a bad setting replaced with a FIFO or a device (black-box findings)', () => {
  const dangerous = (cwd: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd });
  const hook = (project: string, env: NodeJS.ProcessEnv) => execaSync(process.execPath, [RUNNER, '--event', 'PreToolUse', '--harness', 'claude'], { input: dangerous(project), cwd: project, timeout: 20_000, reject: false, env: { ...process.env, LOOM_FAST: '0', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_LEDGER_KEY: '', ...env } });

  it('LOOM_LEDGER_KEY_FILE or LOOM_CONFIG naming /dev/zero or a FIFO: a block naming the file, not a hang or a heap of zeros', () => {
    const fifo = join(tempDir(), 'fifo');
    execaSync('mkfifo', [fifo]);
    for (const env of [{ LOOM_LEDGER_KEY_FILE: '/dev/zero' }, { LOOM_LEDGER_KEY_FILE: fifo }, { LOOM_CONFIG: '/dev/zero' }, { LOOM_CONFIG: fifo }]) {
      const r = hook(tempDir(), env);
      expect(r.timedOut, JSON.stringify(env)).toBe(false);
      expect(r.exitCode, JSON.stringify(env)).toBe(2);
      expect(r.stderr, JSON.stringify(env)).toContain('not a regular file');
    }
  });

  it('a FIFO at ~/.gitconfig, .git/HEAD or the folder a .git file names: the guard still answers', () => {
    const home = tempDir();
    execaSync('mkfifo', [join(home, '.gitconfig')]);
    const project = tempDir();
    mkdirSync(join(project, '.git'));
    execaSync('mkfifo', [join(project, '.git', 'HEAD')]);
    const r = hook(project, { HOME: home, XDG_CONFIG_HOME: join(home, '.config') });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('rm-recursive-root');
  });

  it('verify and history with the journal or the database replaced by a FIFO: one line, exit non-zero, no hang', () => {
    const project = tempDir();
    for (let i = 0; i < 3; i++) hook(project, {});
    const dir = join(project, '.loom', 'compliance');
    rmSync(join(dir, 'journal.log'), { force: true });
    execaSync('mkfifo', [join(dir, 'journal.log')]);
    for (const cmd of ['verify', 'history']) {
      const r = execaSync(process.execPath, [CLI, cmd, '--project-dir', project], { timeout: 20_000, reject: false });
      expect(r.timedOut, cmd).toBe(false);
      expect(r.exitCode, cmd).not.toBe(0);
      expect(r.stderr, cmd).toContain('journal.log: not a regular file (a FIFO, a socket or a device); the journal was replaced');
    }
    rmSync(join(dir, 'journal.log'));
    for (const f of readdirSync(dir)) if (f.startsWith('ledger.db')) rmSync(join(dir, f));
    execaSync('mkfifo', [join(dir, 'ledger.db')]);
    const v = execaSync(process.execPath, [CLI, 'verify', '--project-dir', project], { timeout: 20_000, reject: false });
    expect(v.timedOut).toBe(false);
    expect(v.exitCode).toBe(2);
    expect(v.stderr).toContain('ledger.db: not a regular file');
  });

  it('a policy regex of three or more unbounded repetitions is refused at load, so a long argument cannot hang the guard', () => {
    const project = tempDir();
    mkdirSync(join(project, '.loom'));
    for (const policy of [{ sensitivePaths: ['/.*.*.*.*.*=$/'] }, { commandRules: [{ id: 'r', match: { command: 'echo', argPattern: '\\w*\\w*\\w*\\w*$' }, action: 'deny', reason: 'x' }] }]) {
      writeFileSync(join(project, '.loom', 'policy.json'), JSON.stringify(policy));
      const long = 'a'.repeat(3000) + '!';
      const r = execaSync(process.execPath, [RUNNER, '--event', 'PreToolUse', '--harness', 'claude'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: `echo ${long}; cat ${long}` }, cwd: project }), cwd: project, timeout: 20_000, reject: false, env: { ...process.env, LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' } });
      expect(r.timedOut).toBe(false);
      expect(r.exitCode).toBe(2);
      expect(r.stderr).toContain('polynomial backtracking');
    }
    // The bad rule is named by the file it is in and its place there, not its place after the packs' rules (black-box round 4).
    writeFileSync(join(project, '.loom', 'policy.json'), JSON.stringify({ commandRules: [{ id: 'a', match: { command: 'ls' }, action: 'ask' }, { id: 'b', match: { command: 'ls', argPattern: '(a+)+$' }, action: 'deny' }] }));
    const r = execaSync(process.execPath, [RUNNER, '--event', 'PreToolUse', '--harness', 'claude'], { input: JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), cwd: project, timeout: 20_000, reject: false, env: { ...process.env, LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' } });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`${join(project, '.loom', 'policy.json')}: $.commandRules[1].match.argPattern`);
  });
});

describe('an answer that cannot reach the harness (black-box findings)', () => {
  it("Copilot's JSON deny with stdout closed or going to /dev/null: exit 2 instead of 0 with nothing said; an allow stays 0", () => {
    const project = tempDir();
    const payload = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command }, cwd: project });
    for (const redirect of ['>&-', '>/dev/null']) {
      const sh = (command: string) => execaSync('sh', ['-c', `exec "$0" "$1" --event PreToolUse --harness copilot ${redirect}`, process.execPath, RUNNER], { input: payload(command), reject: false, env: { ...process.env, LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '' } });
      const blocked = sh('rm -rf /');
      expect(blocked.exitCode, redirect).toBe(2);
      // said on stderr, not a silent exit 2 (finding A25)
      expect(blocked.stderr.trim().split('\n'), redirect).toEqual([expect.stringMatching(/^loom: the answer could not be written to stdout .*blocked/)]);
      expect(sh('ls').exitCode, redirect).toBe(0);
    }
  });
});

describe('Node dying before the runner answers (black-box findings)', () => {
  // An abort or a segfault (a ulimit, a broken addon) kills Node before loom's own fail-closed code runs; the
  // status would reach the harness as 134 or 139, which Claude Code reads as "go ahead". A preloaded module that
  // kills its own process stands for the crash: a real Node, a real signal, at the moment the runner would start.
  const killer = (how: string) => {
    const f = join(tempDir(), 'die.cjs');
    writeFileSync(f, how);
    return `--require ${f}`;
  };
  const payload = (project: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: project });
  const env = (nodeOptions: string) => ({ ...process.env, NODE_OPTIONS: nodeOptions, LOOM_FAST: '0', LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', LOOM_CONFIG: '' });
  const deaths: [string, string, RegExp][] = [
    ['SIGSEGV', "process.kill(process.pid, 'SIGSEGV')", /exit 139/],
    ['abort', 'process.abort()', /exit 134/],
    ['SIGKILL', "process.kill(process.pid, 'SIGKILL')", /exit 137/],
  ];

  for (const [name, how, status] of deaths) {
    it(`${name}: the hooks/ wrapper and the installed command both block with one line naming the status`, async () => {
      const { hookCommand } = await import('../src/install/hook-command');
      const project = tempDir();
      const installed = hookCommand('claude', 'PreToolUse', { kind: 'absolute', runner: RUNNER });
      for (const [what, argv] of [
        ['wrapper', [join(ROOT, 'hooks', 'pre-tool-guard')]],
        ['installed command', ['sh', '-c', installed]],
      ] as const) {
        const r = execaSync(argv[0], argv.slice(1), { input: payload(project), cwd: project, env: env(killer(how)), reject: false, timeout: 20_000 });
        expect(r.exitCode, `${what}: ${r.stderr}`).toBe(2);
        expect(r.stderr.trim().split('\n').at(-1), what).toMatch(new RegExp(`^loom: the hook runner died \\(${status.source}\\) before answering\\. Blocked\\.$`));
      }
    });
  }

  it('a damaged install (the bundle throws as it loads: Node exits 1) blocks an event that can block through the installed command; elsewhere the 1 passes', async () => {
    const { hookCommand } = await import('../src/install/hook-command');
    const project = tempDir();
    const damaged = env(killer("throw new SyntaxError('Unexpected end of input')"));
    for (const harness of ['codex', 'claude', 'gemini']) {
      const pre = execaSync('sh', ['-c', hookCommand(harness, 'PreToolUse', { kind: 'absolute', runner: RUNNER })], { input: payload(project), cwd: project, env: damaged, reject: false, timeout: 20_000 });
      expect(pre.exitCode, `${harness}: ${pre.stderr}`).toBe(2);
      expect(pre.stderr.trim().split('\n').at(-1)).toBe('loom: the hook runner died (exit 1) before answering. Blocked.');
    }
    const post = execaSync('sh', ['-c', hookCommand('codex', 'PostToolUse', { kind: 'absolute', runner: RUNNER })], { input: payload(project), cwd: project, env: damaged, reject: false, timeout: 20_000 });
    expect(post.exitCode).toBe(1);
    // The hooks/ wrappers of hooks that answer an event that can block read a 1 the same way (black-box round 4).
    for (const id of ['pre-tool-guard', 'prompt-guard']) {
      const w = execaSync(join(ROOT, 'hooks', id), [], { input: payload(project), cwd: project, env: damaged, reject: false, timeout: 20_000 });
      expect(w.exitCode, `${id}: ${w.stderr}`).toBe(2);
      expect(w.stderr.trim().split('\n').at(-1)).toBe('loom: the hook runner died (exit 1) before answering. Blocked.');
    }
    expect(execaSync(join(ROOT, 'hooks', 'tool-audit'), [], { input: payload(project), cwd: project, env: damaged, reject: false, timeout: 20_000 }).exitCode).toBe(1);
  });

  it('a coverage folder Node cannot make does not hang the hook after its answer (NODE_V8_COVERAGE is cleared for it)', () => {
    const project = tempDir();
    const r = execaSync(join(ROOT, 'hooks', 'pre-tool-guard'), [], { input: payload(project), cwd: project, env: { ...env(''), NODE_V8_COVERAGE: '/proc/self/x' }, reject: false, timeout: 20_000 });
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('rm-recursive-root');
  });

  it('the runner\'s own answers pass through unchanged: 0 for an allow, 2 for a block, 1 for an error on an event that cannot block', async () => {
    const { hookCommand } = await import('../src/install/hook-command');
    const project = tempDir();
    const run = (event: string, body: Record<string, unknown>) =>
      execaSync('sh', ['-c', hookCommand('claude', event, { kind: 'absolute', runner: RUNNER })], { input: JSON.stringify({ session_id: 's', cwd: project, ...body }), cwd: project, env: env(''), reject: false, timeout: 20_000 });
    expect(run('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }).exitCode).toBe(0);
    expect(run('PreToolUse', { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }).exitCode).toBe(2);
    const post = execaSync('sh', ['-c', hookCommand('claude', 'PostToolUse', { kind: 'absolute', runner: RUNNER })], { input: deep(5000), cwd: project, env: env(''), reject: false, timeout: 20_000 });
    expect(post.exitCode).toBe(1);
  });
});

describe('a relative LOOM_CHECKPOINT_DIR (black-box finding G3)', () => {
  it('is ignored, never resolved inside the project where the agent writes; doctor says so and where checkpoints go', () => {
    const project = gitProject();
    const state = tempDir('loom-state-');
    const env = { CLAUDE_PROJECT_DIR: project, LOOM_CHECKPOINT_DIR: 'rel', XDG_STATE_HOME: state };
    for (let i = 0; i < 3; i++) expect(hook(GUARD, JSON.stringify({ session_id: 't', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), env).code).toBe(0);
    expect(existsSync(join(project, 'rel'))).toBe(false);
    expect(readdirSync(join(state, 'loom', 'checkpoints')).some((n) => n.endsWith('.appends.log'))).toBe(true);
    const doctor = execaSync(process.execPath, [CLI, 'doctor', '--project-dir', project], { cwd: project, env: { ...process.env, ...env }, reject: false });
    expect(doctor.stdout).toContain(`FAIL checkpoint dir: LOOM_CHECKPOINT_DIR=rel is not an absolute path: ignored`);
    expect(doctor.stdout).toContain(join(state, 'loom', 'checkpoints'));
  });
});
