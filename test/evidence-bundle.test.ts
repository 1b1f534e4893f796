// Evidence a reviewer can use: each denied action once, reasons cut at a
// word, asks with what became of them, the sessions of a branch since it
// left its base, and a bundle that re-verifies on another machine (a fresh
// folder holding nothing but the bundle) and fails when it is changed.
import { execaSync } from 'execa';
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clip } from '../src/report/evidence';
import { CLI, ROOT, run, tempDir } from './helpers';
import { rewriteChain } from './ledger-forgers';

const loom = (args: string[], env: NodeJS.ProcessEnv = {}, cwd?: string) => run(process.execPath, [CLI, ...args], null, env, cwd);
const hook = (name: string, payload: Record<string, unknown>) => run(join(ROOT, 'hooks', name), [], JSON.stringify(payload));
const bash = (project: string, session: string, command: string, extra: Record<string, unknown> = {}) =>
  hook('pre-tool-guard', { hook_event_name: 'PreToolUse', session_id: session, tool_name: 'Bash', tool_input: { command }, cwd: project, ...extra });

describe('loom evidence', () => {
  it('lists each denied action once with how often, and asks with their outcome', async () => {
    const project = tempDir();
    for (let i = 0; i < 3; i++) await bash(project, 's1', 'git push --force origin main');
    await bash(project, 's1', 'rm -rf /');
    // an ask the user approved (the tool ran) and one nobody answered
    await bash(project, 's1', 'git clean -f', { tool_use_id: 'toolu_a' });
    await hook('tool-audit', { hook_event_name: 'PostToolUse', session_id: 's1', tool_name: 'Bash', tool_input: { command: 'git clean -f' }, tool_use_id: 'toolu_a', tool_response: { stdout: '' }, cwd: project });
    await bash(project, 's1', 'git push --force origin feature/x', { tool_use_id: 'toolu_b' });
    const r = await loom(['evidence', '--project-dir', project]);
    expect(r.code, r.stderr).toBe(0);
    const denied = r.stdout.split('### Denied actions')[1].split('###')[0];
    const rows = denied.split('\n').filter((l) => /^\| \d+ /.test(l));
    expect(rows).toHaveLength(2);
    expect(rows.find((l) => l.includes('git push --force origin main'))).toMatch(/^\| \d+ \| [^|]+ \| 3 \|/);
    const asks = r.stdout.split('### Asks')[1].split('###')[0];
    expect(asks).toMatch(/git clean -f` \| approved, ran \|/);
    expect(asks).toMatch(/git push --force origin feature\/x` \| no answer on record \|/);
  });

  it('clip never cuts a word: the result is whole words of the text plus an ellipsis', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 500; i++) {
      const words = Array.from({ length: 1 + rnd(60) }, () => 'abcdefghij'.slice(0, 1 + rnd(10)));
      const text = words.join(' ');
      const max = 10 + rnd(120);
      const out = clip(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      if (text.length <= max) expect(out).toBe(text);
      else {
        expect(out.endsWith('…')).toBe(true);
        const kept = out.slice(0, -1).split(' ');
        // every kept word is whole (only a first word longer than the limit itself is cut)
        if (words[0].length < max) expect(kept).toEqual(words.slice(0, kept.length));
      }
    }
  });

  it('--base main: the sessions of the current branch since it left main, not another branch\'s', async () => {
    const project = tempDir();
    const git = (...args: string[]) => execaSync('git', ['-C', project, ...args], { env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' } });
    git('init', '-q', '-b', 'main');
    // before the branch existed: left out
    await hook('session-audit', { hook_event_name: 'SessionStart', session_id: 'before', source: 'startup', cwd: project });
    await bash(project, 'before', 'rm -rf /');
    await new Promise((r) => setTimeout(r, 1100)); // commit times have whole seconds
    writeFileSync(join(project, 'a.txt'), 'a');
    git('add', 'a.txt');
    git('commit', '-qm', 'base');
    git('checkout', '-qb', 'other');
    await hook('session-audit', { hook_event_name: 'SessionStart', session_id: 'on-other', source: 'startup', cwd: project });
    await bash(project, 'on-other', 'git push --force origin main');
    git('checkout', '-qb', 'feature', 'main');
    await hook('session-audit', { hook_event_name: 'SessionStart', session_id: 'on-feature', source: 'startup', cwd: project });
    await bash(project, 'on-feature', 'cat .env');
    const r = await loom(['evidence', '--project-dir', project, '--base', 'main']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Scope: branch `feature` since it left `main`');
    expect(r.stdout).toContain('cat .env');
    expect(r.stdout).not.toContain('rm -rf /');
    expect(r.stdout).not.toContain('git push --force');
    const bad = await loom(['evidence', '--project-dir', project, '--base', 'no-such-branch']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--base no-such-branch: no such branch or commit');
  });

  it('--bundle: verifies in a folder holding only the bundle; an edited or cut bundle is tampered', async () => {
    const project = tempDir();
    for (const c of ['ls', 'rm -rf /', 'git status', 'cat .env', 'npm test']) await bash(project, 's1', c);
    await loom(['checkpoint', '--project-dir', project]);
    await bash(project, 's1', 'echo after the checkpoint');
    const file = join(project, 'evidence.bundle.json');
    const r = await loom(['evidence', '--project-dir', project, '--out', join(project, 'e.md'), '--bundle', file]);
    expect(r.code, r.stderr).toBe(0);
    // another machine: a fresh folder, another HOME and state folder, only the bundle copied
    const elsewhere = tempDir('loom-reviewer-');
    const copy = join(elsewhere, 'bundle.json');
    copyFileSync(file, copy);
    const env = { HOME: elsewhere, XDG_STATE_HOME: join(elsewhere, 'state') };
    const ok = await loom(['verify', '--bundle', copy, '--json'], env, elsewhere);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ status: 'intact', records: 6 });
    expect(readFileSync(join(project, 'e.md'), 'utf8')).toContain(JSON.parse(ok.stdout).head.hash);

    const bundle = JSON.parse(readFileSync(copy, 'utf8'));
    const edited = structuredClone(bundle);
    edited.records[1][2] = edited.records[1][2].replace('rm -rf /', 'ls -la  ');
    writeFileSync(join(elsewhere, 'edited.json'), JSON.stringify(edited));
    const e = await loom(['verify', '--bundle', join(elsewhere, 'edited.json'), '--json'], env, elsewhere);
    expect(e.code).toBe(1);
    expect(JSON.parse(e.stdout).problem).toMatchObject({ seq: 2, kind: 'edited' });

    const cut = structuredClone(bundle);
    cut.records = cut.records.slice(0, 3);
    cut.head = { seq: 3, hash: cut.records[2][1] };
    writeFileSync(join(elsewhere, 'cut.json'), JSON.stringify(cut));
    const t = await loom(['verify', '--bundle', join(elsewhere, 'cut.json'), '--json'], env, elsewhere);
    expect(t.code).toBe(1);
    expect(JSON.parse(t.stdout).problem.kind).toBe('tail-cut');

    // A ledger that does not verify gets no bundle: its records would stop before the break, and verify intact (#15 audit).
    await loom(['history', '--project-dir', project]); // folds the journal into the database
    rewriteChain(project, 3);
    const refusedFile = join(project, 'tampered.bundle.json');
    const refused = await loom(['evidence', '--project-dir', project, '--out', join(project, 'e2.md'), '--bundle', refusedFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/--bundle \S+tampered\.bundle\.json: not written: the ledger does not verify \([\w-]+ at seq \d+\)/);
    expect(existsSync(refusedFile)).toBe(false);

    writeFileSync(join(elsewhere, 'not.json'), '{"format":"something else"}');
    const n = await loom(['verify', '--bundle', join(elsewhere, 'not.json')], env, elsewhere);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain('not a loom evidence bundle');
  });
});
