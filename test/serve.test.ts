import { execa } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BEHAVE, CLI, ROOT, run, runHook, tempDir, writeRegistry } from './helpers';

const TOKEN = 'test-token-0123456789abcdef';

interface Srv {
  child: ChildProcess;
  url: string;
  project: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

const servers: Srv[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.child.kill('SIGKILL');
});

function start(args: string[] = [], env: NodeJS.ProcessEnv = {}, project = tempDir()): Promise<Srv> {
  const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--project-dir', project, ...args], { env: { ...process.env, LOOM_SERVE_TOKEN: TOKEN, LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', ...env }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
  let err = '';
  const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/[^\s]+)/.exec(err);
      if (m) {
        const s = { child, url: m[1], project, stderr: () => err, exited };
        servers.push(s);
        resolve(s);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json?: Record<string, unknown>;
}

function call(url: string, path: string, body: string | Buffer | null, headers: Record<string, string> = {}, method = 'POST', agent?: Agent): Promise<Res> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { method, agent, headers: { ...(body !== null ? { 'content-type': 'application/json' } : {}), ...headers } }, (res) => {
      let b = '';
      res.on('data', (d) => (b += d));
      res.on('end', () => {
        let json: Record<string, unknown> | undefined;
        try {
          json = JSON.parse(b);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: b, json });
      });
    });
    req.on('error', reject);
    // A server that refuses a body (413) closes the connection while the client may still be writing it.
    req.on('socket', (sock) => sock.on('error', () => undefined));
    if (body !== null) req.end(body);
    else req.end();
  });
}

const auth = { authorization: `Bearer ${TOKEN}` };

