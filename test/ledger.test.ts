import Database from 'better-sqlite3';
import { execa, execaSync } from 'execa';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/ledger/canonical';
import { hashBody, keyFingerprint } from '../src/ledger/chain';
import { applyHistory, planHistory, rebuildHistory, SEGMENT_SIZE, syncHistory, type HistoryPlan } from '../src/ledger/history-view';
import { buildRecord, Ledger } from '../src/ledger/store';
import { verifyLedger } from '../src/ledger/verify';
import { BEHAVE, bundledFixture, CLI, preToolUse, ROOT, run, runHook, tempDir, writeRegistry } from './helpers';

const DRIVER = join(ROOT, 'test', 'fixtures', 'ledger-driver.ts');

let driverJs: string | undefined;
function drive(project: string, count: number, tag: string, env: NodeJS.ProcessEnv = {}) {
  driverJs ??= bundledFixture(DRIVER);
  return run(process.execPath, [driverJs, project, String(count), tag], null, env);
}

/** Every record a reviewer can read: archived segments then history.json, each file parsed on its own. */
function readHistoryView(project: string): Record<string, unknown>[] {
  const dir = join(project, '.loom', 'compliance');
  const out: Record<string, unknown>[] = [];
  const archive = join(dir, 'history');
  if (existsSync(archive)) {
    for (const f of readdirSync(archive).filter((n) => n.startsWith('segment-') && n.endsWith('.json')).sort()) out.push(...JSON.parse(readFileSync(join(archive, f), 'utf8')));
  }
  out.push(...JSON.parse(readFileSync(join(dir, 'history.json'), 'utf8')));
  return out;
}

function dbPath(project: string): string {
  return join(project, '.loom', 'compliance', 'ledger.db');
}

/** Opens the database as an attacker would: the append-only triggers dropped. */
function tamper(project: string, fn: (db: Database.Database) => void): void {
  const db = new Database(dbPath(project));
  db.exec('DROP TRIGGER IF EXISTS records_no_update; DROP TRIGGER IF EXISTS records_no_delete;');
  fn(db);
  db.close();
}

/** Folds the journal into the database (what any reader, the server or a hook's background fold does). */
function fold(project: string, env: NodeJS.ProcessEnv = {}) {
  return execaSync(process.execPath, [CLI, 'fold', '--project-dir', project], { env: { ...process.env, LOOM_CHECKPOINT_DIR: '', LOOM_LEDGER_KEY: '', ...env }, reject: false, stripFinalNewline: false });
}

/** A project with n records, folded into the database. */
async function ledgerWith(n: number, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const project = tempDir();
  const r = await drive(project, n, 'm', env);
  expect(r.code, r.stderr).toBe(0);
  const f = fold(project, env);
  expect(f.exitCode, f.stderr).toBe(0);
  return project;
}

function verifyCli(project: string, env: NodeJS.ProcessEnv = {}) {
  return run(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], null, env).then((r) => ({ ...r, json: r.stdout ? JSON.parse(r.stdout) : undefined }));
}

