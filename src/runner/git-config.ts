// git's identity without running git: the config files git reads, in git's
// order (system, global, repository, worktree, then GIT_CONFIG_COUNT
// entries), each parsed with git's own rules (sections, quoting, escapes,
// comments, continuation lines), with `include.path` and
// `includeIf "gitdir:…" / "gitdir/i:…" / "onbranch:…"` followed where they
// stand; then the author email as git puts it on a commit: GIT_AUTHOR_EMAIL,
// author.email, user.email, EMAIL. A few small reads, no process.
import { realpathSync, statSync } from 'node:fs';
import { readRegularFile } from '../util/read-regular';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Where the repository of a folder keeps its state (none outside a repository). */
export interface GitDirs {
  /** The folder holding HEAD: `.git`, or a linked worktree's `.git/worktrees/<name>`. */
  gitdir: string;
  /** The folder holding `config` (the main repository's for a worktree). */
  commondir: string;
}

interface Ctx {
  env: NodeJS.ProcessEnv;
  dirs?: GitDirs;
  branch?: string | null;
  values: Map<string, string | null>;
  depth: number;
}

const MAX_FILE = 256 * 1024;
const MAX_DEPTH = 10;

function readSmall(file: string): string | undefined {
  try {
    // Non-blocking and bounded: a FIFO an agent put at ~/.gitconfig or .git/HEAD must not hold every hook.
    return readRegularFile(file, MAX_FILE);
  } catch {
    return undefined;
  }
}

/** The repository folders for `projectDir` (or GIT_DIR), found by walking up as git does. */
export function findGitDirs(projectDir: string, env: NodeJS.ProcessEnv = process.env): GitDirs | undefined {
  const withCommon = (gitdir: string): GitDirs => {
    const common = readSmall(join(gitdir, 'commondir'))?.trim();
    return { gitdir, commondir: common ? resolve(gitdir, common) : gitdir };
  };
  if (env.GIT_DIR) return withCommon(resolve(env.GIT_DIR));
  for (let d = resolve(projectDir), i = 0; i < 128; i++) {
    const dotGit = join(d, '.git');
    let st;
    try {
      st = statSync(dotGit);
    } catch {
      st = undefined;
    }
    if (st?.isDirectory()) return withCommon(dotGit);
    if (st?.isFile()) {
      const m = /^gitdir:\s*(.+?)\s*$/m.exec(readSmall(dotGit) ?? '');
      return m ? withCommon(resolve(d, m[1])) : undefined;
    }
    if (dirname(d) === d) return undefined;
    d = dirname(d);
  }
  return undefined;
}

/** The branch HEAD names (undefined when detached or unreadable). */
export function headBranch(gitdir: string): string | undefined {
  const text = readSmall(join(gitdir, 'HEAD'))?.trim();
  return text?.startsWith('ref: refs/heads/') ? text.slice('ref: refs/heads/'.length) : undefined;
}

type OnEntry = (section: string, sub: string | undefined, name: string, value: string | null) => void;

const isKeyChar = (c: string) => /^[A-Za-z0-9-]$/.test(c);
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\v' || c === '\f';

/**
 * git's config parser (config.c): returns false on a line git calls bad,
 * after delivering the entries before it. Values are unquoted and unescaped;
 * a key with no `=` has the value null (a boolean true).
 */
