// loom serve refuses with a block where the harness would otherwise run the
// call: events it cannot name, a wrong content type or header, a missing
// token, a cwd outside the projects root; slow headers get their 408 within
// the request timeout; one oversized command leaves no state behind for the
// next calls; a projects root that does not exist fails at start-up. Real
// server process on 127.0.0.1 (red-team findings 1, 3, 4, 7, 14 of issue 13).
import { execa } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, listeningUrl, run, tempDir } from './helpers';

const TOKEN = 'refusal-token-0123456789abcdef';
const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** A server for every git project under a fresh projects root (p1, p2), with a token unless `token: false`. */
async function start(args: string[] = [], token = true): Promise<{ url: string; root: string }> {
  const root = tempDir('loom-refusals-');
  for (const p of ['p1', 'p2']) {
    mkdirSync(join(root, p));
    await run('git', ['init', '-q'], null, {}, join(root, p));
  }
  const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--projects-root', root, ...args], { cwd: root, env: { ...process.env, LOOM_SERVE_TOKEN: token ? TOKEN : '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
  children.push(child);
  return listeningUrl(child).then((url) => ({ url, root }));
}

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  json: Record<string, unknown>;
  text: string;
}

function call(url: string, path: string, body: string | null, headers: Record<string, string> = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, method = 'POST'): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method, headers }, (res) => {
      let b = '';
      res.on('data', (d) => (b += d));
      res.on('end', () => {
        let json: Record<string, unknown> = {};
        try {
          json = b ? JSON.parse(b) : {};
        } catch {
          json = {};
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, json, text: b });
      });
    });
    req.on('error', reject);
    if (body !== null) req.end(body);
    else req.end();
  });
}

/** One hand-written request (for targets node:http would not send as given). */
function raw(url: string, target: string, body: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(port), hostname, () => sock.write(`POST ${target} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`));
    let out = '';
    sock.on('data', (d) => (out += d));
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
}