describe('canonical encoding and golden vectors', () => {
  it('sorts keys at every level, drops undefined, keeps UTF-8 text as JSON writes it', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 'é', null], c: true }, u: undefined })).toBe('{"a":{"c":true,"d":[1,"é",null]},"b":1}');
    // 1e999 parses to Infinity: the record keeps it as text instead of being lost or becoming null.
    expect(canonicalJson({ x: JSON.parse('1e999'), y: JSON.parse('-1e999'), z: Number.NaN })).toBe('{"x":"Infinity","y":"-Infinity","z":"NaN"}');
  });

  const golden = buildRecord(
    { event: 'PreToolUse', hook_id: 'pre-tool-use-audit', harness: 'claude', session_id: 'sess-42', risk: 'high', decision: 'deny', status: 'ok', kind: 'tool_use', data: { tool: 'Bash', command: 'rm -rf /', rule: 'recursive-delete-root' }, redactions: 0 },
    1,
    '0'.repeat(64),
    '2026-11-30T12:00:00.000Z',
    undefined,
    'V1StGXR8_Z5jdHi6B-myT',
  );

  it('a fixed record gives a fixed body and hash', () => {
    expect(golden.body).toBe(
      '{"decision":"deny","event":"PreToolUse","harness":"claude","hook_id":"pre-tool-use-audit","id":"V1StGXR8_Z5jdHi6B-myT","kind":"tool_use","prev_hash":"0000000000000000000000000000000000000000000000000000000000000000","redactions":0,"risk":"high","seq":1,"session_id":"sess-42","status":"ok","tool_use":{"command":"rm -rf /","rule":"recursive-delete-root","tool":"Bash"},"ts":"2026-11-30T12:00:00.000Z"}',
    );
    expect(golden.hash).toBe('291e48eac3e2438381180cf0e3a94f6294bd1fd39a03f3edfc541bd30470f396');
    const keyed = hashBody(golden.body, { key: Buffer.from('0123456789abcdef0123456789abcdef'), id: keyFingerprint(Buffer.from('0123456789abcdef0123456789abcdef')) });
    expect(keyed).toBe('a848f84781b52fc617cce3d0822e286e6838c7a197c833995e744f5b413085e7');
  });

  it.skipIf(!existsSync('/usr/bin/sqlite3') || !existsSync('/usr/bin/sha256sum'))('an auditor re-derives every hash with the sqlite3 shell and sha256sum', async () => {
    const project = await ledgerWith(5);
    for (let seq = 1; seq <= 5; seq++) {
      const r = execaSync('/bin/sh', ['-c', `printf '%s' "$(sqlite3 '${dbPath(project)}' 'SELECT body FROM records WHERE seq=${seq}')" | sha256sum | cut -d' ' -f1`], { reject: false, stripFinalNewline: false });
      const stored = execaSync('sqlite3', [dbPath(project), `SELECT hash FROM records WHERE seq=${seq}`], { reject: false, stripFinalNewline: false }).stdout.trim();
      expect(r.stdout.trim()).toBe(stored);
    }
  });
});

