// loom serve --team-url: stateless servers writing every decision to a real
// PostgreSQL before answering. Two real server processes on 127.0.0.1 share
// one store: every answered decision is there exactly once, each client's
// chain is total and gap-free across both, `loom verify --team` is intact;
// a store that goes away makes PreToolUse a block with the reason and the
// answers given meanwhile reach the store once it is back; the developer's
// path is never looked up on the server's disk.
import { execa } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers';
import { startPgServer, type PgServer } from './pg-server';
import { loom, query, roleUrl } from './team-helpers';

let pg: PgServer;
const WRITER_PW = 'writer-password-0123';
let writerUrl: string;
let tokenFile: string;
const TOKENS: Record<string, string> = { 'alice@laptop': 'tok-alice-0123456789abcdef', 'bob.ci': 'tok-bob-0123456789abcdefgh', 'carol-dev': 'tok-carol-0123456789abcdef' };
const children: ChildProcess[] = [];

beforeAll(async () => {
  pg = await startPgServer();
  const dir = tempDir();
  writeFileSync(join(dir, 'w'), WRITER_PW + '\n');
  const r = await loom(['team', 'init', '--writer', 'loom_ship', '--writer-password-file', join(dir, 'w')], { LOOM_TEAM_URL: pg.url });
  expect(r.code).toBe(0);
  writerUrl = roleUrl(pg.port, 'loom_ship');
  tokenFile = join(dir, 'clients');
  writeFileSync(tokenFile, '# client-id token\n' + Object.entries(TOKENS).map(([id, t]) => `${id} ${t}`).join('\n') + '\n');
}, 120_000);

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});
afterAll(() => pg?.destroy());

interface Served {
  url: string;
  spool: string;
  child: ChildProcess;
  stderr: () => string;
}

