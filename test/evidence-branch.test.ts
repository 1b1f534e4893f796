// Evidence for a pull request covers the branch since it left its base:
// records carry their branch, so a session that ran on the base before the
// branch existed is left out; a CI clone with only origin/main works; a
// shallow clone says so with the fix; the re-verify line names no absolute
// path; the tables say who acted.
import { execaSync } from 'execa';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamMd } from '../src/team/evidence';
import { CLI, ROOT, run, tempDir } from './helpers';

const loom = (args: string[], cwd?: string) => run(process.execPath, [CLI, ...args], null, {}, cwd);
const gitEnv = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.invalid', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.invalid' };
const git = (dir: string, ...args: string[]) => execaSync('git', ['-C', dir, ...args], { env: gitEnv });
const bash = (project: string, session: string, command: string) =>
  run(join(ROOT, 'hooks', 'pre-tool-guard'), [], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session, tool_name: 'Bash', tool_input: { command }, cwd: project }), { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' });

/** A repository on main with one commit, a second after it (commit times have whole seconds). */
async function mainWithBase(): Promise<string> {
  const project = tempDir('loom-pr-');
  git(project, 'init', '-q', '-b', 'main');
  git(project, 'config', 'user.email', 'dev@team.example');
  writeFileSync(join(project, '.gitignore'), '.loom/\n');
  git(project, 'add', '.gitignore');
  git(project, 'commit', '-qm', 'base');
  await new Promise((r) => setTimeout(r, 1100));
  return project;
}

/** main with one commit; a session on main after it (no SessionStart on record); then the feature branch and its session. */
async function repoWithBranch(): Promise<string> {
  const project = await mainWithBase();
  // on main, after the merge base, before the branch existed: not the pull request's
  await bash(project, 'on-main', 'rm -rf /');
  await bash(project, 'on-main', 'git push --force origin main');
  git(project, 'checkout', '-qb', 'feature');
  await bash(project, 'on-feature', 'cat .env');
  await bash(project, 'on-feature', 'git push --force origin feature');
  return project;
}

describe('loom evidence --base', () => {
  it('leaves out a session that ran on the base after the merge base; the tables name the user; the re-verify line names no absolute path', async () => {
    const project = await repoWithBranch();
    const r = await loom(['evidence', '--project-dir', project, '--base', 'main']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Scope: branch `feature` since it left `main`');
    expect(r.stdout).toContain('the records of 1 session(s) made on other branches left out');
    expect(r.stdout).toContain('cat .env');
    expect(r.stdout).not.toContain('rm -rf /');
    expect(r.stdout).not.toContain('origin main');
    expect(r.stdout).not.toContain('`on-main`');
    const sessions = r.stdout.split('### Sessions')[1].split('###')[0];
    expect(sessions).toContain('| session | user | harness |');
    expect(sessions).toMatch(/\| `on-feature` \| dev@team\.example \| /);
    const high = r.stdout.split('### High-risk events')[1].split('###')[0];
    expect(high).toContain('| seq | time | user | event |');
    expect(high).toMatch(/\| dev@team\.example \| PreToolUse \| (high|critical) \|/);
    const reverify = r.stdout.split('\n').find((l) => l.startsWith('Re-verify:'))!;
    expect(reverify).not.toContain(project);
    expect(reverify).toMatch(/Re-verify: from the repository's top folder, `loom verify` must report head seq \d+/);
    // without --base every session is there
    const all = await loom(['evidence', '--project-dir', project]);
    expect(all.stdout).toContain('rm -rf /');
  });

  it('a CI clone (origin/main only, branch checked out) uses origin/main; a shallow clone says so with the fix', async () => {
    const project = await repoWithBranch();
    const ci = join(tempDir('loom-ci-'), 'clone');
    execaSync('git', ['clone', '-q', '--branch', 'feature', project, ci], { env: gitEnv });
    expect(execaSync('git', ['-C', ci, 'branch', '--list', 'main'], { env: gitEnv }).stdout).toBe('');
    cpSync(join(project, '.loom'), join(ci, '.loom'), { recursive: true });
    const r = await loom(['evidence', '--project-dir', ci, '--base', 'main']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('since it left `origin/main`');
    expect(r.stdout).toContain('cat .env');
    expect(r.stdout).not.toContain('rm -rf /');

    const shallow = join(tempDir('loom-ci-'), 'shallow');
    execaSync('git', ['clone', '-q', '--depth', '1', '--branch', 'feature', `file://${project}`, shallow], { env: gitEnv });
    cpSync(join(project, '.loom'), join(shallow, '.loom'), { recursive: true });
    const s = await loom(['evidence', '--project-dir', shallow, '--base', 'main']);
    expect(s.code).toBe(2);
    const lines = s.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('shallow clone');
    expect(lines[0]).toContain('git fetch --unshallow');
    expect(lines[0]).toContain('fetch-depth: 0');
  });

  it('a project in a subfolder of the repository is named relative to its top folder', async () => {
    const repo = tempDir('loom-mono-');
    git(repo, 'init', '-q', '-b', 'main');
    const project = join(repo, 'packages', 'app');
    // Its own .loom/ makes the package a project (loom init there); without one its sessions record to the repository's.
    mkdirSync(join(project, '.loom'), { recursive: true });
    await bash(project, 's', 'ls');
    const r = await loom(['evidence', '--project-dir', project]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('`loom verify --project-dir packages/app` must report');
    expect(r.stdout.split('\n').find((l) => l.startsWith('Re-verify:'))).not.toContain(repo);
  });
});

describe('team evidence text', () => {
  it('cuts a long text at a word with an ellipsis, and escapes after cutting', () => {
    const words = Array.from({ length: 80 }, (_, i) => `word${i}|x`);
    const out = teamMd(words.join(' '));
    expect(out.endsWith('…')).toBe(true);
    const kept = out.slice(0, -1).replace(/\\\|/g, '|').split(' ');
    expect(kept).toEqual(words.slice(0, kept.length));
    expect(out.replace(/\\\|/g, '|').length).toBeLessThanOrEqual(300);
  });
});

describe('records a hook could not judge carry their branch too (black-box finding A4)', () => {
  it('a refused payload and a sessionless call made on main stay out of the feature branch\'s evidence', async () => {
    const project = await mainWithBase();
    const guard = join(ROOT, 'hooks', 'pre-tool-guard');
    const env = { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', CLAUDE_PROJECT_DIR: project };
    // on main: not valid JSON (a failure record), and a call with no session id
    await run(guard, [], 'hello', env, project);
    await run(guard, [], JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', tool_input: { command: 'rm -rf src' }, cwd: project }), env, project);
    git(project, 'checkout', '-qb', 'feature');
    await bash(project, 'on-feature', 'cat .env');
    const r = await loom(['evidence', '--project-dir', project, '--base', 'main']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('cat .env');
    expect(r.stdout).not.toContain('rm -rf src');
    expect(r.stdout).not.toContain('`(none)`');
    expect(r.stdout).not.toContain('not valid JSON');
  });
});
