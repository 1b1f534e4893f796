// The journal (the ledger's write path) and its lock, quick versions of the
// chaos suite: real processes and files, seconds not minutes.
import Database from 'better-sqlite3';
import { execa, execaSync } from 'execa';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { acquireJournalLock, DEFAULT_LOCK_WAIT_MS, MAX_LOCK_WAIT_MS } from '../src/ledger/journal-lock';
import { lockWaitMs } from '../src/ledger/journal';
import { verifyLedger } from '../src/ledger/verify';
import { BEHAVE, bundledFixture, CLI, ROOT, run, tempDir, writeRegistry } from './helpers';

const DRIVER = join(ROOT, 'test', 'fixtures', 'ledger-driver.ts');
const dirOf = (project: string) => join(project, '.loom', 'compliance');
const journalOf = (project: string) => join(dirOf(project), 'journal.log');
const cli = (args: string[], env: NodeJS.ProcessEnv = {}) => execaSync(process.execPath, [CLI, ...args], { env: { ...process.env, LOOM_LEDGER_KEY: '', LOOM_CHECKPOINT_DIR: '', ...env }, reject: false, stripFinalNewline: false });

function drive(project: string, count: number, tag: string, env: NodeJS.ProcessEnv = {}) {
  return run(process.execPath, [bundledFixture(DRIVER), project, String(count), tag], null, env);
}

