// Rules about paths a command reads, writes or deletes: secret files,
// loom's own files and the harnesses' hook settings, and where a recursive
// delete lands (system, home, the project root, outside the project).
// A glob is judged by what it can match: `cat .e?v` reads `.env`,
// `rm -rf .git/*` deletes `.git/objects`. A path through a symlink is judged
// where the link points (links made earlier on the same line, or on disk).
import { realpathSync } from 'node:fs';
import { remoteProjects } from '../../util/remote-projects';
import { posix } from 'node:path';
import type { Analyzer } from './analyze';
import { globMatch } from './glob';
import { ACCOUNT_SETTINGS_FILES, STATE_FOLDERS_OF_LOOM, GIT_HISTORY_ENTRIES, GIT_HOOKS_DIR, GIT_SETTINGS_FILES, HARNESS_FOLDERS, PATH_DIRS, PERSISTENCE_NAMES, SHADOWED_COMMANDS, HOME_CACHE_DIRS, HOOK_SETTINGS_FILES, LOOM_DIR, LOOM_PACKAGE_PATHS, LOOM_PROJECT_FILES, PERSISTENCE_FILES, STARTUP_SCRIPTS, SYSTEM_DIRS, SYSTEM_FILE_DIRS, SYSTEM_FILE_EXCEPTIONS, TEMP_DIRS } from './tables/paths';
import { BLOCK_DEVICE, BLOCK_DEVICE_SAMPLES } from './tables/devices';
import { APPENDABLE_SYSTEM_FILES, CRITICAL_SYSTEM_BASENAMES, CRITICAL_SYSTEM_FILES, HISTORY_FILES } from './tables/system';
import { COST, overBudget, work } from './work';
import { deletesWork, emptiesWork } from './project-work';
import { CREDENTIAL_FOLDERS, ENV_EXAMPLE, HOME_SECRET_FILES, HOME_SECRET_NAMES, ORDINARY_SAMPLE_NAMES, SECRET_NAME_PATTERNS, SECRET_SAMPLE_NAMES, SSH_PUBLIC, SYSTEM_SECRET_FILES } from './tables/secrets';

export type PathClass = 'root' | 'system' | 'home' | 'above-project' | 'project-root' | 'inside-project' | 'temp' | 'outside';

const SYSTEM_SET = new Set(SYSTEM_DIRS);

export function within(child: string, parent: string): boolean {
  if (parent === '/') return true;
  // No `parent + '/'`: this runs for every path and table entry, and each concatenation is garbage.
  if (!child.startsWith(parent)) return false;
  return child.length === parent.length || parent.endsWith('/') || child.charCodeAt(parent.length) === 47;
}

