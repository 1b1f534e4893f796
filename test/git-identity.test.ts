// The email loom records is the one git itself reports: a differential test
// against the real git on generated configurations (system, XDG and global
// files, GIT_CONFIG_GLOBAL / GIT_CONFIG_SYSTEM / GIT_CONFIG_NOSYSTEM,
// include.path, includeIf gitdir: / gitdir/i: / onbranch:, linked worktrees
// with config.worktree, GIT_CONFIG_COUNT entries, GIT_AUTHOR_EMAIL and
// EMAIL), then the hook path: no git process, read once per session.
import { execaSync } from 'execa';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitEmail } from '../src/runner/actor';
import { gitConfigValues } from '../src/runner/git-config';
import { CLI, RUNNER, run, tempDir } from './helpers';

let seed = 20261130;
const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];
const chance = (p: number) => rnd(1000) < p * 1000;

const baseEnv = (home: string): NodeJS.ProcessEnv => ({ PATH: process.env.PATH, HOME: home, LANG: 'C', GIT_AUTHOR_NAME: 't', GIT_COMMITTER_NAME: 't' });

function git(cwd: string, args: string[], env: NodeJS.ProcessEnv) {
  return execaSync('git', ['-C', cwd, ...args], { env, extendEnv: false, reject: false, stdin: 'ignore' });
}

interface Case {
  project: string;
  env: NodeJS.ProcessEnv;
  describe: string[];
  /** The text of the files only an include reaches. */
  included: string;
}