describe('the journal', () => {
  it('hooks append lines, not database rows; a fold copies them verbatim (same seq, body, hash) and keeps the head line', async () => {
    const project = tempDir();
    expect((await drive(project, 5, 'a')).code).toBe(0);
    expect(existsSync(join(dirOf(project), 'ledger.db'))).toBe(false);
    expect(existsSync(join(dirOf(project), 'history.json'))).toBe(false);
    const lines = readFileSync(journalOf(project), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(5);
    const f = cli(['fold', '--project-dir', project]);
    expect(f.exitCode, f.stderr).toBe(0);
    expect(f.stdout).toContain('folded 5 records');
    const db = new Database(join(dirOf(project), 'ledger.db'), { readonly: true });
    const rows = db.prepare('SELECT seq, hash, body FROM records ORDER BY seq').all() as { seq: number; hash: string; body: string }[];
    db.close();
    expect(rows.map((r) => `${r.seq} ${r.hash} ${r.body}`)).toEqual(lines);
    // Compacted to the head line, which the next writer chains onto.
    expect(readFileSync(journalOf(project), 'utf8')).toBe(lines[4] + '\n');
    expect((await drive(project, 2, 'b')).code).toBe(0);
    expect(verifyLedger(project)).toMatchObject({ status: 'intact', records: 7, journal: { lines: 3, unfolded: 2 } });
    // history.json is written at folding only, and loom history shows the live view meanwhile.
    expect(JSON.parse(readFileSync(join(dirOf(project), 'history.json'), 'utf8'))).toHaveLength(5);
    const live = await run(process.execPath, [CLI, 'history', '--project-dir', project, '--json'], null);
    expect((JSON.parse(live.stdout) as { seq: number }[]).map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(JSON.parse(readFileSync(join(dirOf(project), 'history.json'), 'utf8'))).toHaveLength(7);
  });

  it('a ledger written before the journal is continued from the database head', async () => {
    const project = tempDir();
    expect((await drive(project, 3, 'a')).code).toBe(0);
    expect(cli(['fold', '--project-dir', project]).exitCode).toBe(0);
    // An older loom: database only, no journal.
    const j = journalOf(project);
    rmSync(j);
    rmSync(join(dirOf(project), 'chain.json'));
    expect((await drive(project, 2, 'b')).code).toBe(0);
    expect(readFileSync(j, 'utf8').split('\n')[0]).toMatch(/^4 /);
    expect(verifyLedger(project)).toMatchObject({ status: 'intact', records: 5 });
  });

  it('a torn tail (a write that never completed) is cut by the next writer, never an acknowledged line', async () => {
    const project = tempDir();
    expect((await drive(project, 3, 'a')).code).toBe(0);
    const before = readFileSync(journalOf(project), 'utf8');
    appendFileSync(journalOf(project), '4 0123456789abcdef{"half a rec');
    const v = verifyLedger(project);
    expect(v.status).toBe('intact');
    expect(v.warnings.join(' ')).toMatch(/torn tail of \d+ bytes/);
    expect((await drive(project, 1, 'b')).code).toBe(0);
    const after = readFileSync(journalOf(project), 'utf8');
    expect(after.startsWith(before)).toBe(true);
    expect(after.slice(before.length)).toMatch(/^4 [0-9a-f]{64} \{.*\}\n$/);
    expect(verifyLedger(project)).toMatchObject({ status: 'intact', records: 4 });
  });

  it('a lock left by a writer that died holding it is broken by owner (pid gone), not waited out', async () => {
    const project = tempDir();
    mkdirSync(dirOf(project), { recursive: true });
    const ghost = execa(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { reject: false, stripFinalNewline: false });
    const pid = ghost.pid!;
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const ns = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))![1];
    ghost.kill('SIGKILL');
    await new Promise((r) => ghost.on('exit', r));
    writeFileSync(join(dirOf(project), 'journal.lock'), `owner-${pid}-${start}-${ns}-deadbeef`);
    const r = await drive(project, 1, 'a', { LOOM_LOCK_WAIT_MS: '3000' });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(dirOf(project), 'journal.lock'))).toBe(false);
    expect(readdirSync(dirOf(project)).filter((n) => n.startsWith('journal.lock'))).toEqual([]);
  });

  it.skipIf(process.platform !== 'linux')('a lock of a live process with a reused pid (another start time) is broken; one of a live owner is not', async () => {
    const project = tempDir();
    mkdirSync(dirOf(project), { recursive: true });
    const ns = /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))![1];
    // Our own pid, but a start time it never had: the owner is gone, the pid was reused.
    writeFileSync(join(dirOf(project), 'journal.lock'), `owner-${process.pid}-1-${ns}-reused`);
    expect((await drive(project, 1, 'a', { LOOM_LOCK_WAIT_MS: '3000' })).code).toBe(0);
    // A live owner: waited for, then the writer gives up with the reason.
    const lock = acquireJournalLock(dirOf(project));
    const r = await drive(project, 1, 'b', { LOOM_LOCK_WAIT_MS: '800' });
    lock.release();
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`stayed locked by pid ${process.pid} for more than 800 ms`));
    expect(verifyLedger(project).records).toBe(1);
  });

  it('16 writers at once: every record once, seq gap-free, one chain', async () => {
    const project = tempDir();
    const rs = await Promise.all(Array.from({ length: 16 }, (_, i) => drive(project, 10, `w${i}`)));
    for (const r of rs) expect(r.code, r.stderr).toBe(0);
    const lines = readFileSync(journalOf(project), 'utf8').trim().split('\n');
    expect(lines.map((l) => Number(l.split(' ')[0]))).toEqual(Array.from({ length: 160 }, (_, i) => i + 1));
    expect(verifyLedger(project)).toMatchObject({ status: 'intact', records: 160 });
  });

  it.skipIf(process.platform !== 'linux')('a full disk (RLIMIT_FSIZE): the blocking hook blocks with "disk full", nothing torn or left behind, the next writer goes on', async () => {
    const project = tempDir();
    const cfg = writeRegistry({ PreToolUse: [{ id: 'h', entry: BEHAVE, policy: { mode: 'ok' } }] });
    const payload = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: `echo ${'y'.repeat(3000)}` }, cwd: project });
    const hookCmd = `exec "${process.execPath}" "${join(ROOT, 'hooks/run-hook.js')}" --event PreToolUse --config "${cfg}" --project-dir "${project}"`;
    // Append until the next record would cross a 1 KiB boundary: the size limit (in KiB) then falls inside it.
    let records = 0;
    let size = 0;
    do {
      expect((await run('/bin/bash', ['-c', hookCmd], payload)).code).toBe(0);
      records++;
      size = readFileSync(journalOf(project)).length;
    } while (Math.ceil(size / 1024) * 1024 - size >= size / records - 16);
    // Any write past this size fails with EFBIG (the signal ignored, as a full disk fails with ENOSPC).
    const limited = await run('/bin/bash', ['-c', `trap '' XFSZ; ulimit -f ${Math.ceil(size / 1024)}; ${hookCmd}`], payload);
    // (a write that stops at the limit is cut back: the journal is exactly as before)
    expect(limited.code).toBe(2);
    expect(limited.stderr).toMatch(/disk full/);
    expect(readFileSync(journalOf(project)).length).toBe(size);
    expect(readdirSync(dirOf(project)).filter((n) => n.endsWith('.tmp') || n.startsWith('journal.lock'))).toEqual([]);
    expect((await run('/bin/bash', ['-c', hookCmd], payload)).code).toBe(0);
    expect(verifyLedger(project)).toMatchObject({ status: 'intact', records: records + 1 });
  });
});

