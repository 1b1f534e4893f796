// The non-Node fast path (issue 17 §4): hooks/<id> tries a warm `loom
// daemon` over its Unix socket with curl, and falls back to the Node runner
// whenever no daemon gives a real answer. Both paths run on the same real
// payloads and must print, exit and record the same; the fallback must hold
// when the daemon is stopped, killed -9 mid-request, a stale socket file, or
// answers garbage. Every process is real (daemon, curl, sh, node).
import { execa, execaSync } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, run, tempDir, type RunResult } from './helpers';
import { defaultSocketPath, socketKey } from '../src/serve/socket-path';

const root = tempDir('loom-fastpath-');
const runtime = join(root, 'run');
const home = join(root, 'home');
const project = join(root, 'proj');
for (const d of [runtime, home, project]) mkdirSync(d, { recursive: true, mode: 0o700 });
chmodSync(runtime, 0o700);

// A PATH with what the fast path needs and no node: an answer from it can only have come from the daemon.
const noNode = join(root, 'bin-no-node');
mkdirSync(noNode);
for (const tool of ['curl', 'head', 'rm']) {
  const found = execaSync('sh', ['-c', `command -v ${tool}`], { reject: false, stripFinalNewline: false }).stdout.trim();
  symlinkSync(found, join(noNode, tool));
}

const baseEnv: NodeJS.ProcessEnv = {
  HOME: home,
  XDG_RUNTIME_DIR: runtime,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_STATE_HOME: join(root, 'state'),
  LOOM_SOCKET: '',
  LOOM_FAST: '1',
  LOOM_DAEMON: '',
  GEMINI_PROJECT_DIR: '',
  CURSOR_PROJECT_DIR: '',
  FACTORY_PROJECT_DIR: '',
  CRUSH_PROJECT_DIR: '',
  LOOM_LEDGER_KEY_FILE: '',
  NODE_OPTIONS: '',
};

const loom = (args: string[], env: NodeJS.ProcessEnv = {}) => run(process.execPath, [CLI, ...args], null, { ...baseEnv, ...env }, project);

/** The wrapper hooks/<id>, run by `shell` in `cwd`. */
function wrapper(id: string, payload: string | Buffer, env: NodeJS.ProcessEnv = {}, cwd = project, shell = '/bin/sh'): Promise<RunResult> {
  return run(shell, [join(ROOT, 'hooks', id)], payload, { ...baseEnv, ...env }, cwd);
}
const viaNode = (id: string, payload: string, cwd = project) => wrapper(id, payload, { LOOM_FAST: '0' }, cwd);
const viaDaemon = (id: string, payload: string, env: NodeJS.ProcessEnv = {}, cwd = project, shell?: string) => wrapper(id, payload, { PATH: noNode, ...env }, cwd, shell);

const HOOK_OF: Record<string, string> = {
  pretooluse: 'pre-tool-guard',
  beforetool: 'pre-tool-guard',
  posttooluse: 'tool-audit',
  aftertool: 'tool-audit',
  userpromptsubmit: 'prompt-guard',
  userpromptsubmitted: 'prompt-guard',
  beforeagent: 'prompt-guard',
  sessionstart: 'session-audit',
  sessionend: 'session-audit',
  stop: 'stop-check',
  afteragent: 'stop-check',
};

/** Real payloads of several harnesses, their cwd moved into the test project. */
function realPayloads(): { name: string; hook: string; text: string }[] {
  const out = new Map<string, { name: string; hook: string; text: string }>();
  for (const dir of [join(ROOT, 'test/fixtures/real-payloads'), '/work/shared/fixtures/real-payloads']) {
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      const p = JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, unknown>;
      const event = String(p.hook_event_name ?? p.hookEventName ?? f.replace(/\.json$/, '').split('-').pop()).toLowerCase();
      const hook = HOOK_OF[event];
      if (!hook) continue;
      if ('cwd' in p) p.cwd = project;
      // A call that is denied and one that is allowed, whatever the fixture ran.
      out.set(`${dir.includes('shared') ? 'shared/' : ''}${f}`, { name: f, hook, text: JSON.stringify(p) });
    }
  }
  return [...out.entries()].map(([name, v]) => ({ ...v, name }));
}

/** The ledger as a reviewer reads it, without what differs between any two calls. */
async function records(): Promise<Record<string, unknown>[]> {
  const r = await loom(['history', '--json', '--project-dir', project]);
  if (r.code === 2 && /no ledger database/.test(r.stderr)) return [];
  expect(r.code, r.stderr).toBe(0);
  const strip = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(strip);
    if (v && typeof v === 'object') {
      const o: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (!['id', 'ts', 'seq', 'hash', 'prev_hash', 'duration_ms'].includes(k)) o[k] = strip(x);
      return o;
    }
    return v;
  };
  return (JSON.parse(r.stdout) as Record<string, unknown>[]).map((x) => strip(x) as Record<string, unknown>);
}

