// Who and where a shipped record is attributed to (no database needed).
import { describe, expect, it } from 'vitest';
import { normalizeRemote, whoOf } from '../src/team/context';

describe('repository URL normalization', () => {
  const table: [string, string][] = [
    ['git@github.com:Org/repo.git', 'github.com/Org/repo'],
    ['https://github.com/Org/repo', 'github.com/Org/repo'],
    ['https://user:tok3n@GitHub.com/Org/repo.git/', 'github.com/Org/repo'],
    ['ssh://git@github.com:22/Org/repo.git', 'github.com/Org/repo'],
    ['git+ssh://git@gitlab.example.com/group/sub/repo.git', 'gitlab.example.com/group/sub/repo'],
    ['gitlab.example.com:group/repo', 'gitlab.example.com/group/repo'],
    ['/srv/git/repo.git', '/srv/git/repo'],
    ['file:///srv/git/repo.git', '/srv/git/repo'],
    ['', ''],
  ];
  for (const [input, want] of table) it(`${input || '(empty)'} -> ${want || '(empty)'}`, () => expect(normalizeRemote(input)).toBe(want));
  it('never keeps credentials', () => {
    for (const u of ['https://a:secretpw@h.example/r', 'ssh://a:secretpw@h.example/r', 'http://secretpw@h.example/r']) expect(normalizeRemote(u)).not.toContain('secretpw');
  });
});

describe('actor fields', () => {
  const ctx = { user: 'shipuser', host: 'shiphost', email: 'ship@example.com', repo: 'git@h.example:o/r.git', branch: 'main' };
  it('takes what the record carries and says so', () => {
    const w = whoOf({ actor: { user: 'alice', host: 'laptop', git_email: 'a@example.com' }, repo: { url: 'https://h.example/o/other.git', branch: 'feat' } }, ctx);
    expect(w).toEqual({ user: 'alice', host: 'laptop', email: 'a@example.com', repo: 'h.example/o/other', branch: 'feat', from: 'record' });
  });
  it("a record the hook wrote names its own user, email and branch (the actor inside the kind object), not the shipper's", async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { CLI, RUNNER, run, tempDir } = await import('./helpers');
    const project = tempDir('loom-who-');
    mkdirSync(join(project, '.git'));
    writeFileSync(join(project, '.git', 'config'), '[user]\n\temail = dev@team.example\n');
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/feat/who\n');
    await run(process.execPath, [RUNNER, '--event', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: 'w', tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project }), { CLAUDE_PROJECT_DIR: project, GIT_CONFIG_NOSYSTEM: '1', HOME: tempDir('loom-who-home-') });
    const [rec] = JSON.parse((await run(process.execPath, [CLI, 'history', '--project-dir', project, '--json'], null)).stdout) as Record<string, unknown>[];
    expect(whoOf(rec, ctx)).toMatchObject({ email: 'dev@team.example', branch: 'feat/who', host: expect.not.stringMatching(/^shiphost$/) });
  });
  it('fills the rest from the shipper and says which', () => {
    expect(whoOf({}, ctx)).toEqual({ user: 'shipuser', host: 'shiphost', email: 'ship@example.com', repo: 'h.example/o/r', branch: 'main', from: 'shipper' });
    expect(whoOf({ user: 'bob' }, ctx)).toMatchObject({ user: 'bob', host: 'shiphost', from: 'mixed' });
  });
});