describe('verify covers the journal', () => {
  async function journalWith(n: number): Promise<string> {
    const project = tempDir();
    expect((await drive(project, n, 'm')).code).toBe(0);
    return project;
  }
  const rewrite = (project: string, fn: (lines: string[]) => string[]) => writeFileSync(journalOf(project), fn(readFileSync(journalOf(project), 'utf8').trim().split('\n')).join('\n') + '\n');
  const verify = (project: string) => {
    // --json with the journal as it is (a fold first would stop at the bad line anyway).
    const r = cli(['verify', '--project-dir', project, '--json']);
    return { code: r.exitCode, json: JSON.parse(r.stdout) };
  };

  it('an edited journal line is edited', async () => {
    const project = await journalWith(6);
    rewrite(project, (ls) => ls.map((l, i) => (i === 3 ? l.replace('echo m-3', 'echo m-X') : l)));
    const r = verify(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 4, kind: 'edited' });
  });

  it('a removed journal line is deleted', async () => {
    const project = await journalWith(6);
    rewrite(project, (ls) => ls.filter((_, i) => i !== 2));
    const r = verify(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 3, kind: 'deleted' });
  });

  it('a journal line that is not a record is edited', async () => {
    const project = await journalWith(4);
    rewrite(project, (ls) => [...ls.slice(0, 2), 'not a record', ...ls.slice(2)]);
    const r = verify(project);
    expect(r.code).toBe(1);
    expect(r.json.problem.kind).toBe('edited');
  });

  it('a folded line that no longer matches its database record is edited', async () => {
    const project = await journalWith(4);
    expect(cli(['fold', '--project-dir', project]).exitCode).toBe(0);
    rewrite(project, (ls) => ls.map((l) => l.replace(/^(\d+) [0-9a-f]{4}/, '$1 0000')));
    const r = verify(project);
    expect(r.code).toBe(1);
    expect(r.json.problem).toMatchObject({ seq: 4, kind: 'edited' });
  });
});

describe('the journal lock wait stays below the hook timeout loom installs (30 s)', () => {
  it('LOOM_LOCK_WAIT_MS is held to at most 25 s, and a value that is not a number of milliseconds is the default', () => {
    expect(DEFAULT_LOCK_WAIT_MS).toBeLessThan(30_000);
    expect(lockWaitMs({ LOOM_LOCK_WAIT_MS: '99999999999999999999' })).toBe(MAX_LOCK_WAIT_MS);
    expect(lockWaitMs({ LOOM_LOCK_WAIT_MS: '120000' })).toBe(MAX_LOCK_WAIT_MS);
    for (const v of ['abc', '1000abc', 'Infinity', '1e999', '', ' ', '-5']) expect(lockWaitMs({ LOOM_LOCK_WAIT_MS: v }), v).toBe(DEFAULT_LOCK_WAIT_MS);
    expect(lockWaitMs({ LOOM_LOCK_WAIT_MS: '500' })).toBe(500);
    expect(lockWaitMs({})).toBe(DEFAULT_LOCK_WAIT_MS);
  });
});