export function parseGitConfig(input: string, onEntry: OnEntry): boolean {
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  let i = 0;
  // EOF reads as a newline, as git's get_next_char does.
  const next = () => (i < text.length ? text[i++] : ((i = text.length + 1), '\n'));
  const eof = () => i > text.length;
  let section = '';
  let sub: string | undefined;
  let comment = false;
  for (;;) {
    let c = next();
    if (c === '\n') {
      if (eof()) return true;
      comment = false;
      continue;
    }
    if (comment || isSpace(c)) continue;
    if (c === '#' || c === ';') {
      comment = true;
      continue;
    }
    if (c === '[') {
      section = '';
      sub = undefined;
      for (;;) {
        c = next();
        if (eof()) return false;
        if (c === ']') break;
        if (isSpace(c)) {
          // [section "subsection"]
          do c = next();
          while (c === ' ' || c === '\t');
          if (c !== '"') return false;
          let s = '';
          for (;;) {
            c = next();
            if (c === '\n') return false;
            if (c === '"') break;
            if (c === '\\') {
              c = next();
              if (c === '\n') return false;
            }
            s += c;
          }
          if (next() !== ']') return false;
          sub = s;
          break;
        }
        if (!isKeyChar(c) && c !== '.') return false;
        section += c.toLowerCase();
      }
      continue;
    }
    if (!/^[A-Za-z]$/.test(c)) return false;
    let name = c.toLowerCase();
    for (;;) {
      c = next();
      if (c === '\n' || !isKeyChar(c)) break;
      name += c.toLowerCase();
    }
    while (c === ' ' || c === '\t') c = next();
    let value: string | null = null;
    if (c !== '\n') {
      if (c !== '=') return false;
      // parse_value
      let quote = false;
      let inComment = false;
      let space = 0;
      let v = '';
      for (;;) {
        c = next();
        if (c === '\n') {
          if (quote) return false;
          break;
        }
        if (inComment) continue;
        if (isSpace(c) && !quote) {
          if (v.length) space++;
          continue;
        }
        if (!quote && (c === ';' || c === '#')) {
          inComment = true;
          continue;
        }
        for (; space; space--) v += ' ';
        if (c === '\\') {
          c = next();
          if (c === '\n') continue;
          if (c === 't') c = '\t';
          else if (c === 'b') c = '\b';
          else if (c === 'n') c = '\n';
          else if (c !== '\\' && c !== '"') return false;
          v += c;
          continue;
        }
        if (c === '"') {
          quote = !quote;
          continue;
        }
        v += c;
      }
      value = v;
    }
    // A section with a dot ([a.b]) is the old form of a subsection.
    const dot = section.indexOf('.');
    if (sub === undefined && dot > 0) onEntry(section.slice(0, dot), section.slice(dot + 1), name, value);
    else onEntry(section, sub, name, value);
  }
}

/** `~/` and relative paths as git's interpolate_path reads them (no `~user/`, no `%(prefix)`). */
function expandHome(path: string, env: NodeJS.ProcessEnv): string | undefined {
  if (path === '~' || path.startsWith('~/')) return env.HOME ? env.HOME + path.slice(1) : undefined;
  if (path.startsWith('~') || path.startsWith('%(prefix)/')) return undefined;
  return path;
}