describe('store', () => {
  it('creates folders on first use and keeps a contiguous, linked chain', async () => {
    const project = await ledgerWith(7);
    const db = new Database(dbPath(project), { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const rows = db.prepare('SELECT seq, prev_hash, hash, id, ts FROM records ORDER BY seq').all() as { seq: number; prev_hash: string; hash: string; id: string; ts: string }[];
    db.close();
    expect(rows.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    rows.forEach((r, i) => {
      expect(r.prev_hash).toBe(i === 0 ? '0'.repeat(64) : rows[i - 1].hash);
      expect(r.id).toMatch(/^[A-Za-z0-9_-]{21}$/);
      expect(r.ts).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });
  });

  it('the database refuses updates and deletes through its triggers', async () => {
    const project = await ledgerWith(2);
    const db = new Database(dbPath(project));
    expect(() => db.prepare("UPDATE records SET hash = 'x' WHERE seq = 1").run()).toThrow(/append-only/);
    expect(() => db.prepare('DELETE FROM records WHERE seq = 1').run()).toThrow(/append-only/);
    db.close();
  });

  it('a newer schema version is refused, not overwritten; hooks keep recording into the journal', async () => {
    const project = await ledgerWith(1);
    const db = new Database(dbPath(project));
    db.pragma('user_version = 99');
    db.close();
    const r = await drive(project, 1, 'x');
    expect(r.code, r.stderr).toBe(0);
    const f = fold(project);
    expect(f.exitCode).not.toBe(0);
    expect(f.stderr).toContain('newer than this loom');
    expect(readFileSync(join(project, '.loom/compliance/journal.log'), 'utf8').trim().split('\n')).toHaveLength(2);
  });
});

describe('concurrency and crashes', () => {
  it('16 processes x 100 appends at once: 1,600 records, seq 1..1600, verify intact, history complete', { timeout: 300_000 }, async () => {
    const project = tempDir();
    const results = await Promise.all(Array.from({ length: 16 }, (_, i) => drive(project, 100, `p${i}`)));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    expect(fold(project).exitCode).toBe(0);
    const db = new Database(dbPath(project), { readonly: true });
    const { n, lo, hi } = db.prepare('SELECT count(*) AS n, min(seq) AS lo, max(seq) AS hi FROM records').get() as { n: number; lo: number; hi: number };
    db.close();
    expect([n, lo, hi]).toEqual([1600, 1, 1600]);
    { const v = verifyLedger(project); expect(v.status, JSON.stringify(v)).toBe("intact"); }
    const view = readHistoryView(project);
    expect(view).toHaveLength(1600);
    expect(view.map((r) => r.seq)).toEqual(Array.from({ length: 1600 }, (_, i) => i + 1));
    const current = JSON.parse(readFileSync(join(project, '.loom/compliance/history.json'), 'utf8'));
    expect(current.length).toBeLessThanOrEqual(SEGMENT_SIZE);
  });

  it('concurrent real hook invocations all land in the ledger', async () => {
    const project = tempDir();
    const cfg = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const rs = await Promise.all(Array.from({ length: 12 }, () => runHook(['h', '--config', cfg, '--project-dir', project], preToolUse())));
    for (const r of rs) expect(r.code, r.stderr).toBe(0);
    const v = verifyLedger(project);
    expect(v.status).toBe('intact');
    expect(v.records).toBe(12);
  });

  it('kill -9 at random moments during 200 appends leaves no partial record and a chain that verifies', { timeout: 300_000 }, async () => {
    const project = tempDir();
    let kills = 0;
    let appended = 0;
    let rounds = 0;
    while (appended < 200 && rounds < 400) {
      rounds++;
      driverJs ??= bundledFixture(DRIVER);
      const child = execa(process.execPath, [driverJs, project, String(200 - appended), `k${rounds}`], { stdio: ['ignore', 'pipe', 'pipe'], reject: false, stripFinalNewline: false });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      const wantKill = kills < 25;
      const done = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
      if (wantKill) {
        // Wait for a random number of appends (1 to 4: start-up and append speed vary by machine, so a
        // time-based kill can miss a fast child), then kill at a random moment inside the next ones.
        const after = 1 + Math.floor(Math.random() * 4);
        await new Promise<void>((res) => {
          const check = () => (out.split('\n').length > after || child.exitCode !== null ? res() : setTimeout(check, 1));
          check();
        });
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 4)));
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          kills++;
        }
      }
      await done;
      appended = verifyLedger(project).records;
    }
    expect(kills).toBeGreaterThanOrEqual(20);
    expect(appended).toBe(200);
    const v = verifyLedger(project);
    expect(v.status, JSON.stringify(v.problem)).toBe('intact');
    expect(v.records).toBe(200);
    expect(fold(project).exitCode).toBe(0);
    const view = readHistoryView(project);
    expect(view.map((r) => r.seq)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });
});

