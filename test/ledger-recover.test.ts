// A corrupt ledger database, end to end with real SQLite files and real
// processes: hooks keep answering and recording (the journal), nothing is
// folded into the damaged file, verify / fold / doctor say so in one line,
// and `loom recover` sets the file aside and continues the chain, with a
// recovery record that verify names.
import Database from 'better-sqlite3';
import { closeSync, cpSync, existsSync, openSync, readFileSync, readdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, run, RUNNER, tempDir } from './helpers';

const post = JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'fine' } });
const pre = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } });
const home = tempDir('loom-recover-home-');
const env = { HOME: home, LOOM_FOLD_EVERY: '100000' };
const oneLine = (s: string) => s.trim().split('\n').length === 1 && !/\n\s+at |\.js:\d+:\d+/.test(s);
const dir = (p: string) => join(p, '.loom', 'compliance');
const dbOf = (p: string) => join(dir(p), 'ledger.db');

async function hooks(project: string, n: number, payload = post, event = 'PostToolUse'): Promise<void> {
  for (let i = 0; i < n; i++) {
    const r = await run(process.execPath, [RUNNER, '--event', event, '--project-dir', project], payload, env);
    expect(r.code, r.stderr).toBe(0);
  }
}
const loom = (args: string[]) => run(process.execPath, [CLI, ...args], null, env);
const verifyJson = async (project: string) => {
  const v = await loom(['verify', '--project-dir', project, '--json']);
  return { code: v.code, r: JSON.parse(v.stdout) as Record<string, any>, stderr: v.stderr };
};

/** A ledger of `folded` records in the database (checkpointed), then `pending` more only in the journal. */
async function ledger(folded: number, pending: number): Promise<string> {
  const project = tempDir('loom-recover-');
  await hooks(project, folded);
  expect((await loom(['fold', '--project-dir', project])).code).toBe(0);
  expect((await loom(['checkpoint', '--project-dir', project])).code).toBe(0);
  await hooks(project, pending);
  // Everything in the main file, so damage to a page is damage to the records.
  const d = new Database(dbOf(project));
  d.pragma('wal_checkpoint(TRUNCATE)');
  d.close();
  return project;
}

