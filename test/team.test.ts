// The team store against a real PostgreSQL (initdb'd for this file):
// init, roles, shipping (idempotent, resumable, in order, exactly once),
// forks and gaps named by the store, down-then-up, credentials.
import { execa } from 'execa';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from './helpers';
import { startPgServer, type PgServer } from './pg-server';
import { appendRecords, deleteLocal, draft, localRows, loom, projectWith, query, rewriteChain, roleUrl } from './team-helpers';

let pg: PgServer;
const WRITER_PW = 'writer-password-0123';
let writerUrl: string;
let writerEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  pg = await startPgServer();
  const dir = tempDir();
  writeFileSync(join(dir, 'w'), WRITER_PW + '\n');
  writeFileSync(join(dir, 'r'), 'reader-password-0123\n');
  const r = await loom(['team', 'init', '--writer', 'loom_ship', '--writer-password-file', join(dir, 'w'), '--reader', 'loom_audit', '--reader-password-file', join(dir, 'r')], { LOOM_TEAM_URL: pg.url });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('team store ready');
  expect(r.stdout).not.toContain(pg.password);
  writerUrl = roleUrl(pg.port, 'loom_ship');
  writerEnv = { LOOM_TEAM_URL: writerUrl, PGPASSWORD: WRITER_PW };
}, 120_000);

afterAll(() => pg?.destroy());

describe('loom team init', { timeout: 180_000 }, () => {
  it('is idempotent and leaves loom append-only: the writer may insert and select, never update, delete or truncate', async () => {
    const again = await loom(['team', 'init'], { LOOM_TEAM_URL: pg.url });
    expect(again.code).toBe(0);
    const parts = await query<{ n: string }>(pg.url, "SELECT count(*) AS n FROM pg_inherits WHERE inhparent = 'loom.records'::regclass");
    expect(Number(parts[0].n)).toBeGreaterThan(30); // monthly partitions + default
    const p = projectWith(3);
    expect((await loom(['ship', '--project-dir', p], writerEnv)).code).toBe(0);
    const url = `postgres://loom_ship:${WRITER_PW}@127.0.0.1:${pg.port}/loom`;
    for (const sql of ['UPDATE loom.records SET body = body', 'DELETE FROM loom.chain', 'TRUNCATE loom.records', 'UPDATE loom.alerts SET detail = 1', 'DELETE FROM loom.records_default', 'DROP TABLE loom.records']) {
      await expect(query(url, sql), sql).rejects.toThrow(/permission denied|must be owner/);
    }
    const reader = `postgres://loom_audit:reader-password-0123@127.0.0.1:${pg.port}/loom`;
    expect((await query<{ n: string }>(reader, 'SELECT count(*) AS n FROM loom.records'))[0].n).not.toBe('0');
    await expect(query(reader, "INSERT INTO loom.alerts (ledger_id, seq, kind, detail) VALUES ('xxxxxxxxxx', 1, 'gap', 'x')")).rejects.toThrow(/permission denied/);
  });
});