const bash = (command: string, cwd: string, event = 'PreToolUse') => JSON.stringify({ hook_event_name: event, session_id: 's', tool_name: 'Bash', tool_input: { command }, cwd });
const decision = (r: Res) => (r.json.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision ?? (r.json.decision === 'block' ? 'block' : 'none');
const reasonOf = (r: Res) => String((r.json.hookSpecificOutput as { permissionDecisionReason?: string } | undefined)?.permissionDecisionReason ?? r.json.reason ?? '');

async function headSeq(url: string): Promise<number> {
  const m = /loom_ledger_head_seq (\d+)/.exec((await call(url, '/metrics', null, { authorization: `Bearer ${TOKEN}` }, 'GET')).text);
  return Number(m?.[1]);
}

describe('loom serve: refusals are blocks where the event can block', () => {
  it('finding 1: after a 250 KB command, later calls in every project are judged as before and /healthz is truthful', async () => {
    const s = await start([], false);
    const p1 = join(s.root, 'p1');
    const p2 = join(s.root, 'p2');
    const noToken = { 'content-type': 'application/json' };
    const before = [await call(s.url, '/hooks/PreToolUse', bash('ls', p1), noToken), await call(s.url, '/hooks/PreToolUse', bash('ls;'.repeat(2640), p1), noToken)];
    expect(before.map(decision)).toEqual(['none', 'none']);
    const huge = await call(s.url, '/hooks/PreToolUse', bash('ls;'.repeat(83_333) + 'rm -rf /', p1), noToken);
    expect(huge.status).toBe(200);
    expect(decision(huge)).toBe('deny');
    for (let round = 0; round < 2; round++) {
      const after = [
        await call(s.url, '/hooks/PreToolUse', bash('ls', p1), noToken),
        await call(s.url, '/hooks/PreToolUse', bash('ls;'.repeat(2640), p1), noToken),
        await call(s.url, '/hooks/PreToolUse', bash('echo "$(git rev-parse HEAD)"', p1), noToken),
        await call(s.url, '/hooks/PreToolUse', bash('git status', p2), noToken),
      ];
      expect(after.map((r) => `${r.status} ${decision(r)} ${reasonOf(r)}`)).toEqual(['200 none ', '200 none ', '200 none ', '200 none ']);
      // A dangerous call is still denied for what it is, not "too complex".
      const rm = await call(s.url, '/hooks/PreToolUse', bash('rm -rf /', p2), noToken);
      expect(reasonOf(rm)).toMatch(/^rm-recursive-root/);
      if (round === 0) await call(s.url, '/hooks/PreToolUse', bash('ls;'.repeat(83_333), p2), noToken);
    }
    const health = await call(s.url, '/healthz', null, {}, 'GET');
    expect([health.status, health.json]).toEqual([200, { status: 'ok' }]);
  });

  it('finding 3: an event loom cannot name is the harness block, also through /hooks/<unknown> and an undecodable route', async () => {
    const s = await start();
    const p1 = join(s.root, 'p1');
    for (const e of ['Bogus', 'constructor', '__proto__', 'toString', 'hasOwnProperty', 'pretooluse']) {
      const body = bash('rm -rf /', p1).replace('"PreToolUse"', JSON.stringify(e));
      const viaBody = await call(s.url, '/hooks', body);
      expect([viaBody.status, decision(viaBody)], e).toEqual([200, 'block']);
      expect(reasonOf(viaBody)).toContain(`event "${e}" is not one loom knows`);
      // The route names an unknown event, the body a PreToolUse: Claude Code's own deny.
      const viaRoute = await call(s.url, `/hooks/${e}`, bash('rm -rf /', p1));
      expect([viaRoute.status, decision(viaRoute)], e).toEqual([200, 'deny']);
    }
    for (const target of ['/hooks/PreToolUse%00', '/hooks/PreToolUse%20', '/hooks/%ZZ']) {
      const out = await raw(s.url, target, bash('rm -rf /', p1));
      expect(out.split('\r\n')[0], target).toBe('HTTP/1.1 200 OK');
      expect(out, target).toMatch(/"permissionDecision":"deny"/);
    }
    // A harmless call with an unknown event is refused too (nothing could judge it), and recorded.
    expect(decision(await call(s.url, '/hooks', bash('ls', p1).replace('"PreToolUse"', '"Bogus"')))).toBe('block');
    expect(await headSeq(s.url)).toBe(16);
    // Known events keep their answers.
    expect(decision(await call(s.url, '/hooks', bash('ls', p1)))).toBe('none');
    expect((await call(s.url, '/hooks/PostToolUse', bash('ls', p1, 'PostToolUse'))).status).toBe(200);
  });

  it('black-box round 4: a route and a body naming two known events, one of which can block, are a block (a PreToolUse posted to /hooks/PostToolUse is not recorded as a PostToolUse)', async () => {
    const s = await start();
    const p1 = join(s.root, 'p1');
    for (const route of ['/hooks/PostToolUse', '/hooks/Notification', '/hooks/Stop']) {
      const r = await call(s.url, route, bash('rm -rf /', p1));
      // Answered as the event that can block (the route's Stop, else the body's PreToolUse): that event's block or deny.
      expect(r.status, route).toBe(200);
      expect(['deny', 'block'], route).toContain(decision(r));
      expect(reasonOf(r), route).toContain('which event this is cannot be told');
    }
    // The same event under two spellings is one event; a route loom cannot name gives way to the body's.
    expect(decision(await call(s.url, '/hooks/PreToolUse', bash('rm -rf /', p1)))).toBe('deny');
    expect((await call(s.url, '/hooks/PostToolUse', bash('ls', p1, 'PostToolUse'))).status).toBe(200);
  });

  it('finding 4: wrong content type, bad headers, no token, cwd outside the root: a block on PreToolUse, the 4xx elsewhere; unauthenticated ones counted, never recorded', async () => {
    const s = await start();
    const p1 = join(s.root, 'p1');
    const auth = { authorization: `Bearer ${TOKEN}` };
    const json = { ...auth, 'content-type': 'application/json' };
    const pre = bash('rm -rf /', p1);
    const post = bash('rm -rf /', p1, 'PostToolUse');
    const cases: [string, Record<string, string>, RegExp, number][] = [
      ['text/plain', { ...auth, 'content-type': 'text/plain' }, /content-type must be application\/json/, 415],
      ['form', { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, /content-type must be application\/json/, 415],
      ['no type', auth, /content-type must be application\/json/, 415],
      ['user id not ASCII', { ...json, 'third-party-user-id': 'caf\u00e9' }, /header third-party-user-id/, 400],
      ['turn id too long', { ...json, 'turn-id': 'a'.repeat(300) }, /header turn-id/, 400],
    ];
    for (const [name, headers, reason, status] of cases) {
      const r = await call(s.url, '/hooks/PreToolUse', pre, headers);
      expect([r.status, decision(r)], name).toEqual([200, 'deny']);
      expect(reasonOf(r), name).toMatch(reason);
      // Through /hooks too: the body names the event.
      const viaBody = await call(s.url, '/hooks', pre, headers);
      expect([viaBody.status, decision(viaBody)], name).toEqual([200, 'deny']);
      expect((await call(s.url, '/hooks/PostToolUse', post, headers)).status, name).toBe(status);
    }
    // Those refusals are recorded (the project is known): 10 blocks.
    const recorded = await headSeq(s.url);
    expect(recorded).toBe(10);
    // No token, an empty one, a wrong one: "unauthenticated", nothing else said, nothing recorded.
    const unauthenticated: Record<string, string>[] = [{ 'content-type': 'application/json' }, { authorization: 'Bearer ', 'content-type': 'application/json' }, { authorization: 'Bearer wrong-token-0123456789abcdef', 'content-type': 'text/plain' }];
    for (const headers of unauthenticated) {
      for (const path of ['/hooks/PreToolUse', '/hooks', '/hooks/Bogus']) {
        const r = await call(s.url, path, pre, headers);
        // The body of a request whose route names the event is not read: /hooks/Bogus gets the generic block.
        expect([r.status, decision(r)], path).toEqual([200, path === '/hooks/Bogus' ? 'block' : 'deny']);
        expect(reasonOf(r)).toBe('unauthenticated: missing or wrong bearer token in the Authorization header');
        expect(r.headers['www-authenticate']).toBe('Bearer');
      }
      // An unparsable body on /hooks: the event cannot be named, so a block too.
      const garbage = await call(s.url, '/hooks', '{"tool_name":', headers);
      expect([garbage.status, decision(garbage)]).toEqual([200, 'block']);
      // The 401 stays for events that cannot block (and /metrics): what monitoring can probe.
      const r401 = await call(s.url, '/hooks/PostToolUse', post, headers);
      expect(r401.status).toBe(401);
      expect(r401.headers['www-authenticate']).toBe('Bearer');
      expect((await call(s.url, '/hooks', post, headers)).status).toBe(401);
    }
    expect((await call(s.url, '/metrics', null, {}, 'GET')).status).toBe(401);
    const metrics = (await call(s.url, '/metrics', null, auth, 'GET')).text;
    expect(metrics).toContain('loom_refusals_total{reason="unauthenticated"} 18');
    expect(metrics).toContain('loom_refusals_total{reason="content-type"} 9');
    expect(metrics).toContain('loom_refusals_total{reason="header"} 6');
    expect(await headSeq(s.url)).toBe(recorded);
    // The projects-root jail: a block on PreToolUse naming the root, nothing written; 400 on PostToolUse.
    const outside = tempDir('loom-refusals-outside-');
    for (const cwd of ['/etc', outside, join(s.root, 'missing'), '', `${p1}/../../${outside.split('/').pop()}`]) {
      const r = await call(s.url, '/hooks/PreToolUse', bash('ls', cwd), json);
      expect([r.status, decision(r)], cwd).toEqual([200, 'deny']);
      expect(reasonOf(r), cwd).toMatch(/projects[ -]root/);
      expect((await call(s.url, '/hooks/PostToolUse', bash('ls', cwd, 'PostToolUse'), json)).status, cwd).toBe(400);
    }
    expect(readdirSync(outside)).toEqual([]);
    expect((await call(s.url, '/metrics', null, auth, 'GET')).text).toContain('loom_refusals_total{reason="projects-root"} 10');
  });

  it('finding 7: slow headers (one every 0.4 s) get the 408 within the request timeout and a small margin', async () => {
    const timeoutMs = 1500;
    const s = await start(['--request-timeout-ms', String(timeoutMs)]);
    const { hostname, port } = new URL(s.url);
    const sock = connect(Number(port), hostname);
    sock.on('error', () => undefined);
    const t0 = Date.now();
    sock.write('POST /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\n');
    let i = 0;
    const trickle = setInterval(() => sock.write(`X-Slow-${i++}: b\r\n`), 400);
    const got = await new Promise<{ ms: number; first: string }>((resolve) => {
      let out = '';
      sock.on('data', (d) => {
        out += d;
        resolve({ ms: Date.now() - t0, first: out.split('\r\n')[0] });
      });
      sock.on('close', () => resolve({ ms: Date.now() - t0, first: out.split('\r\n')[0] || 'closed without an answer' }));
      setTimeout(() => resolve({ ms: Date.now() - t0, first: 'no answer in 15 s' }), 15_000);
    });
    clearInterval(trickle);
    sock.destroy();
    expect(got.first).toBe('HTTP/1.1 408 Request Timeout');
    expect(got.ms).toBeGreaterThanOrEqual(timeoutMs - 50);
    expect(got.ms).toBeLessThan(timeoutMs + 1000);
  });

  it('finding 14: a projects root that does not exist, or is not a folder, fails at start-up with one line and exit 2', async () => {
    const missing = join(tempDir(), 'does-not-exist');
    for (const [root, said] of [
      [missing, 'does not exist'],
      [CLI, 'is not a folder'],
    ]) {
      const r = await run(process.execPath, [CLI, 'serve', '--port', '0', '--projects-root', root], null, { LOOM_SERVE_TOKEN: '' });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toBe(`loom serve: --projects-root ${root} ${said} (give an existing folder, or --project-dir)\n`);
    }
  });
});

describe('HTTP the parser refuses, on a hook route (black-box findings)', () => {
  /** Raw bytes to the server; the first answer it sends back. */
  const raw = (url: string, bytes: string) =>
    new Promise<string>((resolve) => {
      const u = new URL(url);
      const s = connect(Number(u.port), u.hostname, () => s.write(bytes));
      let got = '';
      s.on('data', (d) => (got += d.toString('latin1')));
      s.on('close', () => resolve(got));
      s.on('error', () => resolve(got));
      setTimeout(() => s.destroy(), 5000);
    });
  const body = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, session_id: 's' });

  it('headers over the limit, a body framed twice, bare LF lines: a 200 block on a blocking route, the status elsewhere', async () => {
    const { url } = await start();
    const cases = [
      `POST /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nCookie: ${'a'.repeat(17_000)}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      `POST /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      `POST /hooks HTTP/1.1\nHost: x\n\n`,
    ];
    for (const c of cases) {
      const answer = await raw(url, c);
      expect(answer.split('\r\n')[0], c.slice(0, 40)).toBe('HTTP/1.1 200 OK');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).decision, c.slice(0, 40)).toBe('block');
    }
    // An event that cannot block keeps the status: nothing to block there.
    const post = await raw(url, `POST /hooks/PostToolUse HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(17_000)}\r\n\r\n`);
    expect(post.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
  }, 30_000);

  it('no Host header, line ends of a bare CR (empty lines before the request line too), an absolute-form target, a lower-case method: still a 200 block on the PreToolUse route (found by the raw HTTP fuzz)', async () => {
    const { url, root } = await start();
    const b = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, session_id: 's', cwd: join(root, 'p1') });
    const cases = [
      `POST /hooks/PreToolUse HTTP/1.1\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`,
      `POST /hooks/PreToolUse HTTP/1.1\rHost: x\rContent-Length: ${Buffer.byteLength(b)}\r\r${b}`,
      `POST http://127.0.0.1/hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nX-Ctl: a\u0001b\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`,
      `post /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`,
      // Empty lines before the request line, ended as the rest are (bare CR; CI's seed found it).
      `\r\rPOST /hooks/PreToolUse HTTP/1.1\rHost: x\rContent-Length: ${Buffer.byteLength(b)}\r\r${b}`,
      `\n\r\n\rPOST /hooks/PreToolUse HTTP/1.1\nHost: x\nX-Ctl: a\u0001b\nContent-Length: ${Buffer.byteLength(b)}\n\n${b}`,
    ];
    for (const c of cases) {
      const answer = await raw(url, c);
      expect(answer.split('\r\n')[0], JSON.stringify(c.slice(0, 60))).toBe('HTTP/1.1 200 OK');
      expect(answer, JSON.stringify(c.slice(0, 60))).toMatch(/"decision":"block"|"permissionDecision":"deny"/);
    }
  }, 30_000);

  it('an Expect other than 100-continue is judged like any request, not a 417', async () => {
    const { url, root } = await start();
    const b = JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf /' }, session_id: 's', cwd: join(root, 'p1') });
    const answer = await raw(url, `POST /hooks/PreToolUse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nExpect: 200-ok\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`);
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(answer).toContain('rm-recursive-root');
  }, 30_000);
});

describe('the block in the client\'s own dialect (black-box finding G14)', () => {
  it('a Cursor payload gets Cursor\'s permission: deny beside Claude Code\'s fields; a Claude payload only Claude\'s', async () => {
    const { url, root } = await start();
    const cursor = await call(url, '/hooks/beforeShellExecution', JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'rm -rf ~', conversation_id: 'c1', workspace_roots: [join(root, 'p1')], cwd: join(root, 'p1') }));
    expect(cursor.status).toBe(200);
    expect(cursor.json.permission).toBe('deny');
    expect(String(cursor.json.agent_message)).toContain('rm-recursive-home');
    expect((cursor.json.hookSpecificOutput as Record<string, unknown>).permissionDecision).toBe('deny');
    const claude = await call(url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'rm -rf ~' }, cwd: join(root, 'p1') }));
    expect(Object.keys(claude.json)).toEqual(['hookSpecificOutput']);
    const allowed = await call(url, '/hooks/beforeShellExecution', JSON.stringify({ hook_event_name: 'beforeShellExecution', command: 'ls', conversation_id: 'c1', workspace_roots: [join(root, 'p1')], cwd: join(root, 'p1') }));
    expect(allowed.json.permission).toBe('allow');
  });
});