function serve(extra: string[] = []): Promise<Served> {
  const home = tempDir('loom-team-serve-home-');
  const spool = join(home, 'spool');
  const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--team-url', writerUrl, '--token-file', tokenFile, '--spool-dir', spool, ...extra], { cwd: home,
    env: { ...process.env, HOME: home, XDG_STATE_HOME: join(home, 'state'), PGPASSWORD: WRITER_PW, LOOM_TEAM_URL: '', LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', LOOM_LEDGER_KEY: '' },
    stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr!.on('data', (d) => {
      err += d;
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve({ url: m[1], spool, child, stderr: () => err });
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
  });
}

function post(url: string, event: string, body: unknown, token?: string): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (token) headers.authorization = `Bearer ${token}`;
    const req = request(`${url}/hooks/${event}`, { method: 'POST', headers }, (res) => {
      let b = '';
      res.on('data', (d) => (b += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: b ? JSON.parse(b) : {} }));
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const decisionOf = (j: Record<string, unknown>): string => (j.hookSpecificOutput as { permissionDecision?: string } | undefined)?.permissionDecision ?? 'allow';
const reasonOf = (j: Record<string, unknown>): string => String((j.hookSpecificOutput as { permissionDecisionReason?: string } | undefined)?.permissionDecisionReason ?? '');
const pre = (command: string, cwd: string, session = 's1') => ({ hook_event_name: 'PreToolUse', session_id: session, cwd, tool_name: 'Bash', tool_input: { command } });

interface StoredRow {
  ledger_id: string;
  seq: string;
  body: string;
  decision: string;
  actor_user: string;
}

async function stored(): Promise<StoredRow[]> {
  return query<StoredRow>(pg.url, "SELECT ledger_id, seq, body, decision, actor_user FROM loom.records WHERE ledger_id LIKE 'serve:%' ORDER BY ledger_id, seq");
}

/** The marker each test command carries, from a stored body (the command is in the record). */
const markerOf = (body: string): string | undefined => /req-[a-z]+-\d+/.exec(body)?.[0];

function expectGapFree(rows: StoredRow[]): void {
  const by = new Map<string, number[]>();
  for (const r of rows) by.set(r.ledger_id, [...(by.get(r.ledger_id) ?? []), Number(r.seq)]);
  for (const [, seqs] of by) expect(seqs).toEqual(seqs.map((_, i) => i + 1));
}

describe('loom serve --team-url', { timeout: 180_000 }, () => {
  it('two instances, three clients in parallel: every answered decision is in PostgreSQL exactly once, each client one gap-free chain, verify --team intact', async () => {
    // The budget is generous here: this test is about exactly-once under concurrency, not latency on a loaded machine.
    const [a, b] = await Promise.all([serve(['--team-budget-ms', '15000']), serve(['--team-budget-ms', '15000'])]);
    const clients = Object.keys(TOKENS);
    const sent: { marker: string; client: string; decision: Promise<string> }[] = [];
    for (let i = 0; i < 240; i++) {
      const client = clients[i % 3];
      const marker = `req-par-${i}`;
      // Allowed and denied commands; the developer's path does not exist on this machine.
      const command = i % 4 === 0 ? `rm -rf / # ${marker}` : `echo ${marker}`;
      const server = i % 2 ? a : b;
      sent.push({ marker, client, decision: post(server.url, 'PreToolUse', pre(command, `/home/${client}/work/repo-${i % 5}`), TOKENS[client]).then((r) => (expect(r.status).toBe(200), decisionOf(r.json) === 'deny' && !command.startsWith('rm') ? `deny: ${reasonOf(r.json)}` : decisionOf(r.json))) });
    }
    const answers = await Promise.all(sent.map((s) => s.decision));
    expect(answers.filter((d) => d.startsWith('deny: '))).toEqual([]);
    expect(answers.filter((d) => d === 'deny').length).toBe(60);
    const rows = await stored();
    const byMarker = new Map<string, StoredRow[]>();
    for (const r of rows) {
      const m = markerOf(r.body);
      if (m) byMarker.set(m, [...(byMarker.get(m) ?? []), r]);
    }
    sent.forEach((s, i) => {
      const got = byMarker.get(s.marker) ?? [];
      expect(got.length, s.marker).toBe(1);
      expect(got[0].decision).toBe(answers[i]);
      expect(got[0].ledger_id).toBe(`serve:${s.client}`);
      expect(got[0].actor_user).toBe(s.client);
      const body = JSON.parse(got[0].body);
      const data = body[body.kind];
      expect(data.actor.client_id).toBe(s.client);
      expect(data.project_path).toMatch(new RegExp(`^/home/${s.client}/work/repo-\\d$`));
    });
    expectGapFree(rows);
    expect(existsSync(`/home/${clients[0]}`)).toBe(false);
    const v = await loom(['verify', '--team'], { LOOM_TEAM_URL: pg.url });
    expect(v.stdout).toMatch(/ok\s+ledger serve:alice@laptop/);
    expect(v.code).toBe(0);
  });

  it('one instance extending a client alone commits in one round trip on the head it wrote; another instance writing meanwhile makes that insert take nothing, and the batch goes again on the head read under the lock', async () => {
    const [a, b] = await Promise.all([serve(['--team-budget-ms', '15000']), serve(['--team-budget-ms', '15000'])]);
    const client = 'carol-dev';
    await query(pg.url, "ALTER SYSTEM SET log_statement = 'all'");
    await query(pg.url, 'SELECT pg_reload_conf()');
    await new Promise((r) => setTimeout(r, 300));
    const logBefore = readFileSync(join(pg.dir, 'log'), 'utf8').length;
    const answers: string[] = [];
    const send = async (s: Served, n: number) => {
      for (let i = 0; i < n; i++) answers.push(decisionOf((await post(s.url, 'PreToolUse', pre(`echo req-sole-${answers.length}`, '/home/carol/work/repo', 'sole'), TOKENS[client])).json));
    };
    await send(a, 6); // a alone: after its first batch, one round trip each
    await send(b, 3); // b extends the same chain
    await send(a, 6); // a's first batch is on a stale head: refused by the key, then written on the real head
    expect(answers).toEqual(Array(15).fill('allow'));
    await query(pg.url, 'ALTER SYSTEM RESET log_statement');
    await query(pg.url, 'SELECT pg_reload_conf()');
    const log = readFileSync(join(pg.dir, 'log'), 'utf8').slice(logBefore);
    // a's requests after its first: one round trip each (the guarded insert); the stale one among them took nothing, without an error.
    expect(log.match(/ok AS \(SELECT coalesce\(bool_and/g)?.length ?? 0).toBeGreaterThanOrEqual(8);
    expect(log).not.toMatch(/duplicate key/);
    const rows = (await stored()).filter((r) => r.ledger_id === `serve:${client}`);
    expectGapFree(rows);
    const markers = rows.map((r) => markerOf(r.body)).filter((m) => m?.startsWith('req-sole-'));
    expect(markers).toEqual(answers.map((_, i) => `req-sole-${i}`));
    const v = await loom(['verify', '--team', '--ledger', `serve:${client}`], { LOOM_TEAM_URL: pg.url });
    expect(v.code).toBe(0);
  });

  it('refuses a missing or wrong token (a block on PreToolUse, 401 elsewhere) and a token file line without a client id at start', async () => {
    const s = await serve();
    // On an event that can block, the harness's block saying only "unauthenticated" (a 401 would let Claude Code run the call).
    for (const token of [undefined, 'tok-alice-0123456789abcdeX']) {
      const r = await post(s.url, 'PreToolUse', pre('ls', '/p'), token);
      expect(r.status).toBe(200);
      expect(r.json).toMatchObject({ hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: expect.stringMatching(/^unauthenticated/) } });
    }
    expect((await post(s.url, 'PostToolUse', { ...pre('ls', '/p'), hook_event_name: 'PostToolUse' })).status).toBe(401);
    const bad = join(tempDir(), 'clients');
    writeFileSync(bad, 'just-a-token-without-id-0123456789\n');
    const r = await loom(['serve', '--port', '0', '--team-url', writerUrl, '--token-file', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/clients:1: expected "client-id token"/);
  });

  it("judges the developer's path as written: nothing on the server's disk under it is read, followed or created", async () => {
    // A trap at the same path on the server: a link to / and an unreadable policy. Followed, `rm -rf escape/` deletes the root and the policy fails the hook.
    const trap = tempDir('loom-team-trap-');
    symlinkSync('/', join(trap, 'escape'));
    mkdirSync(join(trap, '.loom'));
    writeFileSync(join(trap, '.loom', 'policy.json'), '{ not json');
    const s = await serve();
    const r = await post(s.url, 'PreToolUse', pre('rm -rf escape/ # req-trap-1', trap), TOKENS['carol-dev']);
    expect(r.status).toBe(200);
    expect(decisionOf(r.json)).toBe('allow');
    // Still judged: the root named as written is denied.
    expect(decisionOf((await post(s.url, 'PreToolUse', pre('rm -rf / # req-trap-2', trap), TOKENS['carol-dev'])).json)).toBe('deny');
    expect(readdirSync(join(trap, '.loom')).sort()).toEqual(['policy.json']);
    // A cwd that is no absolute path cannot be judged: a block with the reason, never "no decision".
    const rel = await post(s.url, 'PreToolUse', pre('ls # req-trap-3', 'relative/dir'), TOKENS['carol-dev']);
    expect(rel.status).toBe(200);
    expect(decisionOf(rel.json)).toBe('deny');
    expect(reasonOf(rel.json)).toMatch(/not an absolute path/);
    const rows = (await stored()).filter((x) => /req-trap-/.test(x.body) || JSON.parse(x.body)[JSON.parse(x.body).kind]?.project_path === null);
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('PostgreSQL stopped mid-run: PreToolUse is a block naming the store, no allow goes unrecorded, and every answer reaches the store once it is back', async () => {
    const s = await serve(['--team-budget-ms', '500']);
    const answers: { marker: string; decision: string; reason: string; sentAt: number }[] = [];
    let n = 0;
    const client = 'bob.ci';
    const one = async () => {
      const marker = `req-down-${n++}`;
      const sentAt = performance.now();
      const r = await post(s.url, 'PreToolUse', pre(`echo ${marker}`, '/srv/ci/checkout', 'down'), TOKENS[client]);
      expect(r.status).toBe(200);
      answers.push({ marker, decision: decisionOf(r.json), reason: reasonOf(r.json), sentAt });
    };
    const burst = (k: number) => Promise.all(Array.from({ length: k }, one));
    await burst(20);
    expect(answers.filter((a) => a.decision !== 'allow')).toEqual([]);
    const running = (async () => {
      for (let i = 0; i < 30; i++) await burst(4);
    })();
    await new Promise((r) => setTimeout(r, 100));
    pg.stop();
    const stoppedAt = performance.now();
    await burst(10);
    await running;
    const down = answers.filter((a) => a.sentAt > stoppedAt);
    expect(down.length).toBeGreaterThanOrEqual(10);
    for (const a of down) {
      expect(a.decision).toBe('deny');
      expect(a.reason).toMatch(/team store/);
    }
    expect(readdirSync(s.spool).length).toBeGreaterThan(0);
    pg.start();
    // The spool drains on its own (retried every second).
    for (let i = 0; i < 100 && readdirSync(s.spool).length > 0; i++) await new Promise((r) => setTimeout(r, 200));
    expect(readdirSync(s.spool)).toEqual([]);
    await burst(5);
    const rows = (await stored()).filter((r) => r.ledger_id === `serve:${client}`);
    const byMarker = new Map<string, StoredRow[]>();
    for (const r of rows) {
      const m = markerOf(r.body);
      if (m) byMarker.set(m, [...(byMarker.get(m) ?? []), r]);
    }
    for (const a of answers) {
      const got = byMarker.get(a.marker) ?? [];
      // The decision answered is in the store; a store that died between COMMIT and its reply may hold the first attempt too (docs/team.md).
      expect(got.map((g) => g.decision), a.marker).toContain(a.decision);
      if (a.decision === 'allow') expect(got.length, a.marker).toBe(1);
    }
    expectGapFree(rows);
    const v = await loom(['verify', '--team', '--ledger', `serve:${client}`], { LOOM_TEAM_URL: pg.url });
    expect(v.code).toBe(0);
  });
});