describe('verify: one mutation each', () => {
  it('intact ledger exits 0', async () => {
    const project = await ledgerWith(10);
    const r = await verifyCli(project);
    expect(r.code).toBe(0);
    expect(r.json.status).toBe('intact');
    expect(r.json.records).toBe(10);
  });

  it('edit a field', async () => {
    const project = await ledgerWith(10);
    tamper(project, (db) => db.prepare(`UPDATE records SET body = replace(body, 'echo m-4', 'echo m-X') WHERE seq = 5`).run());
    const r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 5, kind: 'edited' });
  });

  it('delete a middle row', async () => {
    const project = await ledgerWith(10);
    tamper(project, (db) => db.prepare('DELETE FROM records WHERE seq = 6').run());
    const r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 6, kind: 'deleted' });
  });

  it('insert a forged row (rest renumbered, forged hash computed correctly)', async () => {
    const project = await ledgerWith(10);
    tamper(project, (db) => {
      const prev = (db.prepare('SELECT hash FROM records WHERE seq = 4').get() as { hash: string }).hash;
      db.exec('UPDATE records SET seq = -seq WHERE seq >= 5; UPDATE records SET seq = 1 - seq WHERE seq < 0;');
      const forged = buildRecord({ event: 'PostToolUse', hook_id: 'driver', harness: 'claude', session_id: 'session-m', risk: 'none', decision: 'allow', status: 'ok', kind: 'tool_use', data: { command: 'nothing to see' } }, 5, prev, new Date().toISOString());
      db.prepare('INSERT INTO records (seq, body, hash) VALUES (?, ?, ?)').run(5, forged.body, forged.hash);
    });
    const r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 5, kind: 'inserted' });
  });

  it('swap two rows', async () => {
    const project = await ledgerWith(10);
    tamper(project, (db) => {
      db.exec('UPDATE records SET seq = 100 WHERE seq = 3; UPDATE records SET seq = 3 WHERE seq = 4; UPDATE records SET seq = 4 WHERE seq = 100;');
    });
    const r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 3, kind: 'reordered' });
  });

  it('cut the tail behind a checkpoint', async () => {
    const project = await ledgerWith(10);
    const cp = await run(process.execPath, [CLI, 'checkpoint', '--project-dir', project], null);
    expect(cp.code).toBe(0);
    tamper(project, (db) => db.prepare('DELETE FROM records WHERE seq >= 8').run());
    // The journal still holds the head line (seq 10): the cut shows between the two.
    let r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 8, kind: 'tail-cut' });
    // And with the journal gone too, the checkpoint catches it.
    rmSync(join(project, '.loom/compliance/journal.log'));
    r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 8, kind: 'tail-cut' });
  });

  it('cut the tail and the local checkpoints: the external checkpoint still catches it', async () => {
    const outside = tempDir('loom-cp-');
    const project = await ledgerWith(10, { LOOM_CHECKPOINT_DIR: outside });
    await run(process.execPath, [CLI, 'checkpoint', '--project-dir', project], null, { LOOM_CHECKPOINT_DIR: outside });
    tamper(project, (db) => db.prepare('DELETE FROM records WHERE seq >= 9').run());
    writeFileSync(join(project, '.loom/compliance/checkpoints.jsonl'), '');
    rmSync(join(project, '.loom/compliance/journal.log'));
    const r = await verifyCli(project, { LOOM_CHECKPOINT_DIR: outside });
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 9, kind: 'tail-cut' });
  });

  it('cut the head', async () => {
    const project = await ledgerWith(10);
    tamper(project, (db) => db.prepare('DELETE FROM records WHERE seq <= 3').run());
    const r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 1, kind: 'head-cut' });
  });

  it('change the key', async () => {
    const key = { LOOM_LEDGER_KEY: 'correct horse battery staple 42' };
    const project = await ledgerWith(5, key);
    expect((await verifyCli(project, key)).code).toBe(0);
    const r = await verifyCli(project, { LOOM_LEDGER_KEY: 'another key entirely, 32 bytes!' });
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 1, kind: 'wrong-key' });
  });

  it('rebuild an unkeyed chain after a checkpoint: the checkpoint hash no longer matches', async () => {
    const project = await ledgerWith(10);
    await run(process.execPath, [CLI, 'checkpoint', '--project-dir', project], null);
    tamper(project, (db) => {
      const rows = db.prepare('SELECT seq, body FROM records ORDER BY seq').all() as { seq: number; body: string }[];
      let prev = '0'.repeat(64);
      for (const row of rows) {
        const b = JSON.parse(row.body);
        if (row.seq === 3) b.tool_use.command = 'rewritten history';
        b.prev_hash = prev;
        const body = canonicalJson(b);
        const hash = hashBody(body);
        db.prepare('UPDATE records SET body = ?, hash = ? WHERE seq = ?').run(body, hash, row.seq);
        prev = hash;
      }
    });
    const r = await verifyCli(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 10, kind: 'rewritten' });
  });

  it('a missing database exits 2', async () => {
    const r = await verifyCli(tempDir());
    expect(r.code).toBe(2);
    expect(r.json.error).toContain('no ledger database');
  });

  it('a keyed ledger without its key exits 2', async () => {
    const project = await ledgerWith(2, { LOOM_LEDGER_KEY: 'correct horse battery staple 42' });
    const r = await verifyCli(project);
    expect(r.code).toBe(2);
    expect(r.json.error).toContain('keyed');
  });

  it('a key file inside the project is refused', async () => {
    const project = tempDir();
    writeFileSync(join(project, 'ledger.key'), 'correct horse battery staple 42');
    const r = await drive(project, 1, 'x', { LOOM_LEDGER_KEY_FILE: join(project, 'ledger.key') });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('inside the project');
  });

  it('a database that is not SQLite exits 2 and is left untouched', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.loom/compliance'), { recursive: true });
    writeFileSync(dbPath(project), 'this is not a database, and it must survive');
    const r = await verifyCli(project);
    expect(r.code).toBe(2);
    expect(readFileSync(dbPath(project), 'utf8')).toBe('this is not a database, and it must survive');
  });
});