const GLOB_CHARS = /[*?[]/;

/** Resolves a word to an absolute path; globs are cut back to the folder they start in. */
export function resolveTarget(text: string, cwd: string): { abs: string; globbed: boolean } {
  const globAt = text.search(GLOB_CHARS);
  let base = text;
  let globbed = false;
  if (globAt >= 0) {
    globbed = true;
    const slash = text.lastIndexOf('/', globAt);
    base = slash < 0 ? '.' : slash === 0 ? '/' : text.slice(0, slash);
  }
  return { abs: throughProc(posix.resolve(cwd, base.replace(/\u0000/g, '') || '.')), globbed };
}

/** `/proc/<pid>/root/...` is that process's view of `/` (pid 1's is the host's, from a container): the path it names. */
export function throughProc(abs: string): string {
  if (!abs.startsWith('/proc/')) return abs;
  const m = /^\/proc\/(?:\d{1,10}|self|thread-self)\/root(?=\/|$)/.exec(abs);
  return m ? abs.slice(m[0].length) || '/' : abs;
}

/**
 * A glob as a regular expression over absolute paths, segment by segment as
 * bash matches it: `*` and `?` stay inside one segment and do not match a
 * leading dot; `[...]` is a class; `**` spans segments.
 */
const globCache = new Map<string, RegExp | undefined>();

export function globToRegExp(absPattern: string): RegExp | undefined {
  if (absPattern.length > 512) return undefined;
  if (globCache.has(absPattern)) return globCache.get(absPattern);
  if (globCache.size > 256) globCache.clear();
  const re = compileGlob(absPattern);
  globCache.set(absPattern, re);
  return re;
}

function compileGlob(absPattern: string): RegExp | undefined {
  let re = '^';
  let segStart = true;
  for (let i = 0; i < absPattern.length; i++) {
    const c = absPattern[i];
    if (c === '/') {
      re += '/';
      segStart = true;
      continue;
    }
    if (c === '*') {
      if (absPattern[i + 1] === '*') {
        // `**` (zsh, bash's globstar): any depth, but no hidden folder or file on the way unless named (dotglob is off);
        // `**/` may stand for no folder at all (`**/.loom` is ./.loom too).
        if (segStart && absPattern[i + 2] === '/') {
          re += '(?:(?!\\.)[^/]*/)*';
          i += 2;
          continue;
        }
        re += segStart ? '(?:(?!\\.)[^/]*(?:/(?!\\.)[^/]*)*)' : '[^/]*(?:/(?!\\.)[^/]*)*';
        i++;
      } else re += segStart ? '(?!\\.)[^/]*' : '[^/]*';
    } else if (c === '?') re += segStart ? '[^/.]' : '[^/]';
    else if (c === '[') {
      const end = absPattern.indexOf(']', i + 2);
      if (end < 0) re += '\\[';
      else {
        let body = absPattern.slice(i + 1, end);
        const neg = body[0] === '!' || body[0] === '^';
        if (neg) body = body.slice(1);
        re += `[${neg ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
        i = end;
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    segStart = false;
  }
  try {
    return new RegExp(re + '$');
  } catch {
    return undefined;
  }
}

/** A whole disk or partition: the path names one, or is a glob that can (`/dev/s[d]a`, `/dev/nvme*`). */
export function isBlockDevice(path: string): boolean {
  if (BLOCK_DEVICE.test(path)) return true;
  if (!path.startsWith('/dev/') || !GLOB_CHARS.test(path)) return false;
  const re = globToRegExp(path);
  return !!re && BLOCK_DEVICE_SAMPLES.some((d) => re.test(d));
}

/**
 * Absolute candidates a glob in `text` could match, among `candidates`. Case does not count: with
 * `shopt -s nocaseglob`, and on the case-insensitive file systems of macOS and Windows, `.EN[V]` is `.env`.
 */
export function globMatches(text: string, cwd: string, candidates: string[]): string[] {
  if (!GLOB_CHARS.test(text)) return [];
  const exact = globToRegExp(posix.resolve(cwd, text.replace(/\u0000/g, '')));
  const re = exact && new RegExp(exact.source, exact.flags.includes('i') ? exact.flags : exact.flags + 'i');
  return re ? candidates.filter((c) => re.test(c)) : [];
}

// Symlinks made earlier on the same command line (`ln -s ~ h; rm -rf h/`), with the order they were made in.
const lineLinks = new WeakMap<Analyzer, Map<string, { target: string; order: number }>>();

export function recordSymlink(a: Analyzer, linkAbs: string, targetAbs: string): void {
  let m = lineLinks.get(a);
  if (!m) lineLinks.set(a, (m = new Map()));
  const prev = m.get(linkAbs);
  m.set(linkAbs, { target: targetAbs, order: prev ? prev.order : m.size });
}

/**
 * Where a path really is: links from this line, then the file system (a
 * link's own entry is what `rm link` removes, so the last component is
 * followed only when `followLast`: a trailing slash or a glob under it).
 */
const realCache = new Map<string, string>();

function realpathCached(p: string): string {
  let r = realCache.get(p);
  if (r === undefined) {
    if (realCache.size > 512) realCache.clear();
    try {
      r = realpathSync(p);
    } catch {
      r = p;
    }
    realCache.set(p, r);
  }
  return r;
}

export function realTarget(a: Analyzer, abs: string, followLast: boolean, disk = false): string {
  const links = lineLinks.get(a);
  if (links?.size) {
    // The path and each of its parents is looked up (not every link made): the first link made wins, as before.
    let best: { link: string; target: string; order: number } | undefined;
    for (let p = abs; ; ) {
      work.units++;
      const l = links.get(p);
      if (l && (!best || l.order < best.order)) best = { link: p, ...l };
      const slash = p.lastIndexOf('/');
      if (slash <= 0) break;
      p = p.slice(0, slash);
    }
    if (best) return abs === best.link ? best.target : posix.join(best.target, abs.slice(best.link.length + 1));
  }
  // A team server judges the developer's paths as written: its own disk says nothing about them.
  if (!disk || abs === '/' || !abs.startsWith('/') || remoteProjects()) return abs;
  if (followLast) return realpathCached(abs);
  const dir = posix.dirname(abs);
  if (dir === '/') return abs;
  const real = realpathCached(dir);
  return real === dir ? abs : posix.join(real, posix.basename(abs));
}

export function classify(abs: string, a: Analyzer): PathClass {
  const { projectDir, home, tmp } = a.opts;
  if (abs === '/') return 'root';
  // The project is protected wherever it lives, the temp folder included:
  // the temp exemption is for paths outside the project.
  if (abs === projectDir) return 'project-root';
  if (within(abs, projectDir)) return 'inside-project';
  if (within(projectDir, abs)) return abs === home ? 'home' : 'above-project';
  // The home folder too, and whatever holds it: a sandbox or CI runner often puts HOME under /tmp.
  if (abs === home || (within(home, abs) && abs !== '/')) return 'home';
  for (const t of [tmp, ...TEMP_DIRS]) if (abs !== t && within(abs, t)) return 'temp';
  // Package and build caches under home are as disposable as the temp folder.
  if (within(abs, home)) for (const c of under(home).caches) if (within(abs, c)) return 'temp';
  if (SYSTEM_SET.has(abs) || (abs.split('/').length === 2 && !within(abs, home))) return 'system';
  return 'outside';
}

interface HomePaths {
  ssh: string;
  secretFiles: string[];
  credentialFolders: string[];
  persistence: string[];
  startupScripts: string[];
  hookSettings: string[];
  harnessFolders: string[];
  caches: string[];
  loomState: string[];
}
const homeCache = new Map<string, HomePaths>();

/** Tables joined onto a home (or project) folder, once per folder and process. */
export function under(home: string): HomePaths {
  let h = homeCache.get(home);
  if (!h) {
    if (homeCache.size > 64) homeCache.clear();
    h = {
      ssh: posix.join(home, '.ssh'),
      secretFiles: HOME_SECRET_FILES.map((f) => posix.join(home, f)),
      credentialFolders: CREDENTIAL_FOLDERS.map((f) => posix.join(home, f)),
      persistence: PERSISTENCE_FILES.map((f) => (f.startsWith('/') ? f : posix.join(home, f))),
      startupScripts: STARTUP_SCRIPTS.map((f) => (f.startsWith('/') ? f : posix.join(home, f))),
      hookSettings: HOOK_SETTINGS_FILES.map((f) => posix.join(home, f)),
      harnessFolders: HARNESS_FOLDERS.map((f) => posix.join(home, f)),
      caches: HOME_CACHE_DIRS.map((f) => posix.join(home, f)),
      loomState: STATE_FOLDERS_OF_LOOM.map((f) => posix.join(home, f)),
    };
    homeCache.set(home, h);
  }
  return h;
}

export function isSecretPath(abs: string, a: Analyzer): boolean {
  const base = posix.basename(abs);
  const h = under(a.opts.home);
  if (within(abs, h.ssh)) return abs !== h.ssh && !SSH_PUBLIC.test(base);
  if (!ENV_EXAMPLE.test(base) && SECRET_NAME_PATTERNS.some((p) => p.test(base))) return true;
  if (within(abs, a.opts.home)) for (const f of h.secretFiles) if (within(abs, f)) return true;
  if (within(abs, a.opts.home) && !within(abs, a.opts.projectDir) && abs.slice(a.opts.home.length + 1).startsWith('.') && !ENV_EXAMPLE.test(base) && HOME_SECRET_NAMES.test(base) && !/\.(?:js|ts|py|rb|go|rs|java|md|txt|html|css|json\.lock)$/.test(base)) return true;
  if (abs.startsWith('/etc/') || abs.startsWith('/root') || abs.startsWith('/var/') || abs.startsWith('/run/')) for (const f of SYSTEM_SECRET_FILES) if (within(abs, f)) return true;
  // Another process's environment holds its tokens.
  if (abs.startsWith('/proc/') && /^\/proc\/[^/]+(?:\/task\/[^/]+)?\/environ$/.test(abs)) return true;
  const rel = posix.relative(a.opts.projectDir, abs);
  return a.opts.policy.sensitivePaths.some((p) => p.test(abs) || p.test(rel) || p.test(base));
}

/** A folder of credentials (or a folder holding one, such as home): copying it whole carries them off. */
export function credentialFolderIn(abs: string, a: Analyzer): string | undefined {
  for (const full of under(a.opts.home).credentialFolders) if (within(full, abs) && abs !== '/') return full;
  if (abs === '/etc' || abs === '/root') return abs;
  return undefined;
}

/** Concrete secret paths a glob is tried against. */
const candidateCache = new Map<string, string[]>();

function secretCandidates(a: Analyzer, cwd: string): string[] {
  const { home, projectDir } = a.opts;
  const key = `${home}\u0000${projectDir}\u0000${cwd}`;
  const cached = candidateCache.get(key);
  if (cached) return cached;
  if (candidateCache.size > 64) candidateCache.clear();
  const out: string[] = [];
  for (const dir of new Set([cwd, projectDir])) for (const n of SECRET_SAMPLE_NAMES) out.push(posix.join(dir, n));
  for (const k of ['id_rsa', 'id_ed25519', 'id_ecdsa', 'id_dsa', 'authorized_keys']) out.push(posix.join(home, '.ssh', k));
  // /proc/*/environ: every process's environment, tokens included.
  out.push('/proc/self/environ', '/proc/1/environ');
  for (const f of HOME_SECRET_FILES) out.push(posix.join(home, f));
  for (const f of CREDENTIAL_FOLDERS) out.push(posix.join(home, f));
  out.push(...SYSTEM_SECRET_FILES);
  // Cached once complete: a watchdog that ends an analysis midway must not leave a partial list behind.
  candidateCache.set(key, out);
  return out;
}

/** Who may log in over ssh: deleting it locks every key out (it is public keys, not a secret, so named apart). */
const AUTHORIZED_KEYS = /^\/authorized_keys2?$/;

type ProtectedKind = 'modify-loom' | 'modify-hook-settings';

/** loom's own folders in a project, joined once per project: protectedKind runs for every path a command touches. */
const loomPathsMemo = new Map<string, string[]>();
function loomPathsIn(projectDir: string): string[] {
  let got = loomPathsMemo.get(projectDir);
  if (!got) {
    if (loomPathsMemo.size > 64) loomPathsMemo.clear();
    got = [LOOM_DIR, ...LOOM_PACKAGE_PATHS].map((p) => posix.join(projectDir, p));
    loomPathsMemo.set(projectDir, got);
  }
  return got;
}

function protectedKind(abs: string, a: Analyzer): ProtectedKind | undefined {
  const { projectDir, home } = a.opts;
  const loomPaths = loomPathsIn(projectDir);
  if (within(abs, loomPaths[0])) return 'modify-loom';
  for (const p of a.opts.protectedPaths) if (within(abs, p)) return 'modify-loom';
  for (let i = 1; i < loomPaths.length; i++) if (within(abs, loomPaths[i])) return 'modify-loom';
  // The checkpoint copies and witnesses outside the project: the evidence verify holds the ledger to.
  if (within(abs, home)) for (const d of under(home).loomState) if (within(abs, d)) return 'modify-loom';
  // Copilot's user hooks live under $COPILOT_HOME when it is set.
  if (process.env.COPILOT_HOME && within(abs, posix.join(posix.resolve(process.env.COPILOT_HOME), 'hooks'))) return 'modify-hook-settings';
  if (!within(abs, projectDir) && !within(abs, home)) return undefined;
  for (const base of [projectDir, home]) for (const f of under(base).hookSettings) if (within(abs, f)) return 'modify-hook-settings';
  return undefined;
}

/** Deleting or moving `abs` takes a protected thing with it (the thing itself or a folder holding it). */
function destroyedKind(abs: string, a: Analyzer): { kind: ProtectedKind; what: string } | undefined {
  const direct = protectedKind(abs, a);
  if (direct) return { kind: direct, what: abs };
  const { projectDir, home } = a.opts;
  const loom = posix.join(projectDir, LOOM_DIR);
  if (within(loom, abs) && within(abs, projectDir) && abs !== projectDir) return { kind: 'modify-loom', what: loom };
  for (const p of a.opts.protectedPaths) if (within(p, abs) && abs !== '/' && abs.split('/').length > 3) return { kind: 'modify-loom', what: p };
  // A folder holding loom's state (`rm -rf ~/.local/state`, `mv ~/.local ~/x`), the home folder itself aside (its own rules judge it).
  if (abs !== home && within(abs, home)) for (const d of under(home).loomState) if (within(d, abs)) return { kind: 'modify-loom', what: d };
  for (const base of [projectDir, home]) {
    if (abs === base || !within(abs, base)) continue;
    for (const full of under(base).harnessFolders) if (within(full, abs)) return { kind: 'modify-hook-settings', what: full };
  }
  return undefined;
}

/** A link made to loom's files or hook settings (or a folder holding them): every later write through it lands there. */
export function linksTo(a: Analyzer, targetAbs: string, segment: string): void {
  const d = destroyedKind(targetAbs, a);
  if (d) hitProtected(a, d.kind, d.what, segment, 'makes a link to');
}

/** A tree copied into `path` (cp -r, rsync -a into `.claude/`, `cp -r x/.loom .`) lands on loom's files or hook settings. */
export function copiesTreeInto(a: Analyzer, path: string, cwd: string, segment: string): void {
  if (overBudget()) return;
  work.units += COST.path + path.length;
  if (path.includes('\u0000')) return;
  const text = path.startsWith('~/') || path === '~' ? a.opts.home + path.slice(1) : path;
  const d = destroyedKind(resolveTarget(text, cwd).abs, a);
  if (d) hitProtected(a, d.kind, d.what, segment, 'overwrites');
}

/** A recursive change of `path` (chmod -R, chown -R) reaches loom's files or hook settings below it. */
export function changesTree(a: Analyzer, path: string, cwd: string, segment: string): void {
  // Past the budget the command is already a block: judging the rest of its paths adds nothing.
  if (overBudget()) return;
  work.units += COST.path + path.length;
  if (path.includes('\u0000')) return;
  const text = path.startsWith('~/') || path === '~' ? a.opts.home + path.slice(1) : path;
  const { abs } = resolveTarget(text, cwd);
  const d = destroyedKind(abs, a);
  if (d) hitProtected(a, d.kind, d.what, segment, 'changes');
}

function hitProtected(a: Analyzer, kind: ProtectedKind, what: string, segment: string, verb: string): void {
  if (kind === 'modify-loom') a.hit(kind, 'deny', segment, `${verb} loom's own files (${what}): the agent may not switch off its audit`);
  else a.hit(kind, 'deny', segment, `${verb} the harness hook settings (${what})`);
}

/** Protected and history paths a glob could reach, tried when the word has glob characters. */
function protectedCandidates(a: Analyzer): string[] {
  const { projectDir, home } = a.opts;
  const out = [posix.join(projectDir, LOOM_DIR), posix.join(projectDir, '.git'), ...LOOM_PROJECT_FILES.map((f) => posix.join(projectDir, f))];
  for (const e of GIT_HISTORY_ENTRIES) out.push(posix.join(projectDir, '.git', e));
  for (const base of [projectDir, home]) {
    for (const rel of HARNESS_FOLDERS) out.push(posix.join(base, rel));
    for (const rel of HOOK_SETTINGS_FILES) out.push(posix.join(base, rel));
  }
  return out;
}

export function readsPath(a: Analyzer, path: string, cwd: string, segment: string): void {
  // Past the budget the command is already a block: judging the rest of its paths adds nothing.
  if (overBudget()) return;
  work.units += COST.path + path.length;
  if (path === '') return;
  if (path.includes('\u0000')) {
    // /proc/$(pgrep node)/environ: whichever process it names, its environment holds its tokens.
    if (/^\/proc\/[^/]*\u0000[^/]*\/(?:task\/[^/]*\/)?environ$/.test(path)) a.hit('read-secret-file', 'deny', segment, `reads another process's environment (${path.replace(/\u0000/g, '$…')})`);
    return;
  }
  const text = path.startsWith('~/') || path === '~' ? a.opts.home + path.slice(1) : path;
  const { abs, globbed } = resolveTarget(text, cwd);
  if (globbed) {
    // ~/.mozilla/firefox/*/cookies.sqlite: the folder it starts in, or the name it ends in, is a secret's.
    const last = posix.basename(text);
    if (!GLOB_CHARS.test(last) && !ENV_EXAMPLE.test(last) && SECRET_NAME_PATTERNS.some((p) => p.test(last))) {
      a.hit('read-secret-file', 'deny', segment, `reads secret files named ${last} (through the glob ${path})`);
      return;
    }
    if (abs !== a.opts.home && abs !== '/' && within(abs, a.opts.home) && !within(abs, a.opts.projectDir) && isSecretPath(abs, a)) {
      a.hit('read-secret-file', 'deny', segment, `reads the secret files under ${abs} (through the glob ${path})`);
      return;
    }
  }
  if (!globbed) {
    const real = realTarget(a, abs, true);
    if (a.loadingEnv > 0 && /^\.env(?:\.|$)/.test(posix.basename(abs))) {
      a.secretsLoaded = true;
      return;
    }
    if (isSecretPath(abs, a) || (real !== abs && isSecretPath(real, a))) a.hit('read-secret-file', 'deny', segment, `reads the secret file ${abs}`);
    return;
  }
  // `cat *.json`, `head src/*`: a glob that names ordinary files too is not a reach for secrets, outside a credential folder.
  const lastGlob = posix.basename(text);
  if (ORDINARY_SAMPLE_NAMES.some((n) => globMatch(lastGlob, n)) && !credentialFolderIn(abs, a) && !within(abs, under(a.opts.home).ssh)) return;
  // The glob's own folder when it is literal (`config/.env*`): the secret names there are candidates too.
  const folder = posix.dirname(posix.resolve(cwd, text));
  const here = GLOB_CHARS.test(folder) ? [] : SECRET_SAMPLE_NAMES.map((n) => posix.join(folder, n));
  const m = globMatches(text, cwd, [...secretCandidates(a, cwd), ...here]).find((c) => isSecretPath(c, a) || CREDENTIAL_FOLDERS.some((f) => c === posix.join(a.opts.home, f)));
  if (m) a.hit('read-secret-file', 'deny', segment, `reads the secret file ${m} (through the glob ${path})`);
}

/** A whole folder read by a program that copies or archives it: a credential folder goes with it. */
export function carriesFolder(a: Analyzer, path: string, cwd: string, segment: string): void {
  // Past the budget the command is already a block: judging the rest of its paths adds nothing.
  if (overBudget()) return;
  work.units += COST.path + path.length;
  if (path.includes('\u0000') || path === '') return;
  const text = path.startsWith('~/') || path === '~' ? a.opts.home + path.slice(1) : path;
  const { abs, globbed } = resolveTarget(text, cwd);
  const found = globbed ? globMatches(text, cwd, under(a.opts.home).credentialFolders)[0] : credentialFolderIn(realTarget(a, abs, true), a);
  if (found) a.hit('read-secret-file', 'deny', segment, `copies or archives the credentials in ${found}`);
  else readsPath(a, path, cwd, segment);
}

/** ~/.bashrc, ~/.gitconfig, ~/.ssh/config: the account's own settings files (not a project's copy). */
function accountSettingsFile(abs: string, a: Analyzer): boolean {
  if (!abs.startsWith(a.opts.home + '/') || within(abs, a.opts.projectDir)) return false;
  return ACCOUNT_SETTINGS_FILES.includes(abs.slice(a.opts.home.length + 1));
}

/** .git/config of a repository on this machine (the project's or another's): its settings run commands and name the remotes. */
function gitSettingsFile(abs: string): string | undefined {
  const at = abs.lastIndexOf('/.git/');
  if (at < 0) return undefined;
  const rest = abs.slice(at + 6);
  return GIT_SETTINGS_FILES.find((f) => rest === f) ? abs : undefined;
}

function isPersistence(abs: string, a: Analyzer): boolean {
  if (abs.includes('/' + GIT_HOOKS_DIR + '/')) return true;
  // Python runs *.pth and usercustomize.py in a site folder at every start. (A hook manager's folder, .husky, is committed and reviewed: not persistence.)
  if (PERSISTENCE_NAMES.test(posix.basename(abs)) && /\/(?:site|dist)-packages(?:\/|$)/.test(abs)) return true;
  // ~/.local/bin/git: a look-alike of a common command early on PATH runs instead of it from now on.
  if (SHADOWED_COMMANDS.includes(posix.basename(abs)) && PATH_DIRS.some((d) => posix.dirname(abs) === (d.startsWith('/') ? d : posix.join(a.opts.home, d)))) return true;
  if (!within(abs, a.opts.home) && !abs.startsWith('/etc/') && !abs.startsWith('/var/spool/')) return false;
  if (within(abs, a.opts.projectDir) && abs !== a.opts.projectDir) return false;
  for (const f of under(a.opts.home).persistence) if (within(abs, f)) return true;
  return abs.includes('/' + GIT_HOOKS_DIR + '/');
}

/** A start-up file whose content is shell code (tables/paths.ts STARTUP_SCRIPTS), or a git hook. */
export function isStartupScript(abs: string, a: Analyzer): boolean {
  if (abs.includes('/' + GIT_HOOKS_DIR + '/')) return true;
  if (within(abs, a.opts.projectDir) && abs !== a.opts.projectDir) return false;
  return under(a.opts.home).startupScripts.some((f) => within(abs, f));
}

export function writesPath(a: Analyzer, path: string, cwd: string, segment: string, o: { append?: boolean; movedAway?: boolean } = {}): void {
  // Past the budget the command is already a block: judging the rest of its paths adds nothing.
  if (overBudget()) return;
  work.units += COST.path + path.length;
  if (path.includes('\u0000') && !path.replace(/\u0000/g, '').includes('/')) return;
  const text = path.startsWith('~/') || path === '~' ? a.opts.home + path.slice(1) : path;
  const { abs, globbed } = resolveTarget(text, cwd);
  // A package.json written: the line may take loom out of the project's dependencies (judged once the line is read).
  if (posix.basename(abs) === 'package.json') a.packageJsonWritten = true;
  // A write follows links, on the line and on disk (`ln -s .loom/policy.json p.json; echo {} > p.json`).
  const real = realTarget(a, abs, true, true);
  const kind = protectedKind(abs, a) ?? (real !== abs ? protectedKind(real, a) : undefined);
  if (kind) hitProtected(a, kind, abs, segment, 'changes');
  else if (globbed) {
    const m = globMatches(text, cwd, protectedCandidates(a)).find((c) => protectedKind(c, a));
    if (m) hitProtected(a, protectedKind(m, a)!, m, segment, 'changes');
  }
  // Overwriting what .git keeps history in (objects, refs, HEAD, the index) by anything but git destroys it.
  const history = gitHistoryIn(abs) ?? (/\/\.git\/index$/.test(abs) ? abs : undefined);
  if (history && !o.append && within(abs, a.opts.projectDir)) a.hit('git-history-destroy', 'deny', segment, `overwrites ${posix.relative(a.opts.projectDir, abs)}, where the repository keeps its history`);
  if (isBlockDevice(abs) || (real !== abs && isBlockDevice(real))) a.hit('disk-destroy', 'deny', segment, `writes straight to the block device ${abs}`);
  if (abs === '/proc/sysrq-trigger') a.hit('shutdown', 'ask', segment, 'writes /proc/sysrq-trigger, which can crash or reboot the machine at once');
  const critical = criticalSystemFile(abs) ?? (real !== abs ? criticalSystemFile(real) : undefined);
  if (critical && !(o.append && APPENDABLE_SYSTEM_FILES.includes(critical))) a.hit('system-file-overwrite', 'deny', segment, `${o.append ? 'appends to' : 'writes'} ${critical}, which holds the machine's accounts, access or boot`);
  // A start-up file moved away (`mv ~/.ssh/config x.bak`) runs nothing new.
  if (!o.movedAway && (isPersistence(abs, a) || (real !== abs && isPersistence(real, a)))) {
    const detail = `writes ${abs}, which runs on its own later (login, shell start, git hook)`;
    // A start-up script or hook: what is written into it is judged too, once the line says (Analyzer.contentWritten).
    if (isStartupScript(abs, a) || (real !== abs && isStartupScript(real, a))) a.startupScriptWrite(abs, segment, detail);
    else a.hit('persistence', 'ask', segment, detail);
  }
  else if (!o.movedAway && gitSettingsFile(abs)) a.hit('persistence', 'ask', segment, `writes ${abs} by hand: its settings (core.fsmonitor, core.hooksPath, aliases, filters) run commands, and its remotes say where pushes go`);
  // Emptied or overwritten, the account's settings files are lost (a write that appends keeps them).
  if (!o.append && !o.movedAway && accountSettingsFile(abs, a) && !isPersistence(abs, a)) a.hit('destroy-outside-project', 'deny', segment, `overwrites ${abs}, the account's own settings`);
}

/** Can the glob word (whose fixed folder is `abs`) name the project or a folder holding it? */
function globReaches(text: string, abs: string, projectDir: string): boolean {
  if (!within(projectDir, abs) || projectDir === abs) return false;
  const globAt = text.search(/[*?[]/);
  const comp = text.slice(text.lastIndexOf('/', globAt) + 1).split('/')[0];
  const next = projectDir.slice(abs === '/' ? 1 : abs.length + 1).split('/')[0];
  return globMatch(comp, next);
}

/** Entries every project root may hold: a glob that matches at most one of them cannot name the root's contents as a whole. */
const TYPICAL_ROOT_ENTRIES = ['src', 'lib', 'app', 'docs', 'test', 'package.json', 'README.md', 'Makefile', 'main.go', 'Cargo.toml', 'index.ts', 'setup.py', 'LICENSE'];

/** `*.egg-info`, `build*`, `*.log`: a glob with a literal part, matching only what its name says (its last part, nothing below it). */
function narrowGlob(text: string): boolean {
  const clean = text.replace(/\/+$/, '');
  const globAt = clean.search(/[*?[]/);
  if (globAt < 0) return false;
  // Over several levels (`**/*.tsbuildinfo`, `*/dist`) the last part says what goes: narrow when it is.
  const comp = clean.indexOf('/', globAt) >= 0 ? clean.slice(clean.lastIndexOf('/') + 1) : clean.slice(clean.lastIndexOf('/', globAt) + 1);
  if (comp === '' || /^[*?]+$/.test(comp)) return false;
  return TYPICAL_ROOT_ENTRIES.filter((n) => globMatch(comp, n)).length <= 1;
}

export interface DeleteOptions {
  recursive: boolean;
  /** find with name predicates: the project root itself is not wiped. */
  filtered?: boolean;
  /** The verb for messages ("deletes", "moves"). */
  verb?: string;
}

function gitHistoryIn(abs: string): string | undefined {
  const i = abs.lastIndexOf('/.git/');
  if (i < 0) return undefined;
  const entry = abs.slice(i + 6).split('/')[0];
  return GIT_HISTORY_ENTRIES.includes(entry) ? abs.slice(0, i + 5) : undefined;
}

export function deletesPath(a: Analyzer, path: string, cwd: string, segment: string, o: DeleteOptions): void {
  // Past the budget the command is already a block: judging the rest of its paths adds nothing.
  if (overBudget()) return;
  work.units += COST.path + path.length;
  if (path.includes('\u0000')) {
    const prefix = path.slice(0, path.indexOf('\u0000'));
    // "$DIR/build" is unknown; "./build/$X" stays under a known folder.
    if (!prefix.includes('/') || prefix.endsWith('=')) {
      if (o.recursive) a.hit('rm-unknown-target', 'ask', segment, `deletes a path only known at run time (${path.replace(/\u0000/g, '$…')})`);
      return;
    }
    path = prefix.slice(0, prefix.lastIndexOf('/') + 1) + '*';
  }
  const verb = o.verb ?? 'deletes';
  const text = path.startsWith('~/') || path === '~' ? a.opts.home + path.slice(1) : path;
  const resolved = resolveTarget(text, cwd);
  const globbed = resolved.globbed;
  const abs = o.recursive ? realTarget(a, resolved.abs, globbed || /\/\.?$/.test(text), true) : realTarget(a, resolved.abs, false);
  // A glob under a link made on the line (`ln -s .git out; rm -rf out/*`) matches under the link's target.
  const full = posix.resolve(cwd, text);
  const globText = globbed && abs !== resolved.abs && full.startsWith(resolved.abs + '/') ? posix.join(abs, full.slice(resolved.abs.length + 1)) : text;
  const destroyed = destroyedKind(abs, a) ?? (abs !== resolved.abs ? destroyedKind(resolved.abs, a) : undefined);
  if (destroyed) hitProtected(a, destroyed.kind, destroyed.what, segment, verb === 'moves' ? 'moves' : 'deletes');
  else if (globbed && !o.filtered) {
    const m = globMatches(globText, cwd, protectedCandidates(a)).find((c) => destroyedKind(c, a));
    if (m) hitProtected(a, destroyedKind(m, a)!.kind, m, segment, 'deletes');
  }
  const history = gitHistoryIn(abs + '/') ?? (globbed && !o.filtered && posix.basename(abs) === '.git' && globMatches(globText, cwd, GIT_HISTORY_ENTRIES.map((e) => posix.join(abs, e))).length ? abs : undefined);
  if (history && (o.recursive || /\/\.git\/(?:HEAD|packed-refs)$/.test(abs))) a.hit('git-history-destroy', 'deny', segment, `${verb} the history of the repository (${posix.relative(cwd, abs) || abs})`);
  // Keys and credentials: deleting one (or a glob over their folder) loses access that cannot be rebuilt.
  if (verb !== 'moves') {
    // A glob in the folder the command runs in names its own files, not the home folder's keys, unless that folder holds keys (`cd ~/.ssh && rm -f *`).
    const inKeys = credentialFolderIn(cwd, a) !== undefined || within(cwd, under(a.opts.home).ssh);
    const cred = globbed ? (o.filtered ? undefined : globMatches(globText, cwd, secretCandidates(a, cwd)).find((c) => within(c, a.opts.home) && !within(c, a.opts.projectDir) && (inKeys || !within(c, cwd)) && isSecretPath(c, a))) : (isSecretPath(abs, a) || AUTHORIZED_KEYS.test(abs.slice(under(a.opts.home).ssh.length))) && within(abs, a.opts.home) && !within(abs, a.opts.projectDir) ? abs : credentialFolderIn(abs, a) === abs ? abs : undefined;
    if (cred) a.hit('rm-credentials', 'deny', segment, `${verb} keys or credentials (${cred})`);
    if (!globbed && historyFile(abs, a)) a.hit('destroy-history', 'deny', segment, `${verb} ${abs}, the record of the commands run on this machine`);
    if (!globbed && accountSettingsFile(abs, a)) a.hit('destroy-outside-project', 'deny', segment, `${verb} ${abs}, the account's own settings (kept nowhere else)`);
  }
  const gitDir = posix.join(a.opts.projectDir, '.git');
  if (abs !== gitDir && globbed && !o.filtered && globMatches(globText, cwd, [gitDir]).length) a.hit('rm-git-dir', 'deny', segment, `${verb} the repository history (.git, through the glob ${path})`);
  // unlink .git / rm .git: a worktree's .git file is its link to the history.
  if (!o.recursive && abs === gitDir && !globbed) a.hit('rm-git-dir', 'deny', segment, `${verb} the repository's .git`);
  // A top-level source folder of the project, or every file in it through a glob (a move renames it: nothing is
  // lost; rmdir and a plain rm of a folder take nothing).
  if (verb !== 'moves' && !o.filtered && (o.recursive || globbed)) deletesWork(a, text, resolved.abs === abs ? abs : resolved.abs, globbed, segment, verb);
  if (!o.recursive) return;
  if (a.opts.policy.allowedOutsidePaths.some((p) => p.test(abs))) return;
  // /tmp/test-* deletes inside the temp folder, not the folder itself.
  if (globbed && [a.opts.tmp, ...TEMP_DIRS].includes(abs) && !globReaches(path, abs, a.opts.projectDir)) return;
  const cls = classify(abs, a);
  switch (cls) {
    case 'root':
    case 'system':
      a.hit('rm-recursive-root', 'deny', segment, `recursively ${verb} ${abs === '/' ? 'the root filesystem' : `the system folder ${abs}`}`);
      break;
    case 'home':
      a.hit('rm-recursive-home', 'deny', segment, `recursively ${verb} the home folder`);
      break;
    case 'above-project':
      a.hit('rm-recursive-outside-project', 'deny', segment, `recursively ${verb} ${abs}, which holds the project`);
      break;
    case 'project-root':
      if (!o.filtered && !(globbed && narrowGlob(path))) a.hit('rm-recursive-project-root', 'deny', segment, `recursively ${verb} the project root${globbed ? "'s contents" : ''} (${abs})`);
      break;
    case 'outside':
      if (verb !== 'moves') a.hit('rm-recursive-outside-project', 'deny', segment, `recursively ${verb} ${abs}, outside the project and the temp folder`);
      break;
    case 'inside-project':
      // The project's .git as a whole is its history (issue 12 §15): deleted or moved away, it is gone for the agent's work.
      if (posix.basename(abs) === '.git' && !globbed && posix.dirname(abs) === a.opts.projectDir) a.hit('rm-git-dir', 'deny', segment, `${verb} the repository history (.git)`);
      break;
    case 'temp':
      break;
  }
}

/**
 * A path moved to `dest` (mv, shutil.move, File.rename): judged as a delete of the source (a move of
 * home, the project root or a protected folder takes it away); onto /dev/null it is a delete; the
 * harness settings folder moved takes its hooks; credentials moved out of home are lost there and
 * exposed where they go (deny), renamed aside they stop working (ask).
 */
export function movesPath(a: Analyzer, src: string, dest: string | undefined, cwd: string, segment: string): void {
  const home = a.opts.home;
  const destAbs = dest === undefined || dest.includes('\u0000') ? undefined : resolveTarget(dest.startsWith('~') ? home + dest.slice(1) : dest, cwd).abs;
  if (destAbs === '/dev/null') {
    deletesPath(a, src, cwd, segment, { recursive: true, verb: 'deletes (by a move onto /dev/null)' });
    return;
  }
  // A source is judged as a deleted path: `mv .git .git.bak` leaves no repository where git looks (then `git init`
  // starts a history with none of the old commits), so a rename of .git in place is a delete of it too.
  const { abs } = resolveTarget(src.startsWith('~') ? home + src.slice(1) : src, cwd);
  if ([a.opts.projectDir, home].some((b) => HARNESS_FOLDERS.some((h) => posix.join(b, h) === abs))) {
    a.hit('modify-hook-settings', 'deny', segment, `moves the harness settings folder ${abs} (and its hooks) away`);
    return;
  }
  deletesPath(a, src, cwd, segment, { recursive: true, verb: 'moves' });
  const cred = credentialFolderIn(abs, a) === abs || (isSecretPath(abs, a) && within(abs, home) && !within(abs, a.opts.projectDir));
  if (!cred || destAbs === undefined || destAbs === abs) return;
  if (!within(destAbs, home)) a.hit('rm-credentials', 'deny', segment, `moves the credentials ${abs} out of the home folder (to ${destAbs})`);
  // Renamed in place (`mv ~/.ssh ~/.ssh.bak`): every tool that reads them stops working, and may write new empty ones there.
  else a.hit('move-credentials', 'ask', segment, `moves the credentials ${abs} aside (to ${destAbs}): the tools that read them stop working`);
}

/** The critical system file (tables/system.ts) a path is or lies under. */
function criticalSystemFile(abs: string): string | undefined {
  return CRITICAL_SYSTEM_FILES.find((f) => within(abs, f)) ?? (CRITICAL_SYSTEM_BASENAMES.includes(posix.basename(abs)) ? abs : undefined);
}

/** A shell or tool history file under home (tables/system.ts): losing it hides what was done. */
export function historyFile(abs: string, a: Analyzer): boolean {
  return HISTORY_FILES.some((f) => abs === posix.join(a.opts.home, f));
}

/** Whether a command runs with raised privileges (under sudo, doas, pkexec, run0 or su). */
export function elevated(via: string): boolean {
  return /(?:^| > )(?:sudo|doas|pkexec|run0|su|runuser)\b/.test(via);
}

/** A file that belongs to the operating system (tables/paths.ts SYSTEM_FILE_DIRS), outside home and the project. */
export function isSystemFile(abs: string, a: Analyzer): boolean {
  if (within(abs, a.opts.home) || within(abs, a.opts.projectDir)) return false;
  if (SYSTEM_FILE_EXCEPTIONS.some((d) => within(abs, d))) return false;
  const cls = classify(abs, a);
  if (cls === 'temp') return false;
  return SYSTEM_FILE_DIRS.some((d) => within(abs, d));
}

/**
 * One file's content destroyed (shredded, emptied, or deleted with privileges):
 * a system file, or (when `home`) any file under home outside the project, is
 * gone for good and not the agent's to lose (deny).
 */
export function destroysFile(a: Analyzer, path: string, cwd: string, segment: string, o: { verb: string; home: boolean; work?: boolean }): void {
  if (overBudget()) return;
  work.units += COST.path + path.length;
  if (path.includes('\u0000') || path === '' || path.startsWith('-')) return;
  const text = path.startsWith('~/') || path === '~' ? a.opts.home + path.slice(1) : path;
  const { abs, globbed } = resolveTarget(text, cwd);
  // In the project: a source file or manifest emptied or shredded (a delete of one is judged as a delete).
  if (o.work !== false && within(abs, a.opts.projectDir)) emptiesWork(a, text, abs, globbed, segment, o.verb);
  if (a.opts.policy.allowedOutsidePaths.some((p) => p.test(abs))) return;
  const real = realTarget(a, abs, false);
  for (const t of real !== abs ? [abs, real] : [abs]) {
    if (isSecretPath(t, a) && within(t, a.opts.home) && !within(t, a.opts.projectDir)) {
      a.hit('rm-credentials', 'deny', segment, `${o.verb} keys or credentials (${t})`);
      return;
    }
    if (historyFile(t, a)) {
      a.hit('destroy-history', 'deny', segment, `${o.verb} ${t}, the record of the commands run on this machine`);
      return;
    }
    const cls = classify(t, a);
    const homeFile = o.home && within(t, a.opts.home) && (cls === 'outside' || cls === 'home');
    if (isSystemFile(t, a) || homeFile) {
      a.hit('destroy-outside-project', 'deny', segment, `${o.verb} ${t}, ${homeFile ? 'a file in the home folder' : 'a file of the operating system'} outside the project`);
      return;
    }
  }
}