/** git's wildmatch with WM_PATHNAME as a regular expression (`*` stays inside a folder, `**` crosses them). */
function wildmatchRe(pattern: string, icase: boolean, literalPrefix = 0): RegExp {
  let re = pattern.slice(0, literalPrefix).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const p = pattern;
  for (let i = literalPrefix; i < p.length; i++) {
    const c = p[i];
    if (c === '*') {
      let j = i;
      while (p[j + 1] === '*') j++;
      const double = j > i;
      const prevOk = i === 0 || p[i - 1] === '/';
      const nextOk = j + 1 === p.length || p[j + 1] === '/';
      if (double && prevOk && nextOk) {
        if (p[j + 1] === '/') {
          re += '(?:.*/)?';
          j++;
        } else re += '.*';
      } else re += '[^/]*';
      i = j;
    } else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = p.indexOf(']', i + 2);
      if (end < 0) {
        re += '\\[';
        continue;
      }
      let body = p.slice(i + 1, end);
      const neg = body[0] === '!' || body[0] === '^';
      if (neg) body = body.slice(1);
      body = body.replace(/\[:(\w+):\]/g, (_m, cls: string) => ({ alpha: 'A-Za-z', digit: '0-9', alnum: 'A-Za-z0-9', upper: 'A-Z', lower: 'a-z', space: '\\s', xdigit: '0-9A-Fa-f' })[cls] ?? '').replace(/[\\\]^]/g, '\\$&');
      re += neg ? `[^/${body}]` : `(?!/)[${body}]`;
      i = end;
    } else if (c === '\\' && i + 1 < p.length) re += p[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`, icase ? 'i' : '');
}

function includeByGitdir(ctx: Ctx, file: string | undefined, cond: string, icase: boolean): boolean {
  if (!ctx.dirs) return false;
  let pat = expandHome(cond, ctx.env);
  if (pat === undefined) return false;
  let prefix = 0;
  if (pat.startsWith('./')) {
    if (!file) return false;
    let real: string;
    try {
      real = realpathSync(file);
    } catch {
      real = resolve(file);
    }
    const dir = dirname(real);
    pat = dir + pat.slice(1);
    prefix = dir.length + 1;
  } else if (!isAbsolute(pat)) pat = '**/' + pat;
  if (pat.endsWith('/')) pat += '**';
  const re = wildmatchRe(pat, icase, prefix);
  let real: string | undefined;
  try {
    real = realpathSync(ctx.dirs.gitdir);
  } catch {
    real = undefined;
  }
  return (real !== undefined && re.test(real)) || re.test(resolve(ctx.dirs.gitdir));
}

function includeByBranch(ctx: Ctx, cond: string): boolean {
  if (!ctx.dirs) return false;
  if (ctx.branch === null) ctx.branch = headBranch(ctx.dirs.gitdir);
  if (!ctx.branch) return false;
  return wildmatchRe(cond.endsWith('/') ? cond + '**' : cond, false).test(ctx.branch);
}

function includePath(ctx: Ctx, from: string | undefined, path: string | null): void {
  if (path === null || path === '') return;
  const expanded = expandHome(path, ctx.env);
  if (expanded === undefined) return;
  let target = expanded;
  if (!isAbsolute(target)) {
    if (!from) return; // relative includes must come from files
    target = join(dirname(from), target);
  }
  if (ctx.depth >= MAX_DEPTH) return;
  ctx.depth++;
  readConfigFile(ctx, target);
  ctx.depth--;
}

function entry(ctx: Ctx, file: string | undefined, section: string, sub: string | undefined, name: string, value: string | null): void {
  if (section === 'include' && sub === undefined && name === 'path') return includePath(ctx, file, value);
  if (section === 'includeif' && sub && name === 'path') {
    let on = false;
    if (sub.startsWith('gitdir:')) on = includeByGitdir(ctx, file, sub.slice(7), false);
    else if (sub.startsWith('gitdir/i:')) on = includeByGitdir(ctx, file, sub.slice(9), true);
    else if (sub.startsWith('onbranch:')) on = includeByBranch(ctx, sub.slice(9));
    if (on) includePath(ctx, file, value);
    return;
  }
  ctx.values.set(sub === undefined ? `${section}.${name}` : `${section}.${sub}.${name}`, value);
}

function readConfigFile(ctx: Ctx, file: string): void {
  const text = readSmall(file);
  if (text !== undefined) parseGitConfig(text, (s, sub, n, v) => entry(ctx, file, s, sub, n, v));
}

/** git_parse_maybe_bool, for GIT_CONFIG_NOSYSTEM and extensions.worktreeConfig. */
function gitBool(v: string | null | undefined): boolean {
  if (v === null) return true;
  if (v === undefined) return false;
  const s = v.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(s)) return true;
  if (['false', 'no', 'off', ''].includes(s)) return false;
  return /^-?\d+$/.test(s) ? Number(s) !== 0 : false;
}

/** Every config value git would see from `projectDir`, the last one of each key winning. */
export function gitConfigValues(projectDir: string, env: NodeJS.ProcessEnv = process.env, dirs = findGitDirs(projectDir, env)): Map<string, string | null> {
  const ctx: Ctx = { env, dirs, branch: null, values: new Map(), depth: 0 };
  if (!gitBool(env.GIT_CONFIG_NOSYSTEM)) readConfigFile(ctx, env.GIT_CONFIG_SYSTEM || '/etc/gitconfig');
  if (env.GIT_CONFIG_GLOBAL !== undefined) {
    if (env.GIT_CONFIG_GLOBAL) readConfigFile(ctx, env.GIT_CONFIG_GLOBAL);
  } else {
    const xdg = env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, 'git', 'config') : env.HOME ? join(env.HOME, '.config', 'git', 'config') : undefined;
    if (xdg) readConfigFile(ctx, xdg);
    if (env.HOME) readConfigFile(ctx, join(env.HOME, '.gitconfig'));
  }
  if (dirs) {
    readConfigFile(ctx, join(dirs.commondir, 'config'));
    if (gitBool(ctx.values.get('extensions.worktreeconfig'))) readConfigFile(ctx, join(dirs.gitdir, 'config.worktree'));
  }
  const count = Number(env.GIT_CONFIG_COUNT);
  if (env.GIT_CONFIG_COUNT && Number.isInteger(count) && count > 0) {
    for (let n = 0; n < Math.min(count, 1000); n++) {
      const key = env[`GIT_CONFIG_KEY_${n}`];
      const value = env[`GIT_CONFIG_VALUE_${n}`];
      if (!key || value === undefined) break;
      const first = key.indexOf('.');
      const last = key.lastIndexOf('.');
      if (first <= 0 || last === key.length - 1) continue;
      const section = key.slice(0, first).toLowerCase();
      const name = key.slice(last + 1).toLowerCase();
      entry(ctx, undefined, section, last > first ? key.slice(first + 1, last) : undefined, name, value);
    }
  }
  return ctx.values;
}

/** The email git would put on a commit made in `projectDir` (undefined where git would make one up from the host). */
export function gitAuthorEmail(projectDir: string, env: NodeJS.ProcessEnv = process.env, dirs?: GitDirs): string | undefined {
  if (env.GIT_AUTHOR_EMAIL) return env.GIT_AUTHOR_EMAIL;
  const values = gitConfigValues(projectDir, env, dirs ?? findGitDirs(projectDir, env));
  const author = values.get('author.email');
  if (author) return author;
  const user = values.get('user.email');
  if (user) return user;
  return env.EMAIL || undefined;
}
