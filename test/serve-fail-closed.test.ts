// loom serve never answers a call it could not judge with "no decision":
// a huge command is analysed within a budget or refused (a block), stalled
// bodies cannot hold every slot, a payload it cannot read is a 200 block on
// events that can block. Real server process on 127.0.0.1.
import { execa } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, listeningUrl, run, RUNNER, tempDir } from './helpers';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

function start(args: string[]): Promise<{ url: string; project: string }> {
  const project = tempDir();
  const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project, ...args], { env: { ...process.env, LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
  children.push(child);
  return listeningUrl(child).then((url) => ({ url, project }));
}

function post(url: string, path: string, body: string | Buffer): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
      let b = '';
      res.on('data', (d) => (b += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: b ? JSON.parse(b) : {} }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const denied = (j: Record<string, unknown>) => (j.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision === 'deny';

describe('loom serve fails closed', () => {
  it('a 250 KB command is judged within the budget or refused as a block, and other clients are answered meanwhile', async () => {
    const s = await start([]);
    // Many short segments: the input the guard's analysis scales worst on.
    const huge = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls;'.repeat(83_000) } });
    const slow = post(s.url, '/hooks/PreToolUse', huge);
    const others = await Promise.all(Array.from({ length: 5 }, () => post(s.url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' } }))));
    for (const o of others) expect(denied(o.json)).toBe(true);
    const r = await slow;
    expect(r.status).toBe(200);
    expect(denied(r.json)).toBe(true);
    expect(JSON.stringify(r.json)).toMatch(/too large to analyse|longer than/);
  });

  it('unreadable bodies on a PreToolUse are a 200 block with the reason (and a 400 on an event that cannot block)', async () => {
    const s = await start([]);
    const deep = `{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"junk":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    for (const body of ['{"tool_name":"Bash","tool_input":{"command":"rm -rf /"', '[1]', deep, '{"tool_name":"Bash","tool_input":{"command":"rm -rf /"},"n":1e999,"tool_name":"constructor"}']) {
      const r = await post(s.url, '/hooks/PreToolUse', body);
      expect(r.status, body.slice(0, 60)).toBe(200);
      if (!body.includes('constructor')) expect(denied(r.json), body.slice(0, 60)).toBe(true);
    }
    expect((await post(s.url, '/hooks/PostToolUse', '{"a":')).status).toBe(400);
  });

  it('an empty body on a PreToolUse and a harness it does not know (?harness=constructor, bogus) are 200 blocks with the reason', async () => {
    const s = await start([]);
    const cmd = (c: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: c }, cwd: s.project });
    for (const body of ['', '   \n']) {
      const r = await post(s.url, '/hooks/PreToolUse', body);
      expect(r.status).toBe(200);
      expect(denied(r.json)).toBe(true);
      expect(JSON.stringify(r.json)).toContain('empty payload');
    }
    for (const h of ['constructor', 'toString', '__proto__', 'bogus']) {
      const r = await post(s.url, `/hooks/PreToolUse?harness=${h}`, cmd('ls'));
      expect(r.status, h).toBe(200);
      expect(denied(r.json), h).toBe(true);
      expect(JSON.stringify(r.json), h).toContain('unknown harness');
    }
    expect(denied((await post(s.url, '/hooks/PreToolUse?harness=claude', cmd('ls'))).json)).toBe(false);
  });

  it('loom serve --harness that no harness is refuses to start', async () => {
    const r = await run(process.execPath, [CLI, 'serve', '--port', '0', '--harness', 'bogus'], null, { LOOM_HARNESS: '' });
    // Every start-up failure of loom serve is exit 2, a bad flag too.
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--harness "bogus"');
  });

  it('256 half-sent bodies do not fill every slot: a live request is answered and the stalled ones get 408', async () => {
    const s = await start(['--max-in-flight', '16', '--request-timeout-ms', '4000']);
    const { hostname, port } = new URL(s.url);
    const stalled: { sock: Socket; out: string }[] = [];
    for (let i = 0; i < 256; i++) {
      const sock = connect(Number(port), hostname);
      const entry = { sock, out: '' };
      sock.on('data', (d) => (entry.out += d));
      sock.on('error', () => undefined);
      sock.write(`POST /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tool_name":`);
      stalled.push(entry);
    }
    // Once the stalled bodies have all arrived (on a loaded machine that takes a while), a live request evicts one of them.
    await new Promise((r) => setTimeout(r, 1500));
    const live = await post(s.url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(live.status).toBe(200);
    expect(denied(live.json), JSON.stringify(live.json)).toBe(false);
    // Within the request timeout every stalled body has its answer: a 408, or (never a slot) a 200 block, never a 5xx on PreToolUse.
    await new Promise((r) => setTimeout(r, 6000));
    const codes = stalled.map((e) => /^HTTP\/1\.1 (\d{3})/.exec(e.out)?.[1] ?? 'none');
    expect(codes.filter((c) => c === 'none')).toEqual([]);
    expect(codes.filter((c) => c === '408').length).toBeGreaterThan(0);
    expect(new Set(codes)).toEqual(new Set(codes.filter((c) => c === '408' || c === '200')));
    for (const e of stalled.filter((x) => x.out.startsWith('HTTP/1.1 200'))) expect(e.out).toMatch(/overloaded/);
    for (const e of stalled) e.sock.destroy();
  });

  it('one client cannot take every slot: its stalled bodies are held to its quota, another client is answered', async () => {
    const s = await start(['--max-in-flight', '8', '--max-per-client', '2', '--request-timeout-ms', '4000']);
    const { hostname, port } = new URL(s.url);
    const stalled: { sock: Socket; out: string }[] = [];
    // 20 half-sent bodies from 127.0.0.2 (another loopback address: another client).
    for (let i = 0; i < 20; i++) {
      const sock = connect({ port: Number(port), host: hostname, localAddress: '127.0.0.2' });
      const entry = { sock, out: '' };
      sock.on('data', (d) => (entry.out += d));
      sock.on('error', () => undefined);
      sock.write(`POST /hooks/PostToolUse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"tool_name":`);
      stalled.push(entry);
    }
    await new Promise((r) => setTimeout(r, 300));
    const live = await post(s.url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(live.status).toBe(200);
    expect(denied(live.json)).toBe(false);
    await new Promise((r) => setTimeout(r, 5000));
    const answers = stalled.map((e) => e.out.split('\r\n')[0] + ' ' + (/\{.*\}/.exec(e.out)?.[0] ?? ''));
    // Over its quota the client is refused (a 503 on an event that cannot block) or its own stalled body is evicted (408); the rest time out (408).
    expect(answers.filter((a) => /this client already has 2 requests in flight/.test(a)).length).toBeGreaterThan(0);
    expect(answers.every((a) => /^HTTP\/1\.1 (408|503) /.test(a))).toBe(true);
    for (const e of stalled) e.sock.destroy();
  });

  it('a PreToolUse whose headers end while the server stops is its block, not a 503; an event that cannot block keeps the 503', async () => {
    const project = tempDir();
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project], { env: { ...process.env, LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    children.push(child);
    const port = Number(new URL(await listeningUrl(child)).port);
    const body = (event: string) => JSON.stringify({ hook_event_name: event, session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd: project });
    // Two requests begun before SIGTERM, their headers finished after it (the server reads them while it drains).
    const begin = (event: string) => {
      const sock = connect(port, '127.0.0.1');
      let out = '';
      sock.on('data', (d) => (out += d));
      const closed = new Promise<string>((resolve) => sock.on('close', () => resolve(out)));
      sock.write(`POST /hooks/${event} HTTP/1.1\r\nHost: x\r\n`);
      return { finish: () => sock.write(`Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body(event))}\r\n\r\n${body(event)}`), closed };
    };
    const pre = begin('PreToolUse');
    const post = begin('PostToolUse');
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    pre.finish();
    post.finish();
    const [preOut, postOut] = await Promise.all([pre.closed, post.closed]);
    expect(preOut.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(preOut).toContain('"permissionDecision":"deny"');
    expect(preOut).toContain('shutting down');
    expect(postOut.split('\r\n')[0]).toBe('HTTP/1.1 503 Service Unavailable');
  }, 30_000);

  it('a socket that never sends a request is closed within the request timeout', async () => {
    const s = await start(['--request-timeout-ms', '1000']);
    const { hostname, port } = new URL(s.url);
    const sock = connect(Number(port), hostname);
    sock.on('error', () => undefined);
    const closed = await new Promise<boolean>((resolve) => {
      sock.on('close', () => resolve(true));
      setTimeout(() => resolve(false), 8000);
    });
    expect(closed).toBe(true);
  });
});

describe('loom serve with a ledger key over a plain ledger (as the hooks)', () => {
  it('a PreToolUse is a 200 block naming the unkeyed ledger and is not appended; a PostToolUse is recorded with the warning in the answer and once on stderr', async () => {
    const project = tempDir();
    // A plain ledger first (no key), written by a real hook process.
    const hook = await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', project], JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'x' } }), {});
    expect(hook.code, hook.stderr).toBe(0);
    // The live view (database and journal: the server's upkeep folds the journal as it goes).
    const events = async () => (await run(process.execPath, [CLI, 'history', '--project-dir', project, '--jsonl'], null, {})).stdout.trim().split('\n').filter(Boolean).map((l) => (JSON.parse(l) as { event: string }).event);
    expect(await events()).toEqual(['PostToolUse']);
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project], { env: { ...process.env, LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', LOOM_LEDGER_KEY: 'the project key, at least 16 bytes' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    children.push(child);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d));
    const url = await listeningUrl(child);
    const pre = await post(url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }));
    expect(pre.status).toBe(200);
    expect(denied(pre.json), JSON.stringify(pre.json)).toBe(true);
    expect(JSON.stringify(pre.json)).toMatch(/the ledger is unkeyed \(plain SHA-256\) while LOOM_LEDGER_KEY is set/);
    for (let i = 0; i < 2; i++) {
      const after = await post(url, '/hooks/PostToolUse', JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'x' } }));
      expect(after.status).toBe(200);
      expect(denied(after.json)).toBe(false);
      expect(JSON.stringify(after.json)).toMatch(/warning|unkeyed/);
      expect(JSON.stringify(after.json)).toMatch(/the ledger is unkeyed/);
    }
    // Nothing of the refused PreToolUse in the chain; both PostToolUse records are.
    expect(await events()).toEqual(['PostToolUse', 'PostToolUse', 'PostToolUse']);
    // Arriving together (one group commit): each request gets its own answer.
    const mixed = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? post(url, '/hooks/PostToolUse', JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: {} })) : post(url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } })))));
    expect(mixed.map((m, i) => (i % 2 ? !denied(m.json) : denied(m.json)))).toEqual(Array(8).fill(true));
    expect(await events()).toEqual(Array(7).fill('PostToolUse'));
    expect(stderr).toMatch(/loom serve: ledger: PreToolUse: could not record: .*the ledger is unkeyed/);
    expect(stderr.match(/loom serve: ledger: warning: .*the ledger is unkeyed/g)).toHaveLength(1);
  });
});