describe('loom ship', { timeout: 180_000 }, () => {
  it('ships every record in seq order with body and hash verbatim, once, and resumes where it stopped', async () => {
    const p = projectWith(1200);
    const first = await loom(['ship', '--project-dir', p, '--batch', '500', '--json'], writerEnv);
    expect(first.code).toBe(0);
    const r1 = JSON.parse(first.stdout);
    expect(r1.shipped).toBe(1200);
    expect(r1.batches).toBe(3);
    const again = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    expect(again.shipped).toBe(0);
    expect(again.ledgerId).toBe(r1.ledgerId); // stable id, in meta
    appendRecords(p, 37, 1200);
    const more = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    expect(more.shipped).toBe(37);
    const stored = await query<{ seq: string; hash: string; body: string; event: string; actor_user: string; actor_host: string; actor_from: string }>(pg.url, 'SELECT seq, hash, body, event, actor_user, actor_host, actor_from FROM loom.records WHERE ledger_id = $1 ORDER BY seq', [r1.ledgerId]);
    const local = localRows(p);
    expect(stored.length).toBe(1237);
    expect(stored.map((r) => [Number(r.seq), r.hash, r.body])).toEqual(local.map((r) => [r.seq, r.hash, r.body]));
    expect(stored[0].actor_user).toBeTruthy();
    expect(stored[0].actor_host).toBeTruthy();
    expect(stored[0].actor_from).toBe('shipper');
    const v = await loom(['verify', '--team', '--ledger', r1.ledgerId], writerEnv);
    expect(v.stdout).toContain(`ok       ledger ${r1.ledgerId}`);
    expect(v.code).toBe(0);
  });

  it('reads actor and repository from the record when it carries them, else from the git checkout at ship time (remote normalized, no credentials)', async () => {
    const p = projectWith(0);
    const git = (args: string[]) => new Promise<void>((res) => execa('git', ['-C', p, ...args], { stdio: 'ignore', reject: false, stripFinalNewline: false }).on('close', () => res()));
    await git(['init', '-q', '-b', 'feature/x']);
    await git(['remote', 'add', 'origin', 'https://someone:s3cret@GitHub.com/Org/repo.git']);
    await git(['config', 'user.email', 'dev@example.com']);
    const { Ledger } = await import('../src/ledger/store');
    const l = Ledger.openForAppend(p);
    l.append([{ event: 'Stop', hook_id: 'stop-check', harness: 'codex', session_id: 's', risk: 'none', decision: 'allow', status: 'ok', kind: 'hook', data: {} }]);
    l.close();
    const r = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    const [row] = await query<Record<string, string>>(pg.url, 'SELECT repo, branch, actor_email, harness, actor_from FROM loom.records WHERE ledger_id = $1', [r.ledgerId]);
    expect(row).toMatchObject({ repo: 'github.com/Org/repo', branch: 'feature/x', actor_email: 'dev@example.com', harness: 'codex', actor_from: 'shipper' });
    const all = await query<{ body: string }>(pg.url, 'SELECT body FROM loom.records');
    expect(JSON.stringify(all)).not.toContain('s3cret');
  });

  it('names a fork: a local chain rewritten after shipping is refused and recorded, shown by verify --team and doctor', async () => {
    const p = projectWith(50);
    const r = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    rewriteChain(p, 20);
    appendRecords(p, 5, 50);
    const s = await loom(['ship', '--project-dir', p], writerEnv);
    expect(s.code).toBe(1);
    expect(s.stdout).toMatch(/ALERT fork at seq 50: .*rewritten after shipping/);
    // The store kept what was shipped first: the rewritten record 20 is not in it.
    const [rec20] = await query<{ hash: string }>(pg.url, 'SELECT hash FROM loom.records WHERE ledger_id = $1 AND seq = 20', [r.ledgerId]);
    expect(rec20.hash).not.toBe(localRows(p)[19].hash);
    const v = await loom(['verify', '--team', '--ledger', r.ledgerId], writerEnv);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/FORK at seq 51: seq 51 does not link to seq 50/);
    expect(v.stdout).toMatch(/ALERT at seq 50: fork/);
    const d = await loom(['doctor', '--project-dir', p, '--json'], writerEnv);
    const checks = JSON.parse(d.stdout).checks as { name: string; ok: boolean; detail: string }[];
    expect(checks.find((c) => c.name === 'team alerts')).toMatchObject({ ok: false });
    expect(checks.find((c) => c.name === 'team alerts')!.detail).toContain('FORK at seq 50');
  });

  it('two shippers of one ledger at once: the COPY the key refuses falls back to the INSERT, every record once, no alert', async () => {
    const { connect } = await import('../src/team/pg');
    const { shipLedger } = await import('../src/team/ship');
    const p = projectWith(3000);
    const cfg = { url: `postgres://loom_ship:${WRITER_PW}@127.0.0.1:${pg.port}/loom`, source: 'LOOM_TEAM_URL' as const, shipOnStop: true };
    const [a, b] = await Promise.all([connect(cfg), connect(cfg)]);
    try {
      const [ra, rb] = await Promise.all([shipLedger(a, p, { batch: 1000 }), shipLedger(b, p, { batch: 1000 })]);
      expect(ra.shipped + rb.shipped).toBe(3000);
      expect(ra.shipped + ra.already).toBeGreaterThanOrEqual(3000);
      expect([...ra.alerts, ...rb.alerts]).toEqual([]);
      const stored = await query<{ seq: string; hash: string }>(pg.url, 'SELECT seq, hash FROM loom.records WHERE ledger_id = $1 ORDER BY seq', [ra.ledgerId]);
      expect(stored.map((r) => [Number(r.seq), r.hash])).toEqual(localRows(p).map((r) => [r.seq, r.hash]));
      // A shipper whose head is stale offers everything again, and another record is already at seq 3003 (a
      // different copy of this ledger shipped first): the COPY is refused, the INSERT keeps the new seqs and
      // names the fork at 3003, which is recorded.
      appendRecords(p, 5, 3000);
      await query(pg.url, "INSERT INTO loom.chain (ledger_id, seq, hash) VALUES ($1, 3003, 'f00d')", [ra.ledgerId]);
      const stale = new Proxy(a, {
        get(t, k) {
          const v = Reflect.get(t, k) as unknown;
          if (k === 'query') return (q: unknown, ...rest: unknown[]) => (typeof q === 'string' && q.includes('ORDER BY seq DESC LIMIT 1') ? Promise.resolve({ rows: [] }) : (v as (...x: unknown[]) => unknown).call(t, q, ...rest));
          return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(t) : v;
        },
      });
      const rc = await shipLedger(stale, p);
      expect(rc.alerts).toEqual([expect.objectContaining({ kind: 'fork', seq: 3003, stored_hash: 'f00d' })]);
      expect(rc.shipped).toBe(4);
      expect(rc.already).toBe(3001);
      const seqs = await query<{ seq: string }>(pg.url, 'SELECT seq FROM loom.records WHERE ledger_id = $1 AND seq > 3000 ORDER BY seq', [ra.ledgerId]);
      expect(seqs.map((r) => Number(r.seq))).toEqual([3001, 3002, 3004, 3005]);
      expect(await query(pg.url, "SELECT kind, seq FROM loom.alerts WHERE ledger_id = $1", [ra.ledgerId])).toEqual([{ kind: 'fork', seq: '3003' }]);
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('names a gap: records deleted locally before shipping', async () => {
    const p = projectWith(10);
    const r = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    appendRecords(p, 10, 10);
    deleteLocal(p, [13, 14, 15]);
    const s = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    expect(s.shipped).toBe(7);
    expect(s.alerts).toEqual([expect.objectContaining({ kind: 'gap', seq: 13 })]);
    const v = await loom(['verify', '--team', '--ledger', r.ledgerId], writerEnv);
    expect(v.code).toBe(1);
    expect(v.stdout).toContain('GAP at seq 13: seq 13..15 missing from the store');
  });

  it('a local ledger cut below what the store holds is a rollback alert', async () => {
    const p = projectWith(8);
    await loom(['ship', '--project-dir', p], writerEnv);
    deleteLocal(p, [6, 7, 8]);
    const s = await loom(['ship', '--project-dir', p], writerEnv);
    expect(s.code).toBe(1);
    expect(s.stdout).toMatch(/ALERT rollback at seq 6: the local ledger ends at seq 5, the store already holds seq 8/);
  });

  it('PostgreSQL down for a whole session, then up: a watching shipper delivers every record, in order, exactly once', async () => {
    const p = projectWith(100);
    const child = execa(process.execPath, [CLI, 'ship', '--watch', '--interval', '0.2', '--project-dir', p], { env: { ...process.env, ...writerEnv }, stdio: ['ignore', 'ignore', 'pipe'], reject: false, stripFinalNewline: false });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const waitFor = async (cond: () => Promise<boolean>, what: string) => {
      for (let i = 0; i < 1500; i++) {
        if (await cond()) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`timed out waiting for ${what}; shipper said: ${err}`);
    };
    const count = async () => Number((await query<{ n: string }>(pg.url, "SELECT count(*) AS n FROM loom.records r JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1", [p.split('/').pop()]))[0].n);
    await waitFor(async () => (await count()) === 100, 'the first 100 records');
    pg.stop();
    try {
      appendRecords(p, 1000, 100); // the session while the store is down
      await waitFor(async () => err.includes('unreachable'), 'the shipper to notice');
    } finally {
      pg.start();
    }
    await waitFor(async () => (await count()) === 1100, 'the backlog');
    child.kill('SIGTERM');
    await new Promise((r) => child.on('close', r));
    expect(err).toContain('reachable again');
    const stored = await query<{ seq: string; hash: string }>(pg.url, "SELECT r.seq, r.hash FROM loom.records r JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1 ORDER BY r.seq", [p.split('/').pop()]);
    expect(stored.map((r) => [Number(r.seq), r.hash])).toEqual(localRows(p).map((r) => [r.seq, r.hash]));
  }, 240_000);
});

describe('team views', { timeout: 180_000 }, () => {
  it('report --team and history --team count and list by repository and user from the store', async () => {
    const a = projectWith(14);
    const b = projectWith(6);
    for (const [p, remote] of [[a, 'git@h.example:o/alpha.git'], [b, 'https://h.example/o/beta']]) {
      writeFileSync(join(p, '.loom', 'policy.json'), '{}');
      await new Promise<void>((res) => execa('sh', ['-c', `git -C ${p} init -q && git -C ${p} remote add origin ${remote}`], { stdio: 'ignore', reject: false, stripFinalNewline: false }).on('close', () => res()));
      expect((await loom(['ship', '--project-dir', p], writerEnv)).code).toBe(0);
    }
    const r = await loom(['report', '--team', '--repo', 'h.example/o/alpha', '--json'], writerEnv);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    expect(s.total).toBe(14);
    expect(s.denied).toBe(2); // draft i % 7 === 0: 0 and 7
    expect(s.byRepo).toEqual([{ key: 'h.example/o/alpha', n: 14, denied: 2 }]);
    expect(s.byUser).toHaveLength(1);
    const out = join(tempDir(), 'team.html');
    const html = await loom(['report', '--team', '--out', out], writerEnv);
    expect(html.code).toBe(0);
    const page = (await import('node:fs')).readFileSync(out, 'utf8');
    expect(page).toContain('h.example/o/beta');
    expect(page).toContain('By user');
    const h = await loom(['history', '--team', '--repo', 'h.example/o/beta', '--jsonl'], writerEnv);
    const recs = h.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(recs).toHaveLength(6);
    expect(recs.map((x) => x.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(recs[0].hash).toBe(localRows(b)[0].hash);
    const bad = await loom(['report', '--team', '--since', 'yesterday'], writerEnv);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since "yesterday"');
  });
});

describe('credentials and TLS', { timeout: 180_000 }, () => {
  it('takes the password from a file, never prints it, and passes TLS options through', async () => {
    const p = projectWith(2);
    const dir = tempDir();
    writeFileSync(join(dir, 'pw'), WRITER_PW + '\n');
    const ok = await loom(['ship', '--project-dir', p], { LOOM_TEAM_URL: writerUrl, LOOM_TEAM_PASSWORD_FILE: join(dir, 'pw') });
    expect(ok.code).toBe(0);
    const bad = await loom(['ship', '--project-dir', p], { LOOM_TEAM_URL: `postgres://loom_ship:wrong-password-here@127.0.0.1:${pg.port}/loom` });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/cannot log in/);
    expect(bad.stderr).not.toContain('wrong-password-here');
    // sslmode reaches the client: this server has no TLS, so requiring it fails, naming SSL.
    const tls = await loom(['ship', '--project-dir', p], { LOOM_TEAM_URL: `${writerUrl}?sslmode=require`, PGPASSWORD: WRITER_PW });
    expect(tls.code).not.toBe(0);
    expect(tls.stderr).toMatch(/SSL/i);
    const off = await loom(['ship', '--project-dir', p], { LOOM_TEAM_URL: `${writerUrl}?sslmode=disable`, PGPASSWORD: WRITER_PW });
    expect(off.code).toBe(0);
  });

  it('a team URL in the policy is used, a bad one is a one-line error, and no store at all says how to set one', async () => {
    const p = projectWith(1);
    // commented, as loom init writes it
    writeFileSync(join(p, '.loom', 'policy.json'), `// the team store\n${JSON.stringify({ team: { url: writerUrl } }, null, 2).replace('{', '{ // where records are shipped')}`);
    expect((await loom(['ship', '--project-dir', p], { PGPASSWORD: WRITER_PW })).code).toBe(0);
    writeFileSync(join(p, '.loom', 'policy.json'), JSON.stringify({ team: { url: 'mysql://x' } }));
    const bad = await loom(['ship', '--project-dir', p]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('expected a postgres:// URL');
    const none = await loom(['ship', '--project-dir', projectWith(1)]);
    expect(none.stderr).toContain('set LOOM_TEAM_URL');
  });
});

describe('loom export --team', { timeout: 180_000 }, () => {
  it('writes every shipped record of a ledger from the store, verbatim with seq and hash, as JSONL and CEF', async () => {
    const p = projectWith(1300);
    expect((await loom(['ship', '--project-dir', p], writerEnv)).code).toBe(0);
    const rows = localRows(p);
    const ledger = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout).ledgerId;
    const j = await loom(['export', '--team', '--format', 'jsonl', '--ledger', ledger, '--project-dir', p], writerEnv);
    expect(j.stderr).toBe('');
    expect(j.code).toBe(0);
    const got = j.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(got.map((o) => [o.ledger_id, o.seq, o.hash, o.body])).toEqual(rows.map((r) => [ledger, r.seq, r.hash, r.body]));
    const c = await loom(['export', '--team', '--format', 'cef', '--ledger', ledger, '--since', '1d', '--project-dir', p], writerEnv);
    expect(c.stdout.trimEnd().split('\n')).toHaveLength(1300);
    const down = await loom(['export', '--team', '--format', 'jsonl', '--project-dir', p], { LOOM_TEAM_URL: 'postgres://loom_ship@127.0.0.1:1/loom', PGPASSWORD: 'x' });
    expect(down.code).not.toBe(0);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('loom evidence --team', { timeout: 180_000 }, () => {
  it('gives the PR evidence of one repository and branch from the store, and names a forked ledger', async () => {
    const mk = async (branch: string, n: number) => {
      const p = projectWith(0);
      const git = (args: string[]) => new Promise<void>((res) => execa('git', ['-C', p, ...args], { stdio: 'ignore', reject: false, stripFinalNewline: false }).on('close', () => res()));
      await git(['init', '-q', '-b', branch]);
      await git(['remote', 'add', 'origin', 'https://github.com/Org/evidence-repo.git']);
      appendRecords(p, n);
      expect((await loom(['ship', '--project-dir', p], writerEnv)).code).toBe(0);
      return p;
    };
    const a = await mk('feat/ev', 40);
    await mk('feat/ev', 30);
    await mk('other', 25);
    const ok = await loom(['evidence', '--team', '--repo', 'github.com/Org/evidence-repo', '--branch', 'feat/ev', '--project-dir', a], writerEnv);
    expect(ok.stderr).toBe('');
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('**Ledgers: intact.** 2 ledger(s)');
    expect(ok.stdout).toMatch(/\| 70 \| 59 \| 0 \| 11 \| 11 \|/); // 70 records, 11 denied (every 7th of 40 and of 30), all high risk
    rewriteChain(a, 10);
    appendRecords(a, 2, 40);
    await loom(['ship', '--project-dir', a], writerEnv);
    const bad = await loom(['evidence', '--team', '--repo', 'github.com/Org/evidence-repo', '--branch', 'feat/ev', '--project-dir', a], writerEnv);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain('**Ledgers: PROBLEMS**');
    expect(bad.stdout).toContain('fork');
    expect((await loom(['evidence', '--team', '--project-dir', a], writerEnv)).stderr).toContain('needs --repo');
  });
});

describe('a journal-only ledger', { timeout: 180_000 }, () => {
  it('ships before its first fold: every journal line, verbatim, then the fold changes nothing in the store', async () => {
    const { appendJournal } = await import('../src/ledger/journal');
    const p = tempDir('loom-journal-only-');
    appendJournal(p, Array.from({ length: 30 }, (_, i) => draft(i)), undefined);
    const { existsSync, readFileSync } = await import('node:fs');
    expect(existsSync(join(p, '.loom', 'compliance', 'ledger.db'))).toBe(false);
    const r = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    expect(r.shipped).toBe(30);
    const lines = readFileSync(join(p, '.loom', 'compliance', 'journal.log'), 'utf8');
    const got = await query<{ seq: string; hash: string; body: string }>(pg.url, 'SELECT seq, hash, body FROM loom.records WHERE ledger_id = $1 ORDER BY seq', [r.ledgerId]);
    expect(got).toHaveLength(30);
    for (const g of got) expect(lines).toContain(g.hash);
    expect((await loom(['fold', '--project-dir', p], writerEnv)).code).toBe(0);
    appendJournal(p, [draft(30)], undefined);
    const again = JSON.parse((await loom(['ship', '--project-dir', p, '--json'], writerEnv)).stdout);
    expect(again).toMatchObject({ ledgerId: r.ledgerId, shipped: 1, alerts: [] });
  });
});
