// Who did what: every record carries the actor (OS user, host, git email,
// harness version), read without spawning git, and `loom history --user`
// finds a person's records.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitConfigEmail } from '../src/runner/actor';
import { CLI, RUNNER, run, tempDir } from './helpers';

function repo(email: string): string {
  const project = tempDir('loom-actor-');
  mkdirSync(join(project, '.git'));
  writeFileSync(join(project, '.git', 'config'), `[core]\n\tbare = false\n[user]\n\tname = Dev\n\temail = ${email}\n`);
  return project;
}

const hook = (project: string, command: string, env: NodeJS.ProcessEnv, extra: Record<string, unknown> = {}) =>
  run(process.execPath, [RUNNER, '--event', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'actor-1', tool_name: 'Bash', tool_input: { command }, cwd: project, ...extra }), { CLAUDE_PROJECT_DIR: project, ...env });

const history = async (project: string, args: string[] = []) => {
  const r = await run(process.execPath, [CLI, 'history', '--project-dir', project, ...args], null);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
};

describe('actor on every record', () => {
  it('OS user, host, the repository git email (over the user one), harness version; no git process needed', async () => {
    const project = repo('dev@team.example');
    const home = tempDir('loom-home-');
    writeFileSync(join(home, '.gitconfig'), '[user]\n\temail = personal@home.example\n');
    // PATH without git (or anything): the email comes from the config files, not from spawning git
    const env = { HOME: home, PATH: '/nonexistent' };
    expect((await hook(project, 'ls', env, { version: '2.1.328' })).code).toBe(0);
    expect((await hook(project, 'rm -rf /', env)).code).toBe(2);
    const recs = JSON.parse(await history(project, ['--json'])) as Record<string, Record<string, unknown>>[];
    expect(recs.length).toBeGreaterThanOrEqual(2);
    for (const r of recs) {
      const actor = r[r.kind as unknown as string].actor as Record<string, string>;
      expect(actor.user).toBe(userInfo().username);
      expect(actor.host).toBe(hostname());
      expect(actor.email).toBe('dev@team.example');
    }
    expect((recs[0][recs[0].kind as unknown as string].actor as Record<string, string>).harness_version).toBe('2.1.328');

    const mine = JSON.parse(await history(project, ['--json', '--user', 'dev@team.example']));
    expect(mine).toHaveLength(recs.length);
    expect(JSON.parse(await history(project, ['--json', '--user', userInfo().username]))).toHaveLength(recs.length);
    expect(JSON.parse(await history(project, ['--json', '--user', 'someone@else.example']))).toHaveLength(0);
    const table = await history(project);
    expect(table.split('\n')[0]).toMatch(/\buser\b/);
    expect(table).toContain('dev@team.example');
  });

  it('a git worktree (.git is a file) reads the main repository\'s config; no repository: the user config', async () => {
    const main = repo('wt@team.example');
    const gitdir = join(main, '.git', 'worktrees', 'feature');
    mkdirSync(gitdir, { recursive: true });
    writeFileSync(join(gitdir, 'commondir'), '../..\n');
    const wt = tempDir('loom-wt-');
    writeFileSync(join(wt, '.git'), `gitdir: ${gitdir}\n`);
    const home = tempDir('loom-home-');
    writeFileSync(join(home, '.gitconfig'), '[user]\n  email = "me@home.example" ; comment\n');
    expect((await hook(wt, 'ls', { HOME: home })).code).toBe(0);
    expect(await history(wt, ['--user', 'wt@team.example'])).toContain('wt@team.example');
    const bare = tempDir('loom-nogit-');
    expect((await hook(bare, 'ls', { HOME: home })).code).toBe(0);
    expect(await history(bare, ['--user', 'me@home.example'])).toContain('me@home.example');
  });
});

describe('git config reading', () => {
  it('the [user] email, last one wins, quotes and comments removed, other sections ignored', () => {
    expect(gitConfigEmail('[user]\n\temail = a@x\n[user]\n\temail = b@x\n')).toBe('b@x');
    expect(gitConfigEmail('[sendemail]\n\temail = no@x\n[user]\n\tname = n\n')).toBeUndefined();
    expect(gitConfigEmail('[User]\nEMAIL = "q@x" # c\n')).toBe('q@x');
    expect(gitConfigEmail('[user "x"]\nemail = sub@x\n')).toBeUndefined();
  });
});
