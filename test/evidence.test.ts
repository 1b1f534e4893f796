// Evidence cannot disappear quietly: each attack of the tamper suite once,
// on a real ledger written by the runner's own recording path, verified by
// the real CLI (the chaos suite runs them at many positions).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTACKS, cloneProject } from './fuzz/tamper';
import { CLI, ROOT, RUNNER, run, tempDir } from './helpers';

const DRIVER = join(ROOT, 'test', 'fixtures', 'ledger-driver.ts');

async function ledgerWith(n: number, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const project = tempDir();
  const r = await run(process.execPath, ['--import', 'tsx', DRIVER, project, String(n), 'e'], null, { LOOM_CHECKPOINT_EVERY: '5', ...env });
  expect(r.code, r.stderr).toBe(0);
  return project;
}

const verify = (project: string, env: NodeJS.ProcessEnv = {}) =>
  run(process.execPath, [CLI, 'verify', '--project-dir', project, '--json'], null, env).then((r) => ({ ...r, json: r.stdout ? JSON.parse(r.stdout) : undefined }));

describe('tamper: each attack is detected with its kind', () => {
  for (const attack of ATTACKS) {
    it(attack.name, async () => {
      const base = await ledgerWith(12, attack.env);
      expect((await verify(base, attack.env)).code).toBe(0);
      const project = tempDir();
      cloneProject(base, project, attack.env);
      expect((await verify(project, attack.env)).code).toBe(0);
      attack.apply(project, 12, 4, { stateDir: '' });
      const r = await verify(project, attack.env);
      expect(r.code, r.stdout + r.stderr).toBe(1);
      expect(r.json.problem.kind).toBe(attack.kind);
      if (attack.seq) expect(r.json.problem.seq).toBe(attack.seq(12, 4));
    });
  }

  it('archived segments are checked too: an edited segment (SHA-256 in the index), a deleted one, an unlisted one', async () => {
    const { readFileSync, writeFileSync, readdirSync, rmSync, copyFileSync } = await import('node:fs');
    const base = await ledgerWith(520);
    expect((await verify(base)).json).toMatchObject({ status: 'intact', records: 520, history: { checked: 520 } });
    const archive = (p: string) => join(p, '.loom', 'compliance', 'history');
    const seg = readdirSync(archive(base)).find((f) => f.startsWith('segment-'))!;
    const cases: [string, (p: string) => void, string, number][] = [
      ['edited', (p) => writeFileSync(join(archive(p), seg), readFileSync(join(archive(p), seg), 'utf8').replace('"decision":"allow"', '"decision":"deny"')), 'history-edited', 1],
      ['deleted', (p) => rmSync(join(archive(p), seg)), 'history-missing', 1],
      ['unlisted', (p) => copyFileSync(join(archive(p), seg), join(archive(p), 'segment-000000999-000001000.json')), 'history-extra', 1],
    ];
    for (const [name, edit, kind, seq] of cases) {
      const project = tempDir();
      cloneProject(base, project);
      edit(project);
      const r = await verify(project);
      expect(r.code, name).toBe(1);
      expect(r.json.problem, name).toMatchObject({ kind, seq });
    }
  }, 120_000);

  it('a history ahead of the database is set aside (renamed with a timestamp), not rebuilt over, and the cut is still named', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const base = await ledgerWith(12);
    const project = tempDir();
    cloneProject(base, project);
    const before = readFileSync(join(project, '.loom', 'compliance', 'history.json'), 'utf8');
    // The database's tail cut (checkpoints too); history.json still holds the cut records.
    ATTACKS.find((a) => a.kind === 'tail-cut')!.apply(project, 12, 9, { stateDir: '' });
    const fold = await run(process.execPath, [CLI, 'fold', '--project-dir', project], null);
    expect(fold.stderr).toMatch(/history set aside/);
    const dir = join(project, '.loom', 'compliance');
    const aside = readdirSync(dir).filter((f) => /^history\.json\.aside-\d{4}-/.test(f));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]), 'utf8')).toBe(before);
    expect((JSON.parse(readFileSync(join(dir, 'history.json'), 'utf8')) as unknown[]).length).toBe(8);
    const r = await verify(project);
    expect(r.code).toBe(1);
    expect(r.json.problem.kind).toBe('tail-cut');
  });

  it('a deleted ledger started again is "restarted", not intact', async () => {
    const project = await ledgerWith(7);
    const { rmSync } = await import('node:fs');
    rmSync(join(project, '.loom'), { recursive: true });
    const again = await run(process.execPath, ['--import', 'tsx', DRIVER, project, '3', 'again'], null, { LOOM_CHECKPOINT_EVERY: '5' });
    expect(again.code).toBe(0);
    const r = await verify(project);
    expect(r.code).toBe(1);
    expect(r.json.problem.kind).toBe('restarted');
  });

  it('with a key configured, a ledger that was always plain is "downgraded"', async () => {
    const project = await ledgerWith(3);
    const r = await verify(project, { LOOM_LEDGER_KEY: 'the project key, at least 16 bytes' });
    expect(r.code).toBe(1);
    expect(r.json.problem.kind).toBe('downgraded');
    expect((await verify(project)).code).toBe(0);
  });

  it('every append is witnessed outside the project: a cut of the newest records (no fold, no checkpoint yet) is tail-cut naming the last witnessed seq; a young ledger deleted is ledger-missing', async () => {
    const { readFileSync, writeFileSync, rmSync } = await import('node:fs');
    const post = (p: string) => JSON.stringify({ hook_event_name: 'PostToolUse', session_id: 's', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: { stdout: 'ok' }, cwd: p });
    const env = { LOOM_FOLD_EVERY: '100000', LOOM_CHECKPOINT_EVERY: '100000' };
    const project = tempDir();
    for (let i = 0; i < 4; i++) expect((await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', project], post(project), env)).code).toBe(0);
    // Only the journal holds them: no database, no checkpoint, no head witness.
    const journal = join(project, '.loom', 'compliance', 'journal.log');
    const lines = readFileSync(journal, 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(4);
    const copy = tempDir();
    cloneProject(project, copy);
    // cloneProject folds first: cut the clone's last two records from the database and the journal (the fold's head witness is the original's, not the clone's).
    const { tamper } = await import('./fuzz/tamper');
    tamper(copy, (db) => db.prepare('DELETE FROM records WHERE seq >= 3').run());
    writeFileSync(join(copy, '.loom', 'compliance', 'journal.log'), lines.slice(1, 2).map((l) => l + '\n').join(''));
    const cut = await verify(copy);
    expect(cut.code, cut.stdout).toBe(1);
    expect(cut.json.problem).toMatchObject({ kind: 'tail-cut', seq: 3 });
    expect(cut.json.problem.detail).toMatch(/append witness .*\.appends\.log saw seq 4 .*last witnessed seq 4/);
    const text = await run(process.execPath, [CLI, 'verify', '--project-dir', copy], null);
    expect(text.stdout).toMatch(/TAMPERED at seq 3: tail-cut: the append witness .* saw seq 4/);
    // Unfolded and cut in the journal alone.
    const other = tempDir();
    for (let i = 0; i < 3; i++) expect((await run(process.execPath, [RUNNER, '--event', 'PostToolUse', '--project-dir', other], post(other), env)).code).toBe(0);
    const j2 = join(other, '.loom', 'compliance', 'journal.log');
    writeFileSync(j2, readFileSync(j2, 'utf8').split('\n').slice(0, 2).map((l) => l + '\n').join(''));
    const cut2 = await verify(other);
    expect(cut2.json.problem, JSON.stringify(cut2.json)).toMatchObject({ kind: 'tail-cut', seq: 3 });
    // The whole young ledger deleted.
    rmSync(join(other, '.loom'), { recursive: true, force: true });
    const gone = await verify(other);
    expect(gone.code).toBe(1);
    expect(gone.json.problem).toMatchObject({ kind: 'ledger-missing' });
    expect(gone.json.problem.detail).toMatch(/append witness .* up to seq 3/);
  });

  it('checkpoint lines name the chain mode and the ledger, here and in the state folder', async () => {
    const state = tempDir('loom-state-');
    const project = await ledgerWith(5, { XDG_STATE_HOME: state, LOOM_LEDGER_KEY: 'the project key, at least 16 bytes' });
    const { readFileSync, readdirSync } = await import('node:fs');
    const local = readFileSync(join(project, '.loom', 'compliance', 'checkpoints.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const all = readdirSync(join(state, 'loom', 'checkpoints'));
    const files = all.filter((f) => f.endsWith('.checkpoints.jsonl'));
    expect(files).toHaveLength(1);
    // Beside it, the append witness: one line per append, the last naming the head.
    const witness = all.filter((f) => f.endsWith('.appends.log'));
    expect(witness).toHaveLength(1);
    expect(readFileSync(join(state, 'loom', 'checkpoints', witness[0]), 'utf8').trim().split('\n')).toHaveLength(5);
    const ext = readFileSync(join(state, 'loom', 'checkpoints', files[0]), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(ext).toEqual(local);
    expect(local[0]).toMatchObject({ seq: 5, chain: 'hmac-sha256', ledger: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });
});