/** One generated machine: a home, a real repository (sometimes a linked worktree), config files that include each other. */
function generate(k: number): Case {
  const root = tempDir('loom-gitid-');
  const home = join(root, 'home');
  const repo = join(root, 'work', `Proj${k}`);
  mkdirSync(home, { recursive: true });
  mkdirSync(repo, { recursive: true });
  const env = baseEnv(home);
  const branch = pick(['main', 'feature/x', 'dev', 'release-1']);
  const setupEnv = { ...env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_AUTHOR_EMAIL: 's@setup.invalid', GIT_COMMITTER_EMAIL: 's@setup.invalid' };
  git(repo, ['init', '-q', '-b', branch], setupEnv);
  let project = repo;
  let worktreeGitdir: string | undefined;
  if (chance(0.25)) {
    git(repo, ['commit', '-q', '--allow-empty', '-m', 'x'], setupEnv);
    const wt = join(root, 'work', `wt${k}`);
    const wtBranch = pick(['feature/wt', 'dev', 'main2']);
    git(repo, ['worktree', 'add', '-q', '-b', wtBranch, wt], setupEnv);
    project = wt;
    worktreeGitdir = join(repo, '.git', 'worktrees', `wt${k}`);
  }
  const n = () => `u${rnd(1000)}`;
  const email = () => `${n()}@${pick(['team', 'home', 'corp', 'oss'])}.example`;
  const incs = [0, 1, 2, 3].map((i) => (i < 2 ? join(home, `inc${i}.gitconfig`) : join(root, 'shared', `inc${i}.gitconfig`)));
  const files = {
    system: join(root, 'etc', 'gitconfig'),
    xdg: join(env.HOME!, '.config', 'git', 'config'),
    global: join(home, '.gitconfig'),
    globalAlt: join(root, 'alt', 'global.gitconfig'),
    repo: join(repo, '.git', 'config'),
  };
  const pathForm = (from: string, target: string) => {
    const forms = [target, relative(dirname(from), target)];
    if (target.startsWith(home + '/')) forms.push('~/' + relative(home, target));
    return pick(forms);
  };
  const gitdirPattern = (from: string) => {
    const gd = worktreeGitdir ?? join(repo, '.git');
    const pats = ['~/work/', `${root}/work/`, 'work/', `Proj${k}/`, `${gd}`, '/nonexistent/', `**/Proj${k}/**`, `${root}/*/Proj${k}/.git`, `${root}/work/Proj?${k}/`, '~/elsewhere/'];
    if (worktreeGitdir) pats.push(`worktrees/`, `${repo}/.git/`);
    const rel = relative(dirname(from), root);
    if (!rel.startsWith('..')) pats.push(`./${rel ? rel + '/' : ''}work/`);
    return pick(pats);
  };
  const snippet = (from: string, laterIncs: string[]): string => {
    const e = email();
    const kinds = ['user', 'userQuoted', 'sameLine', 'upper', 'continued', 'decoy', 'decoySub', 'author', 'comment'];
    if (laterIncs.length) kinds.push('include', 'includeIf', 'includeIfI', 'onbranch', 'include', 'includeIf');
    switch (pick(kinds)) {
      case 'user': return `[user]\n\temail = ${e}\n`;
      case 'userQuoted': return `[user]\n\tname = N\n\temail = "${e}" ; a comment\n`;
      case 'sameLine': return `[user] email=${e}\n`;
      case 'upper': return `[User]\n  EMAIL   =   ${e}   # trailing\n`;
      case 'continued': return `[user]\n\temail = ${e.slice(0, 3)}\\\n${e.slice(3)}\n`;
      case 'decoy': return `[sendemail]\n\temail = ${e}\n`;
      case 'decoySub': return `[user "work"]\n\temail = ${e}\n`;
      case 'author': return `[author]\n\temail = ${e}\n`;
      case 'comment': return `# [user]\n; email = ${e}\n`;
      case 'include': return `[include]\n\tpath = ${pathForm(from, pick(laterIncs))}\n`;
      case 'includeIf': return `[includeIf "gitdir:${gitdirPattern(from)}"]\n\tpath = ${pathForm(from, pick(laterIncs))}\n`;
      case 'includeIfI': return `[includeIf "gitdir/i:${gitdirPattern(from).toUpperCase()}"]\n\tpath = ${pathForm(from, pick(laterIncs))}\n`;
      default: return `[includeIf "onbranch:${pick(['main', 'feature/', 'feat*', 'dev', 'feature/x', 'feature/wt', 'release-*', '**'])}"]\n\tpath = ${pathForm(from, pick(laterIncs))}\n`;
    }
  };
  const fill = (file: string, laterIncs: string[], extra = '') => {
    mkdirSync(dirname(file), { recursive: true });
    let text = extra;
    for (let i = 1 + rnd(3); i > 0; i--) text += snippet(file, laterIncs);
    writeFileSync(file, text);
  };
  incs.forEach((f, i) => fill(f, incs.slice(i + 1)));
  const used: string[] = [];
  const desc: string[] = [`branch ${branch}`, worktreeGitdir ? 'worktree' : 'repo'];
  if (chance(0.5)) {
    env.GIT_CONFIG_SYSTEM = files.system;
    fill(files.system, incs);
    used.push('system');
  } else env.GIT_CONFIG_NOSYSTEM = pick(['1', 'true', 'yes']);
  if (chance(0.3)) {
    env.GIT_CONFIG_GLOBAL = pick([files.globalAlt, '/dev/null']);
    if (env.GIT_CONFIG_GLOBAL !== '/dev/null') fill(files.globalAlt, incs);
    fill(files.global, incs); // must be ignored
    used.push(`GIT_CONFIG_GLOBAL=${env.GIT_CONFIG_GLOBAL}`);
  } else {
    if (chance(0.3)) {
      env.XDG_CONFIG_HOME = join(root, 'xdg');
      files.xdg = join(root, 'xdg', 'git', 'config');
    }
    if (chance(0.5)) fill(files.xdg, incs);
    fill(files.global, incs);
  }
  // the repository's own config keeps what git init wrote
  const repoText = readFileSync(files.repo, 'utf8');
  const wtConfig = worktreeGitdir && chance(0.5);
  fill(files.repo, incs, repoText + (wtConfig ? '[extensions]\n\tworktreeConfig = true\n' : ''));
  if (wtConfig) fill(join(worktreeGitdir!, 'config.worktree'), incs);
  if (chance(0.25)) {
    const entries = [['user.email', email()], ['author.email', email()], ['User.Email', email()], ['include.path', pick(incs)], ['sendemail.email', email()]];
    const m = 1 + rnd(2);
    env.GIT_CONFIG_COUNT = String(m);
    for (let i = 0; i < m; i++) [env[`GIT_CONFIG_KEY_${i}`], env[`GIT_CONFIG_VALUE_${i}`]] = pick(entries);
    used.push('GIT_CONFIG_COUNT');
  }
  if (chance(0.12)) env.GIT_AUTHOR_EMAIL = email();
  if (chance(0.15)) env.EMAIL = email();
  return { project, env, describe: [...desc, ...used], included: incs.map((f) => readFileSync(f, 'utf8')).join('\n') };
}