const socket = defaultSocketPath(project, baseEnv)!;

describe('the fast path through a warm daemon', () => {
  beforeAll(async () => {
    const r = await loom(['daemon', 'start', '--project-dir', project]);
    expect(r.code, r.stderr).toBe(0);
  }, 30_000);
  afterAll(async () => {
    await loom(['daemon', 'stop', '--project-dir', project]);
  }, 30_000);

  it('a daemon too slow to answer (stopped): the hook falls back to Node, and the call is recorded once, when the daemon comes back too (black-box round 4, F8)', async () => {
    const st = await loom(['daemon', 'status', '--project-dir', project]);
    const pid = Number(/pid (\d+)/.exec(st.stdout)?.[1]);
    expect(pid).toBeGreaterThan(0);
    const marker = `rm -rf / # once-${Date.now()}`;
    const payload = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: marker }, cwd: project });
    process.kill(pid, 'SIGSTOP');
    let r: RunResult;
    try {
      r = await wrapper('pre-tool-guard', payload, { LOOM_FAST_TIMEOUT: '2' });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('rm-recursive-root');
    // The daemon, running again, works through the request it was sent: it sees the hook gave up and records nothing.
    await new Promise((done) => setTimeout(done, 2500));
    const h = await loom(['history', '--json', '--project-dir', project]);
    expect(h.code, h.stderr).toBe(0);
    expect(h.stdout.split(marker).length - 1).toBe(1);
  }, 60_000);

  it('listens on a 0600 socket in a 0700 folder, named as the wrappers compute it', async () => {
    expect(socket).toBe(join(runtime, 'loom', `${socketKey(project)}.sock`));
    expect(statSync(socket).mode & 0o777).toBe(0o600);
    expect(statSync(join(runtime, 'loom')).mode & 0o777).toBe(0o700);
    const st = await loom(['daemon', 'status', '--project-dir', project]);
    expect(st.code).toBe(0);
    expect(st.stdout).toMatch(/running, ok, pid \d+/);
  });

  it('prints, exits and records exactly what the Node runner does, on real payloads of several harnesses', async () => {
    const payloads = realPayloads();
    expect(new Set(payloads.map((p) => p.name.split('-')[0].replace('shared/', ''))).size).toBeGreaterThanOrEqual(5);
    // Each payload also as a dangerous variant where it has a shell command: answers that block must match too.
    const cases = payloads.flatMap((p) => {
      const v = [p];
      if (/"command":/.test(p.text)) v.push({ ...p, name: `${p.name} (rm -rf /)`, text: p.text.replace(/"command":"(?:[^"\\]|\\.)*"/, '"command":"rm -rf /"') });
      return v;
    });
    const before = (await records()).length;
    let blocked = 0;
    for (const c of cases) {
      const node = await viaNode(c.hook, c.text);
      const fast = await viaDaemon(c.hook, c.text);
      expect({ name: c.name, code: fast.code, stdout: fast.stdout, stderr: fast.stderr }).toEqual({ name: c.name, code: node.code, stdout: node.stdout, stderr: node.stderr });
      if (node.code === 2 || /deny|block/.test(node.stdout)) blocked++;
    }
    expect(blocked).toBeGreaterThan(3);
    const recs = (await records()).slice(before);
    expect(recs.length).toBeGreaterThanOrEqual(cases.length * 2 - 2);
    // Node then daemon, call after call: the records come in equal pairs (same body, actor and project).
    const half = recs.length / 2;
    expect(Number.isInteger(half)).toBe(true);
    for (let i = 0; i < recs.length; i += 2) expect(recs[i + 1]).toEqual(recs[i]);
    expect(recs.some((r) => JSON.stringify(r).includes('"actor"'))).toBe(true);
    const verify = await loom(['verify', '--project-dir', project]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  }, 300_000);

  it('takes the harness project variable and the payload cwd as the runner does, and answers only for its own project', async () => {
    const elsewhere = tempDir('loom-fastpath-other-');
    const payload = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: elsewhere });
    // CLAUDE_PROJECT_DIR names this project: the daemon answers.
    const fast = await viaDaemon('pre-tool-guard', payload, { CLAUDE_PROJECT_DIR: project }, elsewhere);
    expect(fast.code, fast.stderr).toBe(0);
    // The payload's cwd is another project: pointed at this daemon's socket anyway, it declines and Node answers (there is no node here).
    const other = await viaDaemon('pre-tool-guard', payload, { LOOM_SOCKET: socket }, elsewhere);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('node is not on PATH');
    expect(existsSync(join(elsewhere, '.loom'))).toBe(false);
  });

  it('a user\'s ~/.curlrc and proxy variables change nothing', async () => {
    const h = join(root, 'home-curlrc');
    mkdirSync(h, { recursive: true });
    writeFileSync(join(h, '.curlrc'), `include\noutput = "${join(h, 'stolen')}"\nlocation\n`);
    const payload = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: project });
    const r = await viaDaemon('pre-tool-guard', payload, { HOME: h, http_proxy: 'http://127.0.0.1:9', HTTP_PROXY: 'http://127.0.0.1:9', ALL_PROXY: 'http://127.0.0.1:9' });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('rm-recursive-root');
    expect(existsSync(join(h, 'stolen'))).toBe(false);
  });

  it('works from bash and dash, for a project folder name full of shell metacharacters', async () => {
    const odd = join(root, `we'ird "$x" \\ *?[a] {b} ~ #%`);
    mkdirSync(odd);
    const started = await loom(['daemon', 'start', '--project-dir', odd]);
    expect(started.code, started.stderr).toBe(0);
    try {
      const payload = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: odd });
      for (const shell of ['/bin/sh', '/bin/bash', '/bin/dash'].filter((s) => existsSync(s))) {
        const r = await viaDaemon('pre-tool-guard', payload, {}, odd, shell);
        expect({ shell, code: r.code }).toEqual({ shell, code: 2 });
        expect(r.stderr).toContain('rm-recursive-root');
      }
    } finally {
      await loom(['daemon', 'stop', '--project-dir', odd]);
    }
  }, 60_000);

  it('refuses a socket folder others may write to, and a second daemon on a live socket', async () => {
    const open = join(root, 'open');
    mkdirSync(open, { mode: 0o777 });
    chmodSync(open, 0o777);
    const r = await loom(['serve', '--socket', join(open, 'x.sock'), '--project-dir', project]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/writable by group or others/);
    const second = await loom(['serve', '--socket', socket, '--project-dir', project]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(/already owns|already answers/);
  }, 30_000);
});

