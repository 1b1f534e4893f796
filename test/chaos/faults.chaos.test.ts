// Faults on a blocking (PreToolUse) and a non-blocking (PostToolUse) event:
// a read-only project folder, a corrupt database page, a missing native
// module. Each gives the documented answer in one line: the blocking event
// blocks, the other warns and exits 0; nothing is recorded silently wrong,
// and verify / report / doctor answer with their code and one line.
import { execaSync } from 'execa';
import { cpSync, mkdirSync, openSync, closeSync, readFileSync, rmSync, statSync, symlinkSync, writeSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, ROOT, run, RUNNER, tempDir } from '../helpers';

const pre = JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' } });
const post = JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'x'.repeat(3000) } });
const oneLine = (s: string) => s.trim().split('\n').length === 1 && !/\n\s+at |\.js:\d+:\d+/.test(s);
const counts: Record<string, string> = {};
const journalLines = (project: string) => {
  try {
    return readFileSync(join(project, '.loom', 'compliance', 'journal.log'), 'utf8').split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

async function both(runner: string, project: string, env: NodeJS.ProcessEnv = {}) {
  const a = await run(process.execPath, [runner, '--event', 'PreToolUse', '--project-dir', project], pre, env);
  const b = await run(process.execPath, [runner, '--event', 'PostToolUse', '--project-dir', project], post, env);
  return { pre: a, post: b };
}

async function withLedger(n = 4): Promise<string> {
  const project = tempDir();
  for (let i = 0; i < n; i++) expect((await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', project], post)).code).toBe(0);
  // Hooks append to the journal; the database holds what was folded.
  expect((await run(process.execPath, [CLI, 'fold', '--project-dir', project], null)).code).toBe(0);
  return project;
}

describe('faults', () => {
  it('read-only project folder', async () => {
    const project = await withLedger();
    const mnt = tempDir('loom-ro-');
    let undo: () => void;
    if (process.getuid?.() === 0) {
      // root ignores permission bits: a read-only bind mount is what a read-only folder is for root.
      execaSync('mount', ['--bind', project, mnt]);
      execaSync('mount', ['-o', 'remount,bind,ro', mnt]);
      undo = () => execaSync('umount', [mnt]);
    } else {
      rmSync(mnt, { recursive: true });
      symlinkSync(project, mnt);
      execaSync('chmod', ['-R', 'a-w', join(project, '.loom')]);
      undo = () => execaSync('chmod', ['-R', 'u+w', join(project, '.loom')]);
    }
    try {
      const r = await both(RUNNER, mnt);
      expect(r.pre.code).toBe(2);
      expect(r.pre.stderr).toMatch(/ledger/);
      expect(oneLine(r.pre.stderr)).toBe(true);
      expect(r.post.code).toBe(0);
      expect(r.post.stderr).toMatch(/loom: ledger: .*(read-only|cannot write|READONLY|EROFS|EACCES)/i);
      expect(oneLine(r.post.stderr)).toBe(true);
      counts['read-only'] = `pre exit ${r.pre.code}, post exit ${r.post.code} with a warning`;
    } finally {
      undo();
    }
    // Nothing half-written: the ledger still verifies.
    expect((await run(process.execPath, [CLI, 'verify', '--project-dir', project], null)).code).toBe(0);
  });

  it('corrupt database page', async () => {
    const project = await withLedger(8);
    const db = join(project, '.loom', 'compliance', 'ledger.db');
    // Fold the WAL in, then overwrite the pages with garbage.
    execaSync(process.execPath, ['-e', `const D=require(${JSON.stringify(join(ROOT, 'node_modules', 'better-sqlite3'))});const d=new D(${JSON.stringify(db)});d.pragma('wal_checkpoint(TRUNCATE)');d.close()`], { reject: false, stripFinalNewline: false });
    const fd = openSync(db, 'r+');
    // Every page after the header page: whichever holds the records is malformed.
    const size = statSync(db).size;
    for (let off = 4096; off < size; off += 4096) writeSync(fd, Buffer.alloc(4096, 0x41), 0, 4096, off);
    closeSync(fd);
    const r = await both(RUNNER, project);
    // The hook path writes the journal, not the database: an answer is either recorded there (exit 0) or a block, never exit 1.
    expect([0, 2]).toContain(r.pre.code);
    if (r.pre.stderr) expect(oneLine(r.pre.stderr)).toBe(true);
    expect(r.post.code).toBe(0);
    if (r.pre.code === 0) expect(journalLines(project)).toBeGreaterThanOrEqual(2);
    const v = await run(process.execPath, [CLI, 'verify', '--project-dir', project], null);
    expect(v.code).toBe(2);
    expect(v.stderr + v.stdout).toMatch(/cannot verify: .*(corrupt|not a database|malformed|unreadable)/);
    expect(oneLine(v.stderr)).toBe(true);
    const rep = await run(process.execPath, [CLI, 'report', '--project-dir', project, '--out', join(tempDir(), 'r.html')], null);
    expect(rep.stderr).not.toMatch(/\n\s+at /);
    expect([0, 1, 2]).toContain(rep.code);
    const doc = await run(process.execPath, [CLI, 'doctor', '--project-dir', project], null);
    expect(doc.code).toBe(1);
    expect(doc.stdout).toMatch(/FAIL ledger: cannot verify: /);
    expect(doc.stderr).toBe('');
    counts['corrupt page'] = `pre ${r.pre.code}, post ${r.post.code}, verify ${v.code}, report ${rep.code}, doctor ${doc.code}`;
  });

  it('missing native module (better-sqlite3 not installed)', async () => {
    const pack = tempDir('loom-pack-');
    for (const d of ['bin', 'hooks', 'dist', 'config', 'handlers', 'package.json']) cpSync(join(ROOT, d), join(pack, d), { recursive: true });
    mkdirSync(join(pack, 'node_modules'));
    expect(readdirSync(join(pack, 'node_modules'))).toEqual([]);
    const project = tempDir();
    const r = await both(join(pack, 'hooks', 'run-hook.js'), project);
    // The hook path needs no SQLite (journal): the call is answered and recorded, or blocked in one line; never exit 1.
    expect([0, 2]).toContain(r.pre.code);
    if (r.pre.stderr) expect(oneLine(r.pre.stderr)).toBe(true);
    if (r.pre.code === 0) expect(journalLines(project)).toBeGreaterThanOrEqual(1);
    expect(r.post.code).toBe(0);
    if (r.post.stderr) expect(oneLine(r.post.stderr)).toBe(true);
    // What needs SQLite says so in one line: verify cannot read the database without its addon.
    const v = await run(process.execPath, [join(pack, 'bin', 'loom.js'), 'verify', '--project-dir', project], null);
    expect(v.stderr).not.toMatch(/\n\s+at /);
    counts['missing native module'] = `pre ${r.pre.code}, post ${r.post.code}, journal lines ${journalLines(project)}, verify ${v.code}`;
  });

  it('prints the counts', () => {
    console.log(`faults: ${JSON.stringify(counts)}`);
    expect(Object.keys(counts).length).toBe(3);
  });
});
