// Evidence cannot disappear quietly: each attack of the tamper suite once,
// on a real ledger written by the runner's own recording path, verified by
// the real CLI (the chaos suite runs them at many positions).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ATTACKS, cloneProject } from './fuzz/tamper';
import { CLI, ROOT, run, tempDir } from './helpers';

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

  it('checkpoint lines name the chain mode and the ledger, here and in the state folder', async () => {
    const state = tempDir('loom-state-');
    const project = await ledgerWith(5, { XDG_STATE_HOME: state, LOOM_LEDGER_KEY: 'the project key, at least 16 bytes' });
    const { readFileSync, readdirSync } = await import('node:fs');
    const local = readFileSync(join(project, '.loom', 'compliance', 'checkpoints.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const files = readdirSync(join(state, 'loom', 'checkpoints'));
    expect(files).toHaveLength(1);
    const ext = readFileSync(join(state, 'loom', 'checkpoints', files[0]), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(ext).toEqual(local);
    expect(local[0]).toMatchObject({ seq: 5, chain: 'hmac-sha256', ledger: expect.stringMatching(/^[0-9a-f]{16}$/) });
  });
});
