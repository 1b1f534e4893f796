// Chaos for `loom serve --team-url`: two stateless instances on one real
// PostgreSQL, one of them killed -9 in the middle of a burst (three times,
// restarted each time) while three clients keep sending. Every decision
// that was answered must be in the store exactly once, each client's chain
// total and gap-free across the instances, and `loom verify --team` intact.
// Bounded: 3 rounds of 90 requests.
import { execa } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, listeningUrl, tempDir } from '../helpers';
import { startPgServer, type PgServer } from '../pg-server';
import { loom, query } from '../team-helpers';

let pg: PgServer;
let tokenFile: string;
const TOKENS: Record<string, string> = { 'dev-one': 'tok-one-0123456789abcdef', 'dev-two': 'tok-two-0123456789abcdef', 'dev-three': 'tok-three-0123456789abcd' };
const children: ChildProcess[] = [];

beforeAll(async () => {
  pg = await startPgServer();
  expect((await loom(['team', 'init'], { LOOM_TEAM_URL: pg.url })).code).toBe(0);
  tokenFile = join(tempDir(), 'clients');
  writeFileSync(tokenFile, Object.entries(TOKENS).map(([id, t]) => `${id} ${t}`).join('\n') + '\n');
}, 120_000);

afterAll(() => {
  for (const c of children) c.kill('SIGKILL');
  pg?.destroy();
});

function serve(): Promise<{ url: string; child: ChildProcess }> {
  const home = tempDir('loom-team-chaos-');
  const child = execa(process.execPath, [CLI, 'serve', '--port', '0', '--team-url', pg.url, '--token-file', tokenFile, '--spool-dir', join(home, 'spool')], { cwd: home,
    env: { ...process.env, HOME: home, XDG_STATE_HOME: join(home, 'state'), LOOM_TEAM_URL: '', LOOM_SERVE_TOKEN: '', LOOM_CONFIG: '', LOOM_PROJECT_DIR: '', LOOM_LEDGER_KEY: '' },
    stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
  children.push(child);
  return listeningUrl(child).then((url) => ({ url, child }));
}

/** The decision answered, or undefined when the instance died before answering. */
function post(url: string, body: unknown, token: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(`${url}/hooks/PreToolUse`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` } }, (res) => {
      let b = '';
      res.on('data', (d) => (b += d));
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(undefined);
        const j = JSON.parse(b) as { hookSpecificOutput?: { permissionDecision?: string } };
        resolve(j.hookSpecificOutput?.permissionDecision ?? 'allow');
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('error', () => resolve(undefined));
    req.end(JSON.stringify(body));
  });
}

describe('loom serve --team-url under kill -9', () => {
  it('answered decisions are in the store exactly once and every client chain stays gap-free while an instance is killed mid-burst', async () => {
    const clients = Object.keys(TOKENS);
    let a = await serve();
    const b = await serve();
    const answered = new Map<string, string>();
    let n = 0;
    for (let round = 0; round < 3; round++) {
      const sends: Promise<void>[] = [];
      for (let i = 0; i < 90; i++) {
        const marker = `req-chaos-${n++}`;
        const client = clients[i % 3];
        const target = i % 2 ? a.url : b.url;
        const command = i % 5 === 0 ? `rm -rf ~ # ${marker}` : `echo ${marker}`;
        sends.push(post(target, { hook_event_name: 'PreToolUse', session_id: `r${round}`, cwd: `/home/${client}/repo`, tool_name: 'Bash', tool_input: { command } }, TOKENS[client]).then((d) => void (d && answered.set(marker, d))));
        if (i === 45) {
          await new Promise((r) => setTimeout(r, 20));
          a.child.kill('SIGKILL');
        }
      }
      await Promise.all(sends);
      a = await serve();
    }
    expect(answered.size).toBeGreaterThanOrEqual(135); // b answered its half every round
    const rows = await query<{ ledger_id: string; seq: string; body: string; decision: string }>(pg.url, "SELECT ledger_id, seq, body, decision FROM loom.records WHERE ledger_id LIKE 'serve:%' ORDER BY ledger_id, seq");
    const count = new Map<string, string[]>();
    for (const r of rows) {
      const m = /req-chaos-\d+/.exec(r.body)?.[0];
      if (m) count.set(m, [...(count.get(m) ?? []), r.decision]);
    }
    for (const [marker, decision] of answered) expect(count.get(marker), marker).toEqual([decision]);
    const seqs = new Map<string, number[]>();
    for (const r of rows) seqs.set(r.ledger_id, [...(seqs.get(r.ledger_id) ?? []), Number(r.seq)]);
    expect([...seqs.keys()].sort()).toEqual(clients.map((c) => `serve:${c}`).sort());
    for (const s of seqs.values()) expect(s).toEqual(s.map((_, i) => i + 1));
    const v = await loom(['verify', '--team'], { LOOM_TEAM_URL: pg.url });
    expect(v.code).toBe(0);
  });
});