/** A stand-in daemon on a socket: behaves as told, for the cases a real one must never produce. */
function fakeDaemon(sock: string, behaviour: 'garbage' | 'half' | 'json' | 'status-500' | 'die' | 'allow'): Promise<{ d: ChildProcess }> {
  const code = `
    const http = require('node:http');
    // A socket file left by a stand-in killed with -9 before.
    try { require('node:fs').unlinkSync(process.argv[1]); } catch {}
    const s = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const b = process.argv[2];
        if (b === 'die') process.kill(process.pid, 'SIGKILL');
        else if (b === 'garbage') res.end('hello');
        else if (b === 'half') res.end('loom-answer 1 0\\n\\n');
        else if (b === 'json') res.end('{"hookSpecificOutput":{"permissionDecision":"allow"}}');
        else if (b === 'allow') res.end('loom-answer 1 0\\n\\n.');
        else { res.statusCode = 500; res.end('loom-answer 1 0\\n\\n.'); }
      });
    });
    s.listen(process.argv[1], () => process.stdout.write('ready\\n'));`;
  const child = execa(process.execPath, ['-e', code, sock, behaviour], { stdio: ['ignore', 'pipe', 'inherit'], reject: false, stripFinalNewline: false });
  return new Promise((resolve, reject) => {
    // an execa subprocess is itself a promise: resolving with it bare would wait for the daemon to exit
    child.stdout!.once('data', () => resolve({ d: child }));
    child.once('exit', (code) => reject(new Error(`the stand-in daemon exited (${code}) before listening`)));
  });
}

