// A record edited and re-hashed after it was witnessed stays detectable however
// long the agent keeps working: loom's own housekeeping (the fold compacting the
// append witness, the head witness moving on) never drops the only trace of the
// rewrite. Real journal, real SQLite file, real witness files in a state folder.
import Database from 'better-sqlite3';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { appendJournal } from '../src/ledger/journal';
import { foldJournal } from '../src/ledger/fold';
import { verifyLedger } from '../src/ledger/verify';
import { rewriteChain } from './ledger-forgers';
import { tempDir } from './helpers';

const draft = (i: number) => ({ event: 'PreToolUse', hook_id: 'pre-tool-guard', harness: 'claude', session_id: 's', risk: 'low' as const, decision: 'allow', status: 'ok' as const, kind: 'tool_call' as const, data: { tool: 'Bash', input_summary: `ls ${i}` }, redactions: 0 });

function appendMany(project: string, from: number, n: number): void {
  for (let i = from; i < from + n; i++) appendJournal(project, [draft(i)], undefined);
}

/** What an intruder with write access to .loom/compliance does: edit seq N, re-hash the rest, make the journal's head line agree. */
function forge(project: string, fromSeq: number): void {
  rewriteChain(project, fromSeq);
  const db = new Database(join(project, '.loom', 'compliance', 'ledger.db'), { readonly: true });
  const head = db.prepare('SELECT seq, hash, body FROM records ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string; body: string };
  db.close();
  writeFileSync(join(project, '.loom', 'compliance', 'journal.log'), `${head.seq} ${head.hash} ${head.body}\n`);
}

describe('a rewrite after the witnesses saw the records (black-box finding G10)', () => {
  let state: string;
  beforeEach(() => {
    state = tempDir('loom-state-');
    process.env.XDG_STATE_HOME = state;
    delete process.env.LOOM_CHECKPOINT_DIR;
  });
  const witnessFile = () => {
    const dir = join(state, 'loom', 'checkpoints');
    return join(dir, readdirSync(dir).find((n) => n.endsWith('.appends.log'))!);
  };

  it('edited at seq 35 of 40, then 1,100 more appends and folds: the witness keeps the line that disagrees, verify says rewritten at seq 35', () => {
    const project = tempDir();
    appendMany(project, 1, 40);
    expect(foldJournal(project).problems).toEqual([]);
    expect(verifyLedger(project).status).toBe('intact');
    forge(project, 35);
    // the agent keeps working on top of the forged head; folds come and go
    for (let k = 0; k < 11; k++) {
      appendMany(project, 41 + k * 100, 100);
      foldJournal(project);
    }
    expect(statSync(witnessFile()).size).toBeLessThan(64 * 1024 + 100 * 80);
    const lines = readFileSync(witnessFile(), 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(/^35 [0-9a-f]{64}$/);
    const v = verifyLedger(project);
    expect(v.status).toBe('tampered');
    expect(v.problem).toMatchObject({ seq: 35, kind: 'rewritten' });
    expect(v.problem!.detail).toMatch(/saw seq 35 appended with hash [0-9a-f]{12}…, the chain now has [0-9a-f]{12}… there: the chain was edited and re-hashed/);
  });

  it('the fold that compacts the witness says what it kept, and the head witness is not moved past a seq the chain changed', () => {
    const project = tempDir();
    appendMany(project, 1, 40);
    foldJournal(project);
    const headWitness = () => readdirSync(join(state, 'loom', 'checkpoints')).filter((n) => n.endsWith('.head.json')).map((n) => JSON.parse(readFileSync(join(state, 'loom', 'checkpoints', n), 'utf8')) as { seq: number });
    expect(headWitness().map((w) => w.seq)).toEqual([40]);
    forge(project, 35);
    appendMany(project, 41, 1000);
    const f = foldJournal(project);
    expect(f.warnings.join('\n')).toMatch(/saw seq 35 appended with hash .*kept as evidence \(run loom verify\)/);
    expect(f.warnings.join('\n')).toMatch(/head witness .* saw seq 40 with hash .*kept as evidence/);
    expect(headWitness().map((w) => w.seq)).toEqual([40]);
  });

  it('an untouched ledger: folds compact the witness to its last line and move the head witness on; verify is intact', () => {
    const project = tempDir();
    appendMany(project, 1, 1000);
    const f = foldJournal(project);
    expect(f.warnings).toEqual([]);
    expect(readFileSync(witnessFile(), 'utf8').trim().split('\n')).toHaveLength(1);
    expect(verifyLedger(project).status).toBe('intact');
  });

  it('a chain cut back and appended again (the same seqs, new hashes) is rewritten, named as appended twice', () => {
    const project = tempDir();
    appendMany(project, 1, 30);
    foldJournal(project);
    // cut seq 21..30 from the database and the journal, then the agent goes on: 21.. are appended again
    const db = new Database(join(project, '.loom', 'compliance', 'ledger.db'));
    db.exec('DROP TRIGGER records_no_delete');
    db.prepare('DELETE FROM records WHERE seq > 20').run();
    const head = db.prepare('SELECT seq, hash, body FROM records ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string; body: string };
    db.close();
    writeFileSync(join(project, '.loom', 'compliance', 'journal.log'), `${head.seq} ${head.hash} ${head.body}\n`);
    appendMany(project, 100, 15);
    const v = verifyLedger(project);
    expect(v.status).toBe('tampered');
    expect(v.problem).toMatchObject({ seq: 21, kind: 'rewritten' });
    expect(v.problem!.detail).toContain('appended twice');
  });
});