function damage(project: string, which: 'index' | 'all'): void {
  const file = dbOf(project);
  const d = new Database(file, { readonly: true });
  const root = (d.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'records_ts'").get() as { rootpage: number }).rootpage;
  d.close();
  const fd = openSync(file, 'r+');
  const junk = Buffer.alloc(4096, 0x41);
  if (which === 'index') writeSync(fd, junk, 0, 4096, (root - 1) * 4096);
  else for (let off = 4096; off < statSync(file).size; off += 4096) writeSync(fd, junk, 0, 4096, off);
  closeSync(fd);
}

describe('a corrupt ledger database', () => {
  it('is found and left alone: hooks keep recording, fold refuses, verify and doctor say corrupt in one line', async () => {
    const project = await ledger(5, 2);
    damage(project, 'index');
    const before = readFileSync(dbOf(project));
    const journal = () => readFileSync(join(dir(project), 'journal.log'), 'utf8').trim().split('\n').length;
    const lines = journal();
    // The hook path writes only the journal: both events answer and record.
    await hooks(project, 1, pre, 'PreToolUse');
    await hooks(project, 1);
    expect(journal()).toBe(lines + 2);
    const v = await loom(['verify', '--project-dir', project]);
    expect(v.code).toBe(2);
    expect(v.stderr).toMatch(/ledger\.db is corrupt \(.+\).*run loom recover/);
    expect(oneLine(v.stderr)).toBe(true);
    expect(existsSync(join(dir(project), 'ledger.db.corrupt.json'))).toBe(true);
    const f = await loom(['fold', '--project-dir', project]);
    expect(f.code).toBe(2);
    expect(f.stderr).toMatch(/is corrupt .*nothing is folded into it/);
    expect(oneLine(f.stderr)).toBe(true);
    // Not one byte of the damaged file changed: no fold appended to it.
    expect(readFileSync(dbOf(project)).equals(before)).toBe(true);
    const doc = await loom(['doctor', '--project-dir', project]);
    expect(doc.stdout).toMatch(/FAIL ledger: cannot verify: .*corrupt.*-> fix: run loom recover/);
    expect(doc.stderr).toBe('');
  }, 180_000);

  it('loom recover, damaged index: every record survives, set aside byte for byte, the recovery named by verify', async () => {
    const project = await ledger(6, 2);
    damage(project, 'index');
    const corrupt = readFileSync(dbOf(project));
    await hooks(project, 2);
    const r = await loom(['recover', '--project-dir', project, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    // The journal's first line is seq 6 (the head kept at folding): 1..5 came from the old file, verified as a chain.
    expect(out).toMatchObject({ salvaged: 5, anchor: { seq: 5, source: 'journal' } });
    const aside = out.setAside.find((f: string) => /ledger\.db\.corrupt-[^/]*$/.test(f) && !/-(wal|shm)$|\.json$/.test(f));
    expect(readFileSync(aside).equals(corrupt)).toBe(true);
    const v = await verifyJson(project);
    expect(v.code, v.stderr).toBe(0);
    // 6 folded + 2 + 2 pending + the recovery record: nothing lost.
    expect(v.r).toMatchObject({ status: 'intact', records: 11, head: { seq: 11 } });
    expect(v.r.recovered).toEqual([expect.objectContaining({ seq: 11, salvaged: 5 })]);
    const text = await loom(['verify', '--project-dir', project]);
    expect(text.stdout).toMatch(/^recovered at seq 11: records 1\.\.5 were copied from the corrupt file/m);
    // The chain goes on.
    await hooks(project, 1);
    expect((await verifyJson(project)).r).toMatchObject({ status: 'intact', records: 12 });
    // A sound database is not "recovered" again.
    const again = await loom(['recover', '--project-dir', project]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/passes PRAGMA quick_check: nothing to recover/);
  }, 180_000);

  it('loom recover, unreadable file: the new ledger continues from the journal\'s anchor, checked against the checkpoints; not "restarted"', async () => {
    const project = await ledger(8, 3);
    damage(project, 'all');
    // No reviewer's copy either (it would fill records 1..7): nothing before the anchor reads back.
    rmSync(join(dir(project), 'history.json'), { force: true });
    rmSync(join(dir(project), 'history'), { recursive: true, force: true });
    const r = await loom(['recover', '--project-dir', project, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ salvaged: 0, anchor: { seq: 7, source: 'journal' }, refolded: 5 });
    // The checkpoint at seq 8 (inside the project and in the state folder) vouches for the journal line it names.
    expect(out.anchor.checkedAgainst.join(' ')).toMatch(/checkpoint at seq 8/);
    expect(out.gaps).toEqual([[1, 7]]);
    // The chain from the anchor holds, but records 1..7 are only in the file set aside: not "intact", exit 1.
    const v = await verifyJson(project);
    expect(v.code, JSON.stringify(v.r)).toBe(1);
    expect(v.r).toMatchObject({ status: 'tampered', problem: { seq: 1, kind: 'recovered-with-gaps' }, records: 5, head: { seq: 12 } });
    expect(v.r.problem.detail).toMatch(/^seq 1\.\.7 unreadable, kept in ledger\.db\.corrupt-/);
    expect(v.r.recovered).toEqual([expect.objectContaining({ seq: 12, firstSeq: 8, anchor: expect.objectContaining({ seq: 7 }) })]);
    await hooks(project, 2);
    expect((await verifyJson(project)).r).toMatchObject({ problem: { kind: 'recovered-with-gaps' }, head: { seq: 14 } });
  }, 180_000);

  it('a database made to start late without a recovery record is head-cut; recover refuses a journal its checkpoints contradict', async () => {
    const project = await ledger(5, 0);
    // Records 1..2 removed and the meta dressed up as a recovered ledger.
    const d = new Database(dbOf(project));
    const h2 = (d.prepare('SELECT hash FROM records WHERE seq = 2').get() as { hash: string }).hash;
    const h1 = (d.prepare('SELECT hash FROM records WHERE seq = 1').get() as { hash: string }).hash;
    d.exec('DROP TRIGGER records_no_delete');
    d.exec('DELETE FROM records WHERE seq <= 2');
    // ledger_id too: the checkpoints' ledger id must not give it away first (that would be 'restarted').
    d.prepare("INSERT INTO meta(key, value) VALUES ('base_seq', '3'), ('base_prev_hash', ?), ('ledger_id', ?)").run(h2, h1.slice(0, 16));
    d.close();
    const v = await verifyJson(project);
    expect(v.code).toBe(1);
    expect(v.r.problem).toMatchObject({ seq: 3, kind: 'head-cut' });

    const other = await ledger(5, 2);
    damage(other, 'all');
    // A checkpoint naming another hash for a journal line: tampering, not damage. Nothing is changed.
    const cp = join(dir(other), 'checkpoints.jsonl');
    const line = JSON.parse(readFileSync(cp, 'utf8').trim().split('\n').pop()!);
    const { appendFileSync } = await import('node:fs');
    appendFileSync(cp, JSON.stringify({ ...line, seq: 6, hash: 'f'.repeat(64) }) + '\n');
    const r = await loom(['recover', '--project-dir', other]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/checkpoint .* recorded seq 6 .*the chain was altered, nothing recovered/);
    expect(existsSync(dbOf(other))).toBe(true);
    expect(readdirSync(dir(other)).some((f) => /\.corrupt-/.test(f))).toBe(false);
  }, 180_000);

  // Red team finding 10: three zeroed pages of a 250-record ledger must not cut the history to the recovery record.
  const zeroPages = (project: string, firstPage: number, n: number) => {
    const fd = openSync(dbOf(project), 'r+');
    writeSync(fd, Buffer.alloc(4096 * n), 0, 4096 * n, 4096 * firstPage);
    closeSync(fd);
  };
  const hashesOf = (file: string, upTo: number) => {
    const d = new Database(file, { readonly: true });
    try {
      return new Map((d.prepare('SELECT seq, hash FROM records WHERE seq <= ?').all(upTo) as { seq: number; hash: string }[]).map((r) => [r.seq, r.hash]));
    } finally {
      d.close();
    }
  };

  for (const where of ['early', 'late'] as const) {
    it(`loom recover, ${where} pages of a 250-record ledger zeroed: every readable record salvaged verbatim, the gap named, verify exits 1 recovered-with-gaps`, async () => {
      const project = await ledger(250, 0);
      const original = hashesOf(dbOf(project), 250);
      // No reviewer's copy: the damaged file is the only witness of the records before the anchor.
      rmSync(join(dir(project), 'history.json'), { force: true });
      rmSync(join(dir(project), 'history'), { recursive: true, force: true });
      const pages = statSync(dbOf(project)).size / 4096;
      zeroPages(project, where === 'early' ? 20 : Math.floor(pages * 0.7), 3);
      const r = await loom(['recover', '--project-dir', project, '--json']);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.anchor).toMatchObject({ seq: 249, source: 'journal' });
      expect(out.gaps.length).toBeGreaterThan(0);
      const lost = out.gaps.reduce((n: number, g: [number, number]) => n + g[1] - g[0] + 1, 0);
      expect(out.salvaged + lost).toBe(249);
      expect(out.salvaged).toBeGreaterThan(200);
      // Verbatim: the same hash at the same seq as before the damage.
      const now = hashesOf(dbOf(project), 249);
      expect(now.size).toBe(out.salvaged);
      for (const [seq, hash] of now) expect(hash).toBe(original.get(seq));
      const v = await verifyJson(project);
      expect(v.code, JSON.stringify(v.r)).toBe(1);
      expect(v.r.problem).toMatchObject({ kind: 'recovered-with-gaps', seq: out.gaps[0][0] });
      expect(v.r.records).toBe(out.salvaged + 2);
      expect(v.r.gaps.map((g: any) => [g.first, g.last])).toEqual(out.gaps);
      const text = await loom(['verify', '--project-dir', project]);
      expect(text.code).toBe(1);
      expect(text.stdout).toMatch(new RegExp(`^recovered-with-gaps: seq ${out.gaps[0][0]}\\.\\.${out.gaps[0][1]}.* unreadable, kept in ledger\\.db\\.corrupt-`, 'm'));
      const doc = await loom(['doctor', '--project-dir', project]);
      expect(doc.stdout).toMatch(/FAIL ledger: recovered with gaps: seq \d+/);
      // The chain goes on after the recovery, the gap still said.
      await hooks(project, 2);
      expect((await loom(['fold', '--project-dir', project])).code).toBe(0);
      const again = await verifyJson(project);
      expect(again.code).toBe(1);
      expect(again.r).toMatchObject({ records: out.salvaged + 4, problem: { kind: 'recovered-with-gaps' } });
      const hist = JSON.parse(readFileSync(join(dir(project), 'history.json'), 'utf8')) as unknown[];
      expect(hist.length).toBe(out.salvaged + 4);
    }, 300_000);
  }

  it('loom recover: the history view fills what the damaged file does not yield (same hashes), so no gap and exit 0', async () => {
    const project = await ledger(60, 0);
    const original = hashesOf(dbOf(project), 60);
    zeroPages(project, 3, 3);
    const r = await loom(['recover', '--project-dir', project, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ salvaged: 59, gaps: [] });
    for (const [seq, hash] of hashesOf(dbOf(project), 59)) expect(hash).toBe(original.get(seq));
    const v = await verifyJson(project);
    expect(v.code, JSON.stringify(v.r)).toBe(0);
    expect(v.r).toMatchObject({ status: 'intact', records: 61 });
  }, 300_000);

  it('writers on a database with zeroed pages (checkpoint, history rebuild, history): one line naming the file, loom doctor and loom recover, exit 2, no stack; a zeroed first page is still recovered', async () => {
    const project = await ledger(40, 0);
    const size = statSync(dbOf(project)).size;
    zeroPages(project, 1, size / 4096 - 1);
    for (const args of [['checkpoint'], ['checkpoint', '--json'], ['history', 'rebuild'], ['history']]) {
      const r = await loom([...args, '--project-dir', project]);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(r.stderr).toContain(dbOf(project));
      expect(r.stderr).toMatch(/is corrupt \(.*\).*loom doctor.*loom recover/);
      expect(r.stderr).not.toMatch(/the ledger database: the ledger database/);
      expect(r.stdout).toBe('');
    }
    // No checkpoint names the head of a file that does not read.
    const cps = readFileSync(join(dir(project), 'checkpoints.jsonl'), 'utf8').trim().split('\n');
    expect(cps).toHaveLength(1);
    // The first page gone too ("file is not a database"): recover still sets it aside and salvages from the history view.
    zeroPages(project, 0, 1);
    const r = await loom(['recover', '--project-dir', project]);
    expect(r.code, r.stderr).toBe(0);
    expect((await verifyJson(project)).r).toMatchObject({ status: 'intact', records: 41 });
  }, 120_000);

  it('loom recover --acknowledge: a chained record names the gaps, the reason and who; verify then exits 0 saying so and still lists the gaps; a forged or edited acknowledgment is tampering', async () => {
    const project = await ledger(60, 0);
    rmSync(join(dir(project), 'history.json'), { force: true });
    rmSync(join(dir(project), 'history'), { recursive: true, force: true });
    zeroPages(project, 3, 3);
    expect((await loom(['recover', '--project-dir', project])).code).toBe(0);
    const before = await verifyJson(project);
    expect(before.code).toBe(1);
    const gaps = before.r.gaps.map((g: any) => [g.first, g.last]);
    expect(gaps.length).toBeGreaterThan(0);
    // Nothing to acknowledge without a reason.
    const empty = await loom(['recover', '--project-dir', project, '--acknowledge', ' ']);
    expect(empty.code).toBe(2);
    expect(oneLine(empty.stderr)).toBe(true);
    const ack = await loom(['recover', '--project-dir', project, '--acknowledge', 'disk failure on the build box; the set-aside file is archived']);
    expect(ack.code, ack.stderr).toBe(0);
    expect(ack.stdout).toMatch(/^acknowledged: seq \d+\.\.\d+.*acknowledgment record: seq 62$/m);
    const v = await verifyJson(project);
    expect(v.code, JSON.stringify(v.r.problem)).toBe(0);
    expect(v.r).toMatchObject({ status: 'intact', acknowledged: { seq: 62, reason: 'disk failure on the build box; the set-aside file is archived' } });
    expect(v.r.gaps.map((g: any) => [g.first, g.last])).toEqual(gaps);
    const text = await loom(['verify', '--project-dir', project]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(new RegExp(`^recovered-with-gaps \\(acknowledged seq 62 by \\S+: disk failure on the build box; the set-aside file is archived\\): seq ${gaps[0][0]}\\.\\.${gaps[0][1]} unreadable`, 'm'));
    expect((await loom(['doctor', '--project-dir', project])).stdout).toMatch(/ok {3}ledger: intact, .*recovered-with-gaps \(acknowledged seq 62/);
    // Once is enough.
    const twice = await loom(['recover', '--project-dir', project, '--acknowledge', 'again']);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/already acknowledged \(seq 62/);
    // The chain goes on; still acknowledged.
    await hooks(project, 2);
    expect((await verifyJson(project)).code).toBe(0);
    // An acknowledgment naming a range that is not a gap (appended as anyone who can write the ledger could): tampering.
    const forged = tempDir('loom-recover-forged-');
    cpSync(project, forged, { recursive: true });
    const { appendJournal } = await import('../src/ledger/journal');
    appendJournal(forged, [{ event: 'LedgerAcknowledgment', hook_id: 'loom-recover', harness: 'loom', session_id: '', risk: 'high', decision: 'acknowledged', status: 'ok', kind: 'acknowledgment', data: { gaps: [[1, 30]], set_aside: [], reason: 'nothing to see', actor: { user: 'mallory' } }, redactions: 0 }], undefined);
    const f = await verifyJson(forged);
    expect(f.code).toBe(1);
    expect(f.r.problem).toMatchObject({ kind: 'acknowledgment-mismatch', seq: 65 });
    expect(f.r.problem.detail).toMatch(/names seq 1\.\.30, which is not a gap/);
    // The acknowledgment's reason edited in the database: the chain says edited.
    const edited = tempDir('loom-recover-edited-');
    cpSync(project, edited, { recursive: true });
    expect((await loom(['fold', '--project-dir', edited])).code).toBe(0);
    const d = new Database(dbOf(edited));
    d.exec('DROP TRIGGER IF EXISTS records_no_update');
    d.prepare("UPDATE records SET body = replace(body, 'disk failure', 'disk failurE') WHERE seq = 62").run();
    d.close();
    const e = await verifyJson(edited);
    expect(e.code).toBe(1);
    expect(e.r.problem).toMatchObject({ kind: 'edited', seq: 62 });
  }, 300_000);

  it('meta gaps without a recovery record naming them: deleted, not a recovery', async () => {
    const project = await ledger(6, 0);
    const d = new Database(dbOf(project));
    d.exec('DROP TRIGGER records_no_delete');
    d.exec('DELETE FROM records WHERE seq IN (3, 4)');
    d.prepare("INSERT INTO meta(key, value) VALUES ('gaps', '[[3,4]]')").run();
    d.close();
    const v = await verifyJson(project);
    expect(v.code).toBe(1);
    expect(v.r.problem).toMatchObject({ seq: 3, kind: 'deleted' });
  }, 180_000);
});