describe('history.json and loom history', () => {
  it('rolls over into archived segments with an index, and rebuild regenerates the same view', async () => {
    const project = await ledgerWith(SEGMENT_SIZE * 2 + 17);
    const before = readHistoryView(project);
    expect(before).toHaveLength(SEGMENT_SIZE * 2 + 17);
    const index = JSON.parse(readFileSync(join(project, '.loom/compliance/history/index.json'), 'utf8'));
    expect(index.segments.map((s: { first_seq: number; last_seq: number }) => [s.first_seq, s.last_seq])).toEqual([
      [1, SEGMENT_SIZE],
      [SEGMENT_SIZE + 1, SEGMENT_SIZE * 2],
    ]);
    writeFileSync(join(project, '.loom/compliance/history.json'), '[{"broken": ');
    const r = await run(process.execPath, [CLI, 'history', 'rebuild', '--project-dir', project], null);
    expect(r.code, r.stderr).toBe(0);
    expect(readHistoryView(project)).toEqual(before);
  });

  it('a corrupt history.json is regenerated from the database by the next fold', async () => {
    const project = await ledgerWith(3);
    writeFileSync(join(project, '.loom/compliance/history.json'), 'garbage');
    await drive(project, 1, 'z');
    expect(fold(project).exitCode).toBe(0);
    expect(readHistoryView(project).map((r) => r.seq)).toEqual([1, 2, 3, 4]);
  });

  it('a history plan made without the lock is refused when another writer moved the view meanwhile, and leaves no temp files', async () => {
    const project = await ledgerWith(SEGMENT_SIZE - 2);
    const dir = join(project, '.loom', 'compliance');
    const mk = (n: number) => Array.from({ length: n }, (_, i) => ({ event: 'PreToolUse', hook_id: 'h', harness: 'claude', session_id: 's', risk: 'low' as const, decision: 'allow', status: 'ok', kind: 'note', data: { i } }));
    const ledger = Ledger.openForAppend(project);
    ledger.append(mk(5));
    const stale = planHistory(ledger);
    // Meanwhile another writer (a command hook) appends and brings the view up to date.
    ledger.append(mk(1));
    ledger.withWriteLock(() => syncHistory(ledger));
    const before = readHistoryView(project);
    expect(stale).not.toBe('current');
    expect(ledger.withWriteLock(() => applyHistory(stale as HistoryPlan))).toBe(false);
    expect(readHistoryView(project)).toEqual(before);
    expect(before.map((r) => r.seq)).toEqual(Array.from({ length: SEGMENT_SIZE + 4 }, (_, i) => i + 1));
    expect([...readdirSync(dir), ...readdirSync(join(dir, 'history'))].filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // A fresh plan crosses the segment boundary and applies.
    ledger.append(mk(3));
    const fresh = planHistory(ledger);
    expect(ledger.withWriteLock(() => applyHistory(fresh as HistoryPlan))).toBe(true);
    expect(readHistoryView(project).map((r) => r.seq)).toEqual(Array.from({ length: SEGMENT_SIZE + 7 }, (_, i) => i + 1));
    expect(planHistory(ledger)).toBe('current');
    ledger.close();
  });

  it('history.json records carry the reviewer fields', async () => {
    const project = await ledgerWith(1);
    const [rec] = readHistoryView(project);
    for (const k of ['id', 'seq', 'ts', 'event', 'hook_id', 'harness', 'session_id', 'risk', 'decision', 'status', 'hash', 'prev_hash', 'kind', 'tool_use']) expect(rec).toHaveProperty(k);
  });

  it('loom history filters by event, session, risk and above, decision, hook, time and limit', async () => {
    const project = tempDir();
    const ledger = Ledger.openForAppend(project);
    const mk = (event: string, session: string, risk: 'none' | 'low' | 'medium' | 'high' | 'critical', decision: string) => ({ event, hook_id: `${event.toLowerCase()}-audit`, harness: 'claude', session_id: session, risk, decision, status: 'ok', kind: 'note', data: { summary: `${event} ${risk}` } });
    ledger.append([mk('PreToolUse', 's1', 'high', 'deny'), mk('PreToolUse', 's1', 'low', 'allow'), mk('UserPromptSubmit', 's2', 'critical', 'deny'), mk('Stop', 's2', 'medium', 'allow')]);
    ledger.close();
    const q = async (...args: string[]) => {
      const r = await run(process.execPath, [CLI, 'history', '--project-dir', project, '--json', ...args], null);
      expect(r.code, r.stderr).toBe(0);
      return (JSON.parse(r.stdout) as { seq: number }[]).map((x) => x.seq);
    };
    expect(await q()).toEqual([1, 2, 3, 4]);
    expect(await q('--event', 'PreToolUse')).toEqual([1, 2]);
    expect(await q('--session', 's2')).toEqual([3, 4]);
    expect(await q('--risk', 'high')).toEqual([1, 3]);
    expect(await q('--risk', 'medium')).toEqual([1, 3, 4]);
    expect(await q('--decision', 'deny')).toEqual([1, 3]);
    expect(await q('--hook', 'stop-audit')).toEqual([4]);
    expect(await q('--since', '1h')).toEqual([1, 2, 3, 4]);
    expect(await q('--until', '2000-01-01')).toEqual([]);
    expect(await q('--limit', '2')).toEqual([3, 4]);
    const jsonl = await run(process.execPath, [CLI, 'history', '--project-dir', project, '--jsonl', '--risk', 'critical'], null);
    expect(jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l).seq)).toEqual([3]);
    const tableOut = await run(process.execPath, [CLI, 'history', '--project-dir', project], null);
    expect(tableOut.stdout).toMatch(/seq\s+ts\s+event/);
    expect(tableOut.stdout).toContain('UserPromptSubmit critical');
  });

  it('bad filters get a one-line error naming the flag', async () => {
    const project = await ledgerWith(1);
    for (const [args, msg] of [
      [['--risk', 'severe'], '--risk "severe"'],
      [['--since', 'yesterday'], '--since "yesterday"'],
      [['--limit', '-3'], '--limit "-3"'],
      [['--colour'], 'unknown option --colour'],
    ] as const) {
      const r = await run(process.execPath, [CLI, 'history', '--project-dir', project, ...args], null);
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(msg);
    }
  });
});

