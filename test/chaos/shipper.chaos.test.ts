// Chaos for the team-store shipper against a real PostgreSQL: the server
// stopped mid-ship and restarted, the shipper killed -9 mid-batch (several
// times), a local chain rewritten after shipping (fork) and records deleted
// before shipping (gap). Every record that exists locally must arrive exactly
// once, in seq order, with its hash; forks and gaps must be named in
// loom.alerts. Bounded: a few thousand records, one watcher at a time.
import { execa } from 'execa';
import { type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, tempDir } from '../helpers';
import { startPgServer, type PgServer } from '../pg-server';
import { appendRecords, deleteLocal, localRows, loom, projectWith, query, rewriteChain } from '../team-helpers';

let pg: PgServer;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  pg = await startPgServer();
  env = { LOOM_TEAM_URL: pg.url, HOME: tempDir('loom-home-') };
  expect((await loom(['team', 'init'], env)).code).toBe(0);
}, 120_000);

afterAll(() => pg?.destroy());

const stored = async (p: string) =>
  (await query<{ seq: string; hash: string }>(pg.url, 'SELECT r.seq, r.hash FROM loom.records r JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1 ORDER BY r.seq', [p.split('/').pop()])).map((r) => [Number(r.seq), r.hash] as [number, string]);

const watcher = (p: string): ChildProcess => execa(process.execPath, [CLI, 'ship', '--watch', '--batch', '150', '--interval', '0.05', '--project-dir', p], { env: { ...process.env, LOOM_PROJECT_DIR: '', CLAUDE_PROJECT_DIR: '', PGPASSWORD: '', ...env }, stdio: 'ignore', reject: false, stripFinalNewline: false });

async function until(cond: () => Promise<boolean>, what: string, tries = 600): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await cond().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('shipper chaos', { timeout: 240_000 }, () => {
  it('kill -9 mid-batch and PostgreSQL stopped mid-ship: every record exactly once, in order', async () => {
    const p = projectWith(3000);
    // Three kills at different points of the backlog.
    for (const atLeast of [150, 900, 1800]) {
      const child = watcher(p);
      await until(async () => (await stored(p)).length >= atLeast, `${atLeast} records shipped`);
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    let child = watcher(p);
    await until(async () => (await stored(p)).length >= 2200, 'more records');
    pg.stop(); // mid-ship: the watcher's transaction dies with the server
    try {
      appendRecords(p, 1500, 3000);
      await new Promise((r) => setTimeout(r, 800));
      child.kill('SIGKILL'); // and the shipper dies while the store is down
      await new Promise((r) => child.once('exit', r));
      child = watcher(p);
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      pg.start();
    }
    await until(async () => (await stored(p)).length >= 4500, 'the whole backlog');
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const got = await stored(p);
    expect(got.map((r) => r[0])).toEqual(Array.from({ length: 4500 }, (_, i) => i + 1));
    expect(got).toEqual(localRows(p).map((r) => [r.seq, r.hash]));
    const alerts = await query(pg.url, 'SELECT a.kind FROM loom.alerts a JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1', [p.split('/').pop()]);
    expect(alerts).toEqual([]); // crashes are not forks
  });

  it('a chain rewritten after shipping is a fork and records deleted before shipping are a gap, each named once', async () => {
    const f = projectWith(400);
    const g = projectWith(400);
    for (const p of [f, g]) expect((await loom(['ship', '--project-dir', p], env)).code).toBe(0);
    rewriteChain(f, 200);
    appendRecords(f, 50, 400);
    appendRecords(g, 300, 400);
    deleteLocal(g, [450, 451, 452, 600]);
    for (const p of [f, g]) {
      const r = await loom(['ship', '--project-dir', p], env);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('ALERT');
      // Shipping again names nothing new: alerts are recorded once.
      await loom(['ship', '--project-dir', p], env);
    }
    const kinds = async (p: string) => (await query<{ kind: string; seq: string }>(pg.url, 'SELECT a.kind, a.seq FROM loom.alerts a JOIN loom.ledgers l USING (ledger_id) WHERE l.project = $1 ORDER BY a.seq, a.kind', [p.split('/').pop()])).map((a) => `${a.kind}@${a.seq}`);
    expect((await kinds(f)).some((k) => k.startsWith('fork@'))).toBe(true);
    expect(await kinds(g)).toEqual(['gap@450', 'gap@600']);
    // The forked ledger's original records stay in the store untouched.
    expect((await stored(f)).slice(0, 400).map((r) => r[0])).toEqual(Array.from({ length: 400 }, (_, i) => i + 1));
    const v = await loom(['verify', '--team'], env);
    expect(v.code).toBe(1);
    expect(v.stdout + v.stderr).toMatch(/fork/);
    expect(v.stdout + v.stderr).toMatch(/gap/);
  });
});