describe('the git email, as git reports it', () => {
  it('agrees with `git config user.email` and the author email of `git var GIT_AUTHOR_IDENT` on 200 generated machines', () => {
    let explicit = 0;
    let viaInclude = 0;
    for (let k = 0; k < 200; k++) {
      const c = generate(k);
      const where = `case ${k} (${c.describe.join(', ')}) env ${JSON.stringify(Object.fromEntries(Object.entries(c.env).filter(([key]) => /^(GIT_|EMAIL|XDG)/.test(key))))}`;
      const cfg = git(c.project, ['config', 'user.email'], c.env);
      const ours = gitConfigValues(c.project, c.env).get('user.email');
      expect(ours ?? undefined, where).toBe(cfg.exitCode === 0 ? String(cfg.stdout) : undefined);
      const ident = git(c.project, ['var', 'GIT_AUTHOR_IDENT'], c.env);
      const theirs = /<([^>]*)>/.exec(String(ident.stdout))?.[1];
      const mine = gitEmail(c.project, c.env);
      if (mine === undefined) expect(cfg.exitCode, where).not.toBe(0);
      else {
        explicit++;
        expect(mine, where).toBe(theirs);
        if (ours && c.included.includes(ours) && ours === mine) viaInclude++;
      }
    }
    // the generator reaches both sides: most machines name an email, some none
    expect(explicit).toBeGreaterThan(100);
    expect(explicit).toBeLessThan(200);
    // and many answers come from a file only an include or includeIf reaches
    expect(viaInclude).toBeGreaterThan(20);
  });
});

const hook = (project: string, session: string, env: NodeJS.ProcessEnv, extra: Record<string, unknown> = {}) =>
  run(process.execPath, [RUNNER, '--event', 'PreToolUse'], JSON.stringify({ hook_event_name: 'PreToolUse', session_id: session, tool_name: 'Bash', tool_input: { command: 'ls' }, cwd: project, ...extra }), { CLAUDE_PROJECT_DIR: project, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_EMAIL: '', EMAIL: '', GIT_CONFIG_COUNT: '', ...env });

async function actors(project: string): Promise<Record<string, string>[]> {
  const r = await run(process.execPath, [CLI, 'history', '--project-dir', project, '--json'], null);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as Record<string, Record<string, unknown>>[]).map((rec) => rec[rec.kind as unknown as string].actor as Record<string, string>);
}

describe('the actor on the hook path', () => {
  it('an includeIf "gitdir:~/work/" identity and the branch are on the record, with no git on PATH', async () => {
    const home = tempDir('loom-home-');
    const project = join(home, 'work', 'app');
    mkdirSync(project, { recursive: true });
    execaSync('git', ['init', '-q', '-b', 'feature/login', project], { env: { ...baseEnv(home), GIT_CONFIG_GLOBAL: '/dev/null' } });
    writeFileSync(join(home, '.gitconfig'), '[user]\n\temail = me@home.example\n[includeIf "gitdir:~/work/"]\n\tpath = ~/.gitconfig-work\n');
    writeFileSync(join(home, '.gitconfig-work'), '[user]\n\temail = me@corp.example\n');
    expect((await hook(project, 'inc-1', { HOME: home, PATH: '/nonexistent' })).code).toBe(0);
    const [a] = await actors(project);
    expect(a.email).toBe('me@corp.example');
    expect(a.branch).toBe('feature/login');
    expect(String(git(project, ['config', 'user.email'], baseEnv(home)).stdout)).toBe('me@corp.example');
  });

  it('read once per session: the session keeps its email from the cache beside the ledger, a new session reads the config again', async () => {
    const home = tempDir('loom-home-');
    const project = tempDir('loom-cache-');
    execaSync('git', ['init', '-q', '-b', 'main', project], { env: { ...baseEnv(home), GIT_CONFIG_GLOBAL: '/dev/null' } });
    const setEmail = (e: string) => execaSync('git', ['-C', project, 'config', 'user.email', e], { env: baseEnv(home) });
    setEmail('first@team.example');
    const env = { HOME: home, PATH: '/nonexistent' };
    expect((await hook(project, 'sess-a', env)).code).toBe(0);
    expect((await hook(project, 'sess-a', env)).code).toBe(0);
    const cache = JSON.parse(readFileSync(join(project, '.loom', 'compliance', 'actor-cache.json'), 'utf8'));
    expect(cache.sessions['sess-a'].email).toBe('first@team.example');
    setEmail('second@team.example');
    expect((await hook(project, 'sess-a', env)).code).toBe(0);
    expect((await hook(project, 'sess-b', env)).code).toBe(0);
    execaSync('git', ['-C', project, 'checkout', '-q', '-b', 'topic'], { env: baseEnv(home) });
    expect((await hook(project, 'sess-b', env)).code).toBe(0);
    const all = await actors(project);
    expect(all.map((a) => a.email)).toEqual(['first@team.example', 'first@team.example', 'first@team.example', 'second@team.example', 'second@team.example']);
    // the branch is read on every call: a checkout in the middle of a session shows at once
    expect(all.map((a) => a.branch)).toEqual(['main', 'main', 'main', 'main', 'topic']);
  });

  it('the harness version from the payload (Cursor sends cursor_version)', async () => {
    const project = tempDir('loom-ver-');
    expect((await hook(project, 'v-1', {}, { cursor_version: '1.7.2' })).code).toBe(0);
    expect((await actors(project))[0].harness_version).toBe('1.7.2');
  });
});