/** Sends one hand-written HTTP/1.1 request (for request targets node:http would not produce); resolves with the raw answer. */
function rawRequest(url: string, requestLine: string, body: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sock = connect(Number(port), hostname, () => {
      sock.write(`${requestLine}\r\nHost: ${hostname}\r\nAuthorization: Bearer ${TOKEN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    });
    let out = '';
    sock.on('data', (d) => (out += d));
    sock.on('end', () => resolve(out));
    sock.on('error', reject);
  });
}

/** Every seq a reviewer can read: archived segments, then history.json. */
function readHistorySeqs(project: string): number[] {
  const dir = join(project, '.loom', 'compliance');
  const files = existsSync(join(dir, 'history')) ? readdirSync(join(dir, 'history')).filter((f) => /^segment-\d+-\d+\.json$/.test(f)).sort().map((f) => join(dir, 'history', f)) : [];
  files.push(join(dir, 'history.json'));
  return files.flatMap((f) => (JSON.parse(readFileSync(f, 'utf8')) as { seq: number }[]).map((r) => r.seq));
}
const pre = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'sess-h', tool_name: 'Bash', tool_input: { command } });

describe('loom serve', () => {
  it('health, metrics, and a decision in Claude Code JSON with status 200', async () => {
    const s = await start();
    expect((await call(s.url, '/healthz', null, {}, 'GET')).json).toEqual({ status: 'ok' });
    const deny = await call(s.url, '/hooks/PreToolUse', pre('rm -rf ~'), auth);
    expect(deny.status).toBe(200);
    expect(deny.json).toMatchObject({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' } });
    const allow = await call(s.url, '/hooks', pre('npm test'), auth);
    expect([allow.status, allow.json]).toEqual([200, {}]);
    // With a token set, /metrics needs it too.
    expect((await call(s.url, '/metrics', null, {}, 'GET')).status).toBe(401);
    const metrics = (await call(s.url, '/metrics', null, auth, 'GET')).body;
    expect(metrics).toMatch(/loom_decisions_total\{decision="deny"\} 1/);
    expect(metrics).toMatch(/loom_request_duration_seconds_count 2/);
    expect(metrics).toMatch(/loom_ledger_head_seq 2/);
  });

  it('requires the bearer token, compared in constant time (a block on an event that can block, 401 elsewhere)', async () => {
    const s = await start();
    for (const headers of [{}, { authorization: 'Bearer nope' }] as Record<string, string>[]) {
      const r = await call(s.url, '/hooks/PreToolUse', pre('ls'), headers);
      expect(r.status).toBe(200);
      expect(r.json).toEqual({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'unauthenticated: missing or wrong bearer token in the Authorization header' } });
      expect(r.headers['www-authenticate']).toBe('Bearer');
    }
    const wrong = await call(s.url, '/hooks/PostToolUse', JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' } }), { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toBe('Bearer');
  });

  it('records seed 004 headers and rejects bad ones naming the header', async () => {
    const s = await start();
    const ok = await call(s.url, '/hooks/PreToolUse', pre('ls'), { ...auth, 'Third-Party-User-Id': 'external-user-001', 'Turn-Id': 'turn-001', 'App-Version': '1.3.2' });
    expect(ok.status).toBe(200);
    const bad = await call(s.url, '/hooks/PostToolUse', pre('ls').replace('PreToolUse', 'PostToolUse'), { ...auth, 'Turn-Id': 'x'.repeat(300) });
    expect(bad.status).toBe(400);
    expect(bad.json!.error).toContain('header turn-id');
    // On an event that can block: the block, naming the header.
    const badPre = await call(s.url, '/hooks/PreToolUse', pre('ls'), { ...auth, 'Turn-Id': 'x'.repeat(300) });
    expect(badPre.status).toBe(200);
    expect(JSON.stringify(badPre.json)).toMatch(/"deny".*header turn-id/);
    const out = await new Promise<string>((resolve) => {
      const c = execa(process.execPath, [CLI, 'history', '--project-dir', s.project, '--json'], { reject: false, stripFinalNewline: false });
      let o = '';
      c.stdout.on('data', (d) => (o += d));
      c.on('close', () => resolve(o));
    });
    const rec = JSON.parse(out).find((r: { tool_call?: { client?: unknown } }) => r.tool_call?.client);
    expect(rec.tool_call.client).toEqual({ third_party_user_id: 'external-user-001', turn_id: 'turn-001', app_version: '1.3.2' });
    // who acted: the harness's user id and version, through the authenticated server
    expect(rec.tool_call.actor).toMatchObject({ client_user: 'external-user-001', harness_version: '1.3.2', via: 'loom serve', authenticated: 'bearer token' });
  });

  it('limits and bad input: 413, 415, 400, 404, 405', async () => {
    const s = await start();
    expect((await call(s.url, '/hooks/PostToolUse', Buffer.alloc(17 * 1024 * 1024, 0x20), auth)).status).toBe(413);
    // On an event that can block, a body loom cannot judge is that harness's block with the reason, never a 4xx the harness would shrug off.
    const big = await call(s.url, '/hooks/PreToolUse', Buffer.alloc(17 * 1024 * 1024, 0x20), auth);
    expect(big.status).toBe(200);
    expect(big.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(JSON.stringify(big.json)).toContain('over the 16777216-byte limit');
    expect((await call(s.url, '/hooks/PostToolUse', '{}', { ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    const typed = await call(s.url, '/hooks/PreToolUse', 'ls', { ...auth, 'content-type': 'text/plain' });
    expect(typed.status).toBe(200);
    expect(JSON.stringify(typed.json)).toMatch(/"deny".*content-type must be application\/json/);
    const bad = await call(s.url, '/hooks/PostToolUse', '{"a":', auth);
    expect(bad.status).toBe(400);
    expect(bad.json!.error).toMatch(/not valid JSON: .+/);
    const badPre = await call(s.url, '/hooks/PreToolUse', '{"a":', auth);
    expect(badPre.status).toBe(200);
    expect(JSON.stringify(badPre.json)).toMatch(/"permissionDecision":"deny".*not valid JSON/);
    // No event at all: one loom cannot name, which counts as one that can block.
    const noEvent = await call(s.url, '/hooks', '{}', auth);
    expect([noEvent.status, noEvent.json]).toEqual([200, { decision: 'block', reason: 'no event: POST /hooks/<event> or send hook_event_name in the body' }]);
    expect((await call(s.url, '/nope', '{}', auth)).status).toBe(404);
    expect((await call(s.url, '/hooks/PreToolUse', null, auth, 'GET')).status).toBe(405);
    // Unknown paths share one metrics label: a client can neither grow the label set nor write into it.
    for (let i = 0; i < 20; i++) expect((await call(s.url, `/x${i}%22%7D%0Aloom_fake%201`, '{}', auth)).status).toBe(404);
    const metrics = (await call(s.url, '/metrics', null, auth, 'GET')).body;
    expect(metrics).toContain('loom_requests_total{route="other",code="404"} 21');
    expect(metrics).not.toMatch(/loom_fake|route="\/x/);
    // An absolute-form target is routed by its path; one that is not a URL is a 400, not a hung request.
    expect((await rawRequest(s.url, 'POST http://loom.test/hooks/PreToolUse HTTP/1.1', pre('ls'))).split('\r\n')[0]).toContain('200');
    expect((await rawRequest(s.url, 'POST http://[bad/hooks HTTP/1.1', pre('ls'))).split('\r\n')[0]).toMatch(/ 400 /);
  });

  it('a policy edit reaches served decisions without a restart', async () => {
    const s = await start();
    const decisionOf = (r: Res) => (r.json?.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision;
    expect(decisionOf(await call(s.url, '/hooks/PreToolUse', pre('git clean -f'), auth))).toBe('ask');
    mkdirSync(join(s.project, '.loom'), { recursive: true });
    writeFileSync(join(s.project, '.loom', 'policy.json'), JSON.stringify({ rules: { 'git-clean': 'deny' } }));
    // The server trusts a loaded policy for POLICY_RECHECK_MS (250 ms); poll well past it.
    let decision: unknown;
    for (let i = 0; i < 40 && decision !== 'deny'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      decision = decisionOf(await call(s.url, '/hooks/PreToolUse', pre('git clean -f'), auth));
    }
    expect(decision).toBe('deny');
  });

  it('a slow client times out', async () => {
    const s = await start(['--request-timeout-ms', '300']);
    const status = await new Promise<number>((resolve) => {
      const req = request(s.url + '/hooks/PreToolUse', { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'content-length': '100' } }, (res) => resolve(res.statusCode ?? 0));
      req.on('error', () => resolve(-1));
      req.on('socket', (sock) => sock.on('error', () => undefined));
      req.write('{"hook_event_name":');
    });
    expect([408, -1]).toContain(status);
  });

  it('past N requests in flight (after a short wait for a slot): a block on PreToolUse, 503 with Retry-After on an event that cannot block', async () => {
    const cfg = writeRegistry({ PreToolUse: [{ id: 'slow', entry: BEHAVE, policy: { mode: 'sleep', ms: 2500 } }] });
    const s = await start(['--max-in-flight', '1', '--request-timeout-ms', '1000', '--config', cfg]);
    const later = (path: string, body: string) => new Promise<Res>((r) => setTimeout(() => r(call(s.url, path, body, auth)), 200));
    const [a, b, c] = await Promise.all([call(s.url, '/hooks/PreToolUse', pre('ls'), auth), later('/hooks/PreToolUse', pre('ls')), later('/hooks/PostToolUse', JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: {} }))]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    expect(JSON.stringify(b.json)).toMatch(/"deny".*loom serve is overloaded/);
    expect(c.status).toBe(503);
    expect(c.headers['retry-after']).toBe('1');
  });

  it('a request waits a moment for a slot rather than being refused at once', async () => {
    const cfg = writeRegistry({ PreToolUse: [{ id: 'slow', entry: BEHAVE, policy: { mode: 'sleep', ms: 300 } }] });
    const s = await start(['--max-in-flight', '1', '--config', cfg]);
    const [a, b] = await Promise.all([call(s.url, '/hooks/PreToolUse', pre('ls'), auth), new Promise<Res>((r) => setTimeout(() => r(call(s.url, '/hooks/PreToolUse', pre('ls'), auth)), 100))]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(JSON.stringify(b.json)).not.toMatch(/deny/);
  });

  it('without --project-dir, a payload cwd outside the projects root is refused', async () => {
    const root = tempDir('loom-root-');
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--projects-root', root], { env: { ...process.env, LOOM_SERVE_TOKEN: '', LOOM_PROJECT_DIR: '' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    let err = '';
    const url = await new Promise<string>((resolve) => child.stderr!.on('data', (d) => { err += d; const m = /listening on (http:\/\/\S+)/.exec(err); if (m) resolve(m[1]); }));
    try {
      const out = await call(url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/etc' }));
      // On an event that can block, the refusal is the harness's block with the reason (nothing written); elsewhere 400.
      expect(out.status).toBe(200);
      // /etc is refused twice over (outside the root, and a system folder): either reason is the refusal.
      expect(JSON.stringify(out.json)).toMatch(/"deny".*(?:not under the projects root|is a system folder)/);
      const post = await call(url, '/hooks/PostToolUse', JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: '/etc' }));
      expect(post.status).toBe(400);
      expect(post.json!.error).toMatch(/not under the projects root|is a system folder/);
      const proj = join(root, 'app');
      // A project is an existing folder: the server does not create one for a client.
      const missing = await call(url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: proj }));
      expect(missing.status).toBe(200);
      expect(JSON.stringify(missing.json)).toContain('"deny"');
      expect(existsSync(proj)).toBe(false);
      mkdirSync(proj);
      const ok = await call(url, '/hooks/PreToolUse', JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: proj }));
      expect(ok.status).toBe(200);
      // The jail is checked on real paths: a symlink under the root that points outside, `..` after resolution, Cursor's empty cwd with outside roots.
      const outside = tempDir('loom-outside-');
      symlinkSync(outside, join(root, 'escape'));
      const escapes: Record<string, unknown>[] = [
        { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: join(root, 'escape') },
        { hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: `${proj}/../../${outside.split('/').pop()}` },
        { hook_event_name: 'beforeShellExecution', conversation_id: 'c', command: 'ls', cwd: '', workspace_roots: [outside] },
        { hook_event_name: 'beforeShellExecution', conversation_id: 'c', command: 'ls', workspace_roots: [outside] },
      ];
      for (const p of escapes) {
        const r = await call(url, `/hooks/${p.hook_event_name}`, JSON.stringify(p));
        expect(r.status, JSON.stringify(p)).toBe(200);
        expect(JSON.stringify(r.json), JSON.stringify(p)).toMatch(/projects root/);
        expect(JSON.stringify(r.json), JSON.stringify(p)).not.toBe('{}');
      }
      expect(readdirSync(outside)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('refuses a non-loopback host without a token', async () => {
    const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--host', '0.0.0.0'], { env: { ...process.env, LOOM_SERVE_TOKEN: '' }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const code = await new Promise((r) => child.on('exit', r));
    expect(code).toBe(2);
    expect(err).toContain('refusing to listen on 0.0.0.0 without a token');
  });

  it('a ledger it cannot write: PreToolUse blocked with the reason, PostToolUse answered, counted in /metrics, /healthz not ok until it recovers', async () => {
    const s = await start();
    const dir = join(s.project, '.loom/compliance');
    // The journal's name taken by a folder: every append fails, even as root.
    mkdirSync(join(dir, 'journal.log'), { recursive: true });
    const blocked = await call(s.url, '/hooks/PreToolUse', pre('ls'), auth);
    expect(blocked.status).toBe(200);
    expect(blocked.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect(blocked.body).toContain('journal.log');
    const post = await call(s.url, '/hooks/PostToolUse', JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: '' } }), auth);
    expect(post.status).toBe(200);
    expect(post.body).not.toContain('"deny"');
    const metrics = await call(s.url, '/metrics', null, auth, 'GET');
    expect(metrics.body).toMatch(/^loom_ledger_failures_total 2$/m);
    const sick = await call(s.url, '/healthz', null, auth, 'GET');
    expect(sick.status).toBe(503);
    expect(sick.json).toMatchObject({ status: 'ledger-failing' });
    expect(s.stderr()).toMatch(/loom serve: ledger: PreToolUse: could not record: .*journal\.log/);
    rmSync(join(dir, 'journal.log'), { recursive: true });
    expect((await call(s.url, '/hooks/PreToolUse', pre('ls'), auth)).json).not.toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny' } });
    expect((await call(s.url, '/healthz', null, auth, 'GET')).status).toBe(200);
  });

  it('command hooks and the server on one project share one chain', async () => {
    const s = await start();
    const cfg = join(ROOT, 'config', 'hooks.json');
    const hookPayload = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'sess-cli', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: s.project });
    const work: Promise<unknown>[] = [];
    for (let i = 0; i < 6; i++) {
      work.push(call(s.url, '/hooks/PreToolUse', pre(`echo ${i}`), auth));
      work.push(runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', s.project], hookPayload));
    }
    await Promise.all(work);
    const v = await new Promise<string>((resolve) => {
      const c = execa(process.execPath, [CLI, 'verify', '--project-dir', s.project, '--json'], { reject: false, stripFinalNewline: false });
      let o = '';
      c.stdout.on('data', (d) => (o += d));
      c.on('close', () => resolve(o));
    });
    const r = JSON.parse(v);
    expect(r.status).toBe('intact');
    const sessions = new Set<string>();
    const h = await new Promise<string>((resolve) => {
      const c = execa(process.execPath, [CLI, 'history', '--project-dir', s.project, '--json'], { reject: false, stripFinalNewline: false });
      let o = '';
      c.stdout.on('data', (d) => (o += d));
      c.on('close', () => resolve(o));
    });
    for (const rec of JSON.parse(h) as { session_id: string }[]) sessions.add(rec.session_id);
    expect([...sessions].sort()).toEqual(['sess-cli', 'sess-h']);
    expect(r.records).toBe((JSON.parse(h) as unknown[]).length);
  });

  it('history.json catches up with the server within its sync interval', async () => {
    const s = await start();
    await call(s.url, '/hooks/PreToolUse', pre('ls'), auth);
    // The upkeep folds the journal 200 ms after a commit; a loaded machine may take longer to get there.
    const file = join(s.project, '.loom/compliance/history.json');
    let n = 0;
    for (let i = 0; i < 50 && n !== 1; i++) {
      await new Promise((r) => setTimeout(r, 100));
      n = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as unknown[]).length : 0;
    }
    expect(n).toBe(1);
  });

  it('100 parallel requests give 100 records with contiguous seq, and the chain verifies', async () => {
    const s = await start();
    const rs = await Promise.all(Array.from({ length: 100 }, (_, i) => call(s.url, '/hooks/PreToolUse', pre(`echo ${i}`), auth)));
    expect(rs.every((r) => r.status === 200)).toBe(true);
    const v = await new Promise<string>((resolve) => {
      const c = execa(process.execPath, [CLI, 'verify', '--project-dir', s.project, '--json'], { reject: false, stripFinalNewline: false });
      let o = '';
      c.stdout.on('data', (d) => (o += d));
      c.on('close', () => resolve(o));
    });
    expect(JSON.parse(v)).toMatchObject({ status: 'intact', records: 100, head: { seq: 100 } });
  });

  it('under sustained load the journal and the WAL stay small, history.json keeps up and nothing is lost', async () => {
    const s = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const dir = join(s.project, '.loom/compliance');
    let maxJournal = 0;
    let maxWal = 0;
    let journalSeen = false;
    const total = 4000;
    let sent = 0;
    const sample = () => {
      const j = statSync(join(dir, 'journal.log'), { throwIfNoEntry: false })?.size;
      if (j !== undefined) journalSeen = true;
      maxJournal = Math.max(maxJournal, j ?? 0);
      maxWal = Math.max(maxWal, statSync(join(dir, 'ledger.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
    };
    // 16 keep-alive clients in a loop: ~1 KB of journal per record, so a journal the upkeep never folded would pass 4 MB.
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (sent < total) {
          sent++;
          const r = await call(s.url, '/hooks/PreToolUse', pre(`echo ${sent}`), auth, 'POST', agent);
          expect(r.status).toBe(200);
          if (sent % 200 === 0) sample();
        }
      }),
    );
    agent.destroy();
    expect(journalSeen).toBe(true);
    expect(maxJournal).toBeLessThan(1024 * 1024);
    expect(maxWal).toBeLessThan(4 * 1024 * 1024);
    // The upkeep brings the database and the reviewer's view to the head shortly after the load stops.
    let seqs: number[] = [];
    for (let i = 0; i < 50 && seqs.length < total; i++) {
      await new Promise((r) => setTimeout(r, 100));
      seqs = readHistorySeqs(s.project);
    }
    expect(seqs).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const v = await run(process.execPath, [CLI, 'verify', '--project-dir', s.project, '--json'], null);
    expect(JSON.parse(v.stdout)).toMatchObject({ status: 'intact', records: total });
  });

  it('SIGTERM: finishes requests in flight, writes a checkpoint, exits 0', async () => {
    const cfg = writeRegistry({ PreToolUse: [{ id: 'slow', entry: BEHAVE, policy: { mode: 'sleep', ms: 600 } }] });
    const s = await start(['--config', cfg]);
    const inflight = call(s.url, '/hooks/PreToolUse', pre('ls'), auth);
    await new Promise((r) => setTimeout(r, 150));
    s.child.kill('SIGTERM');
    const res = await inflight;
    expect(res.status).toBe(200);
    expect(await s.exited).toBe(0);
    const cps = readFileSync(join(s.project, '.loom/compliance/checkpoints.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(cps.at(-1)).toMatchObject({ seq: 1, reason: 'server-shutdown' });
    expect(s.stderr()).toContain('checkpoint written at seq 1');
  });

  it('SIGTERM writes a checkpoint only when the head moved, and says which; a restart brings history.json to the head at once', async () => {
    const cfg = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const cps = (project: string) => readFileSync(join(project, '.loom/compliance/checkpoints.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { seq: number; reason: string });
    const a = await start(['--config', cfg]);
    for (let i = 0; i < 3; i++) expect((await call(a.url, '/hooks/PreToolUse', pre(`echo ${i}`), auth)).status).toBe(200);
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(cps(a.project).at(-1)).toMatchObject({ seq: 3, reason: 'server-shutdown' });
    // A command hook appends while no server runs: the journal holds seq 4, history.json does not yet.
    const hook = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', a.project], { ...JSON.parse(pre('echo hook')), cwd: a.project }, { LOOM_FOLD_EVERY: '1000' });
    expect(hook.code, hook.stderr).toBe(0);
    expect(readHistorySeqs(a.project)).toEqual([1, 2, 3]);
    const b = await start(['--config', cfg], {}, a.project);
    let seqs: number[] = [];
    for (let i = 0; i < 200 && seqs.length < 4; i++) {
      await new Promise((r) => setTimeout(r, 50));
      seqs = readHistorySeqs(a.project);
    }
    expect(seqs).toEqual([1, 2, 3, 4]);
    // The head moved (the hook's record) since the last checkpoint: this shutdown writes one.
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(cps(a.project).at(-1)).toMatchObject({ seq: 4, reason: 'server-shutdown' });
    expect(b.stderr()).toContain('checkpoint written at seq 4');
    // Nothing new: a third server's shutdown writes nothing and says so.
    const n = cps(a.project).length;
    const c = await start(['--config', cfg], {}, a.project);
    expect((await call(c.url, '/healthz', null, {}, 'GET')).status).toBe(200);
    c.child.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    expect(cps(a.project)).toHaveLength(n);
    expect(c.stderr()).toMatch(/none written/);
  });

  it('gives the same verdicts as the command runner on the real payloads', async () => {
    const s = await start();
    const fixtures = ['claude-PreToolUse', 'codex-PreToolUse', 'claude-UserPromptSubmit', 'claude-Stop'];
    const commands = ['rm -rf /', 'npm test', 'cat .env', 'git push --force origin main', 'ls -la'];
    for (const f of fixtures) {
      const base = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/real-payloads', `${f}.json`), 'utf8'));
      for (const command of base.tool_input ? commands : ['']) {
        const payload = base.tool_input ? { ...base, tool_input: { ...base.tool_input, command } } : base;
        const event = payload.hook_event_name;
        const viaRunner = await runHook(['--event', event, '--project-dir', tempDir()], payload);
        const viaServer = await call(s.url, `/hooks/${event}?harness=claude`, JSON.stringify(payload), auth);
        const runnerDenied = viaRunner.code === 2;
        const serverDenied = viaServer.json!.decision === 'block' || (viaServer.json!.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision === 'deny';
        expect(serverDenied, `${f} ${command}`).toBe(runnerDenied);
      }
    }
  });
});

describe('loom install --mode http', () => {
  it('wires Claude Code http hooks to the server with the token from an allowed env var, and removes them', async () => {
    const project = tempDir();
    const run = (args: string[]) => new Promise<number | null>((r) => execa(process.execPath, [CLI, ...args], { stdio: 'ignore', reject: false, stripFinalNewline: false }).on('exit', r));
    expect(await run(['install', '--harness', 'claude', '--mode', 'http', '--url', 'http://127.0.0.1:7077', '--project-dir', project])).toBe(0);
    const doc = JSON.parse(readFileSync(join(project, '.claude/settings.json'), 'utf8'));
    expect(doc.hooks.PreToolUse[0].hooks[0]).toEqual({ type: 'http', url: 'http://127.0.0.1:7077/hooks/PreToolUse', headers: { Authorization: 'Bearer $LOOM_SERVE_TOKEN' }, allowedEnvVars: ['LOOM_SERVE_TOKEN'], timeout: 30, onFailure: 'block' });
    expect(await run(['uninstall', '--harness', 'claude', '--project-dir', project])).toBe(0);
    // install created the file, so uninstall takes it away again
    expect(existsSync(join(project, '.claude/settings.json'))).toBe(false);
  });
});