describe('the runner and a failing ledger', () => {
  const postToolUse = () => ({ ...preToolUse(), hook_event_name: 'PostToolUse', tool_response: { stdout: 'ok' } });
  const warnHook = (event: string) => writeRegistry({ [event]: [{ id: 'h', entry: BEHAVE, fallback: 'warn', policy: { mode: 'ok' } }] });

  it('a journal that cannot be written: a blocking event blocks with a one-line reason, a non-blocking one answers with a warning', async () => {
    const project = tempDir();
    // Unwritable even for root: the journal's name is taken by a folder.
    mkdirSync(join(project, '.loom', 'compliance', 'journal.log'), { recursive: true });
    const pre = await runHook(['h', '--config', warnHook('PreToolUse'), '--project-dir', project], preToolUse());
    expect(pre.code).toBe(2);
    expect(pre.stderr).toMatch(/ledger: .*journal\.log/);
    expect(pre.stderr.trim().split('\n')).toHaveLength(1);
    const post = await runHook(['h', '--config', warnHook('PostToolUse'), '--project-dir', project], postToolUse());
    expect(post.code).toBe(0);
    expect(post.stderr).toMatch(/loom: ledger: .*journal\.log/);
  });

  it('error-fallback hooks fail when the ledger cannot record, on any event', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.loom', 'compliance', 'journal.log'), { recursive: true });
    const cfg = writeRegistry({ PostToolUse: [{ id: 'h', entry: BEHAVE, fallback: 'error', policy: { mode: 'ok' } }] });
    const r = await runHook(['h', '--config', cfg, '--project-dir', project], postToolUse());
    // PostToolUse cannot block: the failure is Claude Code's non-blocking error (exit 1), shown with the reason.
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ledger:');
  });

  it('a corrupt database is reported and never reset; the journal keeps recording once it exists', async () => {
    const project = tempDir();
    mkdirSync(join(project, '.loom/compliance'), { recursive: true });
    const junk = Buffer.alloc(8192, 7);
    writeFileSync(dbPath(project), junk);
    // No journal yet: the head must come from the database, which is unreadable.
    const pre = await runHook(['h', '--config', warnHook('PreToolUse'), '--project-dir', project], preToolUse());
    expect(pre.code).toBe(2);
    expect(pre.stderr).toMatch(/corrupt|not a database/);
    const post = await runHook(['h', '--config', warnHook('PostToolUse'), '--project-dir', project], postToolUse());
    expect(post.code).toBe(0);
    expect(post.stderr).toMatch(/corrupt|not a database/);
    expect(readFileSync(dbPath(project)).equals(junk)).toBe(true);
    const f = fold(project);
    expect(readFileSync(dbPath(project)).equals(junk)).toBe(true);
    expect(f.exitCode).not.toBe(0);
  });

  it('a journal lock held past the wait: a blocking event blocks, a non-blocking one warns, nothing recorded is lost', async () => {
    const project = await ledgerWith(3);
    // A live owner (this test process) holds the lock.
    const { acquireJournalLock } = await import('../src/ledger/journal-lock');
    const lock = acquireJournalLock(join(project, '.loom', 'compliance'));
    const env = { LOOM_LOCK_WAIT_MS: '1500' };
    const pre = await runHook(['h', '--config', warnHook('PreToolUse'), '--project-dir', project], preToolUse(), env);
    const post = await runHook(['h', '--config', warnHook('PostToolUse'), '--project-dir', project], postToolUse(), env);
    lock.release();
    expect(pre.code).toBe(2);
    expect(pre.stderr).toMatch(/stayed locked by pid \d+ for more than 1500 ms/);
    expect(post.code).toBe(0);
    expect(post.stderr).toMatch(/stayed locked/);
    expect(verifyLedger(project).records).toBe(3);
    const after = await runHook(['h', '--config', warnHook('PostToolUse'), '--project-dir', project], postToolUse());
    expect(after.code, after.stderr).toBe(0);
    expect(verifyLedger(project)).toMatchObject({ status: 'intact', records: 4 });
  });

  it('each invocation records its hooks with the payload session and the final decision', async () => {
    const project = tempDir();
    const cfg = writeRegistry({ PreToolUse: [{ id: 'a', entry: BEHAVE, policy: { mode: 'ok' } }, { id: 'b', entry: BEHAVE, policy: { mode: 'deny', reason: 'nope' } }] });
    const r = await runHook(['--event', 'PreToolUse', '--config', cfg, '--project-dir', project], { ...preToolUse(), session_id: 'sess-xyz' });
    expect(r.code).toBe(2);
    expect(fold(project).exitCode).toBe(0);
    const view = readHistoryView(project);
    expect(view.map((x) => [x.hook_id, x.decision, x.session_id, x.event])).toEqual([
      ['a', 'deny', 'sess-xyz', 'PreToolUse'],
      ['b', 'deny', 'sess-xyz', 'PreToolUse'],
    ]);
  });
});

describe('checkpoints', () => {
  it('are written every N records and at SessionEnd', async () => {
    const project = await ledgerWith(5, { LOOM_CHECKPOINT_EVERY: '2' });
    const lines = () => readFileSync(join(project, '.loom/compliance/checkpoints.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines().map((c) => c.seq)).toEqual([2, 3, 4, 5].filter((n) => n % 2 === 0));
    const cfg = writeRegistry({ SessionEnd: [{ id: 'end', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const r = await runHook(['end', '--config', cfg, '--project-dir', project], { hook_event_name: 'SessionEnd', session_id: 's' });
    expect(r.code, r.stderr).toBe(0);
    const last = lines().at(-1);
    expect(last).toMatchObject({ seq: 6, count: 6, reason: 'session-end' });
    expect(last.hash).toBe(verifyLedger(project).head?.hash);
  });
});

describe('rebuild helper', () => {
  it('works on an empty ledger', () => {
    const project = tempDir();
    const l = Ledger.openForAppend(project);
    expect(l.withWriteLock(() => rebuildHistory(l))).toEqual({ records: 0, segments: 0 });
    l.close();
    expect(JSON.parse(readFileSync(join(project, '.loom/compliance/history.json'), 'utf8'))).toEqual([]);
  });
});