describe('the fallback to the Node runner', () => {
  // The runtime folder as `loom daemon start` leaves it (these cases also run alone, with -t).
  beforeAll(() => mkdirSync(join(runtime, 'loom'), { recursive: true, mode: 0o700 }));
  const dangerous = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, cwd: project });
  const expectNodeDeny = (r: RunResult) => {
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('rm-recursive-root');
  };

  it('no daemon: Node answers with the same payload (and leaves no copy behind)', async () => {
    expect(existsSync(socket)).toBe(false);
    expectNodeDeny(await wrapper('pre-tool-guard', dangerous));
    expect(readdirSync(join(runtime, 'loom')).filter((n) => n.startsWith('in.'))).toEqual([]);
  });

  it('a stale socket file (daemon killed with -9): Node answers; daemon start removes it', async () => {
    const { d } = await fakeDaemon(socket, 'garbage');
    d.kill('SIGKILL');
    await new Promise((r) => d.once('exit', r));
    expect(statSync(socket).isSocket()).toBe(true);
    expectNodeDeny(await wrapper('pre-tool-guard', dangerous));
    const started = await loom(['daemon', 'start', '--project-dir', project]);
    expect(started.code, started.stderr).toBe(0);
    const fast = await viaDaemon('pre-tool-guard', dangerous);
    expectNodeDeny(fast);
    expect((await loom(['daemon', 'stop', '--project-dir', project])).code).toBe(0);
    expect(existsSync(socket)).toBe(false);
  }, 60_000);

  for (const behaviour of ['die', 'garbage', 'half', 'json', 'status-500'] as const) {
    it(`a daemon that ${behaviour === 'die' ? 'is killed -9 mid-request' : `answers ${behaviour}`}: never an allow, Node judges the full payload`, async () => {
      const { d } = await fakeDaemon(socket, behaviour);
      try {
        // A large payload, so a half-read stdin would show.
        const big = JSON.stringify({ session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /', description: 'x'.repeat(300_000) }, cwd: project });
        expectNodeDeny(await wrapper('pre-tool-guard', big));
      } finally {
        d.kill('SIGKILL');
        await new Promise((r) => (d.exitCode !== null || d.signalCode ? r(undefined) : d.once('exit', r)));
      }
    }, 30_000);
  }

  it('an impostor on the socket answering allow in the exact shape is never asked unless the fast path is opted into', async () => {
    // Any process of the user can bind the socket when no daemon runs: the wrappers go there only with LOOM_FAST=1 or LOOM_DAEMON=auto.
    const { d } = await fakeDaemon(socket, 'allow');
    try {
      for (const off of [{ LOOM_FAST: '' }, { LOOM_FAST: '0' }, { LOOM_FAST: 'yes' }]) expectNodeDeny(await wrapper('pre-tool-guard', dangerous, off));
      // Opted in, the socket's answer is taken: the trust the user chose (docs/serve.md says what it rests on).
      const opted = await wrapper('pre-tool-guard', dangerous, { LOOM_FAST: '1' });
      expect(opted.code).toBe(0);
    } finally {
      d.kill('SIGKILL');
      await new Promise((r) => (d.exitCode !== null || d.signalCode ? r(undefined) : d.once('exit', r)));
    }
  }, 30_000);

  it('a payload with NUL bytes and invalid UTF-8 reaches Node byte for byte', async () => {
    const bad = Buffer.concat([Buffer.from('{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /'), Buffer.from([0, 0xff, 0xfe]), Buffer.from('"}}')]);
    const direct = await run(process.execPath, [join(ROOT, 'hooks', 'run-hook.js'), 'pre-tool-guard'], bad, { ...baseEnv }, project);
    const { d } = await fakeDaemon(socket, 'garbage');
    try {
      const viaWrapper = await wrapper('pre-tool-guard', bad);
      expect({ code: viaWrapper.code, stdout: viaWrapper.stdout, stderr: viaWrapper.stderr }).toEqual({ code: direct.code, stdout: direct.stdout, stderr: direct.stderr });
      expect(direct.code).toBe(2);
    } finally {
      d.kill('SIGKILL');
    }
  }, 30_000);

  it('LOOM_DAEMON=auto: a call without a daemon is answered by Node at once and starts one in the background; a stale socket too', async () => {
    const pidFile = socket.replace(/\.sock$/, '.pid');
    for (const stale of [false, true]) {
      if (stale) {
        const { d } = await fakeDaemon(socket, 'garbage');
        d.kill('SIGKILL');
        await new Promise((r) => d.once('exit', r));
        expect(statSync(socket).isSocket()).toBe(true);
      } else {
        rmSync(socket, { force: true });
      }
      const first = await wrapper('pre-tool-guard', dangerous, { LOOM_DAEMON: 'auto' });
      expectNodeDeny(first);
      let up = false;
      for (let i = 0; i < 300 && !up; i++) {
        up = (await loom(['daemon', 'status', '--project-dir', project])).code === 0;
        if (!up) await new Promise((r) => setTimeout(r, 100));
      }
      expect(up, stale ? 'after a stale socket' : 'after no socket').toBe(true);
      expect(existsSync(pidFile)).toBe(true);
      // Without node on PATH: only the daemon can have answered.
      expectNodeDeny(await viaDaemon('pre-tool-guard', dangerous, { LOOM_DAEMON: 'auto' }));
      expect((await loom(['daemon', 'stop', '--project-dir', project])).code).toBe(0);
      expect(existsSync(pidFile)).toBe(false);
    }
    // Not opted in: nothing is started.
    await wrapper('pre-tool-guard', dangerous);
    await new Promise((r) => setTimeout(r, 1500));
    expect(existsSync(socket)).toBe(false);
  }, 120_000);
});

afterAll(() => {
  // Leave no daemon behind whatever failed above.
  execaSync(process.execPath, [CLI, 'daemon', 'stop', '--project-dir', project], { env: { ...process.env, ...baseEnv }, reject: false, stripFinalNewline: false });
  writeFileSync(join(root, 'done'), '');
});
