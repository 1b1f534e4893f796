// The delete family: what removes a tree or takes it away. rm and its
// cousins; find with -delete or -exec rm in a root (a name filter narrows
// what it deletes, a type or age filter does not); rsync --delete into a
// folder that must not be emptied; mv of home, the project root or a
// protected folder; symlinks made on the line are remembered so a delete
// through them lands where they point.
import { posix } from 'node:path';
import type { SimpleCommand } from '../lexer';
import { deletesPath, destroysFile, elevated, globToRegExp, linksTo, movesPath, recordSymlink, resolveTarget, within } from '../path-rules';
import type { Rule, RuleContext } from '../rules';
import { isShell } from '../tables/programs';
import { CONTENT_DESTROYERS, GIT_SAMPLE_NAMES, HARNESS_FOLDERS, HOOK_SETTINGS_FILES, EXACT_LOOM_NAMES, LOOM_FILE_NAMES } from '../tables/paths';
import { HOME_SECRET_FILES, ORDINARY_SAMPLE_NAMES, SECRET_SAMPLE_NAMES } from '../tables/secrets';
import { expandLong, hasShortFlag, operands, own, parseOptions } from './args';

/** Programs that delete their operands; `recursive` says which flags make them recurse. */
export const DELETERS: Record<string, { recursive: string; longRecursive: string[]; always?: boolean }> = {
  rm: { recursive: 'rR', longRecursive: ['--recursive'] },
  unlink: { recursive: '', longRecursive: [] },
  rmdir: { recursive: '', longRecursive: [] },
  shred: { recursive: '', longRecursive: [] },
  srm: { recursive: 'rR', longRecursive: ['--recursive'] },
  wipe: { recursive: 'r', longRecursive: [] },
  trash: { recursive: '', longRecursive: [], always: true },
  'trash-put': { recursive: '', longRecursive: [], always: true },
  rimraf: { recursive: '', longRecursive: [], always: true },
  'del-cli': { recursive: '', longRecursive: [], always: true },
  del: { recursive: '', longRecursive: [], always: true },
  trash_cli: { recursive: '', longRecursive: [], always: true },
};

/** Programs run by find -exec over every match: the flag that makes the same program walk the tree itself. */
export const FIND_EXEC_RECURSIVE: Record<string, string> = { chmod: '-R', chown: '-R', chgrp: '-R', setfacl: '-R', chattr: '-R' };

/** find's actions that delete what matched. */
export const FIND_DELETE_ACTIONS = ['-delete'];
export const FIND_EXEC_ACTIONS = ['-exec', '-execdir', '-ok', '-okdir'];
/** find's tests that narrow by name: with one of them (not negated), a find in the project root deletes only what it names. */
export const FIND_NAME_TESTS = ['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname'];
/** find's options that take one argument (so that argument is not a root or a test). */
const FIND_ARG_OPTIONS = new Set(['-maxdepth', '-mindepth', '-newer', '-perm', '-type', '-xtype', '-user', '-group', '-uid', '-gid', '-size', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-links', '-inum', '-samefile', '-fstype', '-used', '-printf', '-fprintf', '-fprint', '-fprint0', '-fls', '-regextype', '-newermt', '-newerct', '-newerat', '-files0-from', '-context', ...FIND_NAME_TESTS]);

/** rsync's long options that delete on the receiving side (abbreviations accepted). */
export const RSYNC_DELETE_OPTIONS = ['--delete', '--delete-before', '--delete-during', '--delete-delay', '--delete-after', '--delete-excluded', '--delete-missing-args', '--del', '--remove-source-files', '--force', '--force-delete', '--max-delete'];
const RSYNC_LONG = [...RSYNC_DELETE_OPTIONS, '--archive', '--recursive', '--verbose', '--compress', '--dry-run', '--exclude', '--exclude-from', '--include', '--include-from', '--filter', '--progress', '--partial', '--checksum', '--update', '--links', '--human-readable', '--stats', '--itemize-changes', '--rsh', '--rsync-path', '--backup', '--backup-dir', '--suffix', '--chmod', '--chown', '--info', '--list-only', '--no-perms', '--perms', '--times', '--owner', '--group', '--devices', '--specials', '--inplace', '--append', '--quiet', '--size-only', '--ignore-existing', '--existing', '--mkpath', '--files-from', '--from0', '--relative', '--one-file-system', '--copy-links', '--safe-links', '--hard-links', '--sparse', '--whole-file', '--temp-dir', '--timeout', '--port', '--password-file', '--log-file', '--bwlimit', '--link-dest', '--compare-dest', '--copy-dest'];
const RSYNC_WITH_ARG = ['--exclude', '--exclude-from', '--include', '--include-from', '--filter', '--rsh', '--rsync-path', '--backup-dir', '--suffix', '--chmod', '--chown', '--info', '--files-from', '--temp-dir', '--timeout', '--port', '--password-file', '--log-file', '--bwlimit', '--link-dest', '--compare-dest', '--copy-dest', '--max-delete'];

const rm: Rule = (r) => {
  const spec = own(DELETERS, r.name);
  if (!spec) return;
  if (r.name === 'del' && r.argv.some((a) => /^\/[sqSQ]$/.test(a))) return; // cmd.exe del: the Windows family reads it
  const recursive = spec.always || (spec.recursive !== '' && hasShortFlag(r.argv, spec.recursive, spec.longRecursive.flatMap((l) => [l, ...prefixesOf(l)])));
  // shred -n N / -s SIZE (also clustered: -zun 3) take a value.
  // An empty operand names no file (rm and the rest refuse it: "cannot remove ''"); it is not the current folder.
  const targets = (CONTENT_DESTROYERS.includes(r.name) ? shortValueOperands(r.argv, 'ns', ['--iterations', '--size', '--random-source']) : operands(r.argv)).filter((t) => t !== '');
  for (const t of targets) deletesPath(r.analyzer, t, r.cwd, r.segment, { recursive });
  // Overwritten in place, a file in home or the system is gone; with privileges, so is a deleted system file.
  if (CONTENT_DESTROYERS.includes(r.name)) for (const t of targets) destroysFile(r.analyzer, t, r.cwd, r.segment, { verb: `${r.name} overwrites`, home: true });
  else if (!recursive && elevated(r.via)) for (const t of targets) destroysFile(r.analyzer, t, r.cwd, r.segment, { verb: 'deletes (with privileges)', home: false, work: false });
};

/** Operands of a command whose short options in `letters` take a value (glued, or the next word when last in a cluster). */
function shortValueOperands(argv: string[], letters: string, longWithArg: string[]): string[] {
  const out: string[] = [];
  let flags = true;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if (flags && a === '--') flags = false;
    else if (flags && a.startsWith('--')) {
      if (longWithArg.includes(a)) k++;
    } else if (flags && a.startsWith('-') && a.length > 1) {
      if (letters.includes(a[a.length - 1]) && !/\d/.test(a)) k++;
    } else out.push(a);
  }
  return out;
}

/** A size that leaves nothing of the file: 0, 0K, `<0`, `/0`... */
const EMPTY_SIZE = /^[<%/]?0+(?:[KMGTPEZY]i?B?|[kKMGTPEZY]B?)?$/;

/** truncate to size 0 (or to the size of /dev/null) empties the file: a system file emptied is a deny. */
const truncate: Rule = (r) => {
  const files: string[] = [];
  let empties = false;
  let flags = true;
  for (let k = 1; k < r.argv.length; k++) {
    const a = r.argv[k];
    if (flags && a === '--') flags = false;
    else if (flags && (a === '-s' || a === '--size' || a === '-r' || a === '--reference')) {
      const v = r.argv[++k] ?? '';
      if (a === '-r' || a === '--reference' ? v === '/dev/null' : EMPTY_SIZE.test(v)) empties = true;
    } else if (flags && (a.startsWith('--size=') || a.startsWith('--reference='))) {
      const v = a.slice(a.indexOf('=') + 1);
      if (a.startsWith('--reference=') ? v === '/dev/null' : EMPTY_SIZE.test(v)) empties = true;
    } else if (flags && /^-[co]*s./.test(a)) {
      if (EMPTY_SIZE.test(a.slice(a.indexOf('s') + 1))) empties = true;
    } else if (flags && /^-[co]*s$/.test(a)) {
      if (EMPTY_SIZE.test(r.argv[++k] ?? '')) empties = true;
    } else if (flags && a.startsWith('-') && a.length > 1) continue;
    else files.push(a);
  }
  if (empties) for (const f of files) destroysFile(r.analyzer, f, r.cwd, r.segment, { verb: 'truncate empties', home: false });
};

truncate.names = ['truncate', 'gtruncate'];

function prefixesOf(long: string): string[] {
  const out: string[] = [];
  for (let n = 3; n < long.length; n++) out.push(long.slice(0, n));
  return out;
}

/** The first secret file name (tables/secrets.ts) a find's name patterns pick, when none of them also matches ordinary files. */
function secretNameOf(patterns: { text: string; regex: boolean }[]): string | undefined {
  for (const p of patterns) {
    if (p.regex) continue;
    const hit = secretNameOfGlob(p.text);
    if (hit) return hit;
  }
  return undefined;
}

/** Per glob, once: find's name patterns repeat across commands (`-name '*.ts'`) and each test walks two tables. */
const secretNameMemo = new Map<string, string | null>();
function secretNameOfGlob(glob: string): string | undefined {
  let hit = secretNameMemo.get(glob);
  if (hit === undefined) {
    if (secretNameMemo.size > 256) secretNameMemo.clear();
    hit = patternMatchesAny(glob, ORDINARY_SAMPLE_NAMES, false) ? null : (SECRET_SAMPLE_NAMES.find((n) => patternMatchesAny(glob, [n], false)) ?? null);
    secretNameMemo.set(glob, hit);
  }
  return hit ?? undefined;
}

/** Whether a find name pattern (glob) can match any of `names`. */
function patternMatchesAny(pattern: string, names: readonly string[], regex: boolean): boolean {
  if (regex) {
    // -regex matches the whole path; a pattern with .* or a protected word may reach them.
    return /\.\*|\.\+/.test(pattern) || names.some((n) => pattern.includes(n));
  }
  const base = pattern.includes('/') ? pattern.slice(pattern.lastIndexOf('/') + 1) || '*' : pattern;
  const re = globToRegExp('/' + base);
  if (!re) return true;
  // find -name matches a leading dot with * (unlike bash), so try the names without the dot rule too.
  return names.some((n) => re.test('/' + n) || re.test('/' + n.replace(/^\./, '')) && base.startsWith('*'));
}

interface FindShape {
  roots: string[];
  /** Every alternative is narrowed by a positive name test. */
  named: boolean;
  /** Name patterns given. */
  patterns: { text: string; regex: boolean }[];
  /** The alternatives (split on -o) that carry the action: each test must match for a file to be acted on. */
  groups: { text: string; regex: boolean; path: boolean; icase?: boolean; negated?: boolean }[][];
  /** `-type d -empty` with no alternative: only empty folders are acted on (nothing with content is lost). */
  emptyFoldersOnly: boolean;
}

/** Paths (relative to a find root) of loom's files and of git history, for -path / -wholename tests. */
const LOOM_SAMPLE_PATHS = ['.loom', '.loom/compliance/ledger.db', '.loom/compliance/history.json', '.loom/policy.json', '.claude/settings.json', '.codex/hooks.json'];
const HOOK_SAMPLE_PATHS = ['.claude/settings.local.json', '.claude/hooks/guard.sh', '.gemini/settings.json', '.cursor/hooks.json', '.qwen/settings.json', '.factory/settings.json', '.github/hooks/hooks.json'];
const GIT_SAMPLE_PATHS = ['.git', '.git/objects/4b/825dc642cb6eb9a060e54bf8d69288fbee4904', '.git/objects/pack/pack-4b825dc6.pack', '.git/refs/heads/main', '.git/HEAD', '.git/packed-refs', '.git/index', '.git/logs/HEAD'];

/** find -path glob: `*` and `?` match `/` too. */
function findPathRegExp(glob: string, icase: boolean): RegExp | undefined {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*') re += re.endsWith('.*') ? '' : '.*';
    else if (c === '?') re += '.';
    else if (c === '[') {
      const end = glob.indexOf(']', i + 2);
      if (end < 0) return undefined;
      re += '[' + glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
      i = end;
    } else if (c === '\\' && i + 1 < glob.length) re += glob[++i].replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else re += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp('^' + re + '$', icase ? 'i' : '');
  } catch {
    return undefined;
  }
}

/** Whether some alternative of the find can act on one of the sample files under root (every test of it matching). */
function groupsReach(shape: FindShape, root: string, names: readonly string[], paths: readonly string[]): boolean {
  const full = paths.map((p) => (root.endsWith('/') ? root + p : `${root}/${p}`));
  // A negated path test (`-not -path './.git/*'`) keeps out every sample it matches.
  const kept = (g: FindShape['groups'][number]) =>
    g.filter((p) => p.negated).every((p) => {
      const re = p.regex ? safeRegExp(p.text, p.icase) : findPathRegExp(p.text, !!p.icase);
      return !re || full.some((f) => !re.test(f));
    });
  if (!shape.named) return shape.groups.length === 0 || shape.groups.some(kept);
  return shape.groups.some((g) =>
    kept(g) &&
    g.filter((p) => !p.negated).every((p) => {
      if (p.regex) {
        // -regex matches the whole path. A pattern with a nested quantifier is not run (linear time): judged by its words.
        if (/\([^)]*[*+?}][^)]*\)[*+?{]/.test(p.text) || p.text.length > 200) return patternMatchesAny(p.text, names, true);
        let re: RegExp | undefined;
        try {
          re = new RegExp('^(?:' + p.text + ')$', p.icase ? 'i' : '');
        } catch {
          return true;
        }
        return full.some((f) => re!.test(f));
      }
      if (!p.path) return patternMatchesAny(p.text, names, false);
      const re = findPathRegExp(p.text, !!p.icase);
      return !re || full.some((f) => re.test(f));
    }),
  );
}

function safeRegExp(text: string, icase?: boolean): RegExp | undefined {
  if (/\([^)]*[*+?}][^)]*\)[*+?{]/.test(text) || text.length > 200) return undefined;
  try {
    return new RegExp('^(?:' + text + ')$', icase ? 'i' : '');
  } catch {
    return undefined;
  }
}

/** Source files every kind of project holds at its root or in src/: a delete whose name filter picks them is not a clean-up. */
const SOURCE_SAMPLE_PATHS = ['src/index.ts', 'src/main.py', 'src/app.js', 'src/lib.rs', 'main.go', 'src/Main.java', 'src/main.c', 'src/App.tsx', 'lib/app.rb', 'src/index.php', 'package.json', 'README.md'];

/** Files a find name filter is tried against before {} is judged as one of them. */
const PROTECTED_SAMPLE_PATHS = [...LOOM_SAMPLE_PATHS.slice(1), ...HOOK_SAMPLE_PATHS, ...GIT_SAMPLE_PATHS.slice(1)];

export function findShape(argv: string[]): FindShape {
  const roots: string[] = [];
  let k = 1;
  while (k < argv.length && /^-[HLPDO]/.test(argv[k]) && argv[k].length <= 3) k++;
  for (; k < argv.length; k++) {
    const a = argv[k];
    if ((a.startsWith('-') && a.length > 1) || a === '(' || a === '!' || a === '\\(' || a === ')') break;
    roots.push(a);
  }
  if (roots.length === 0) roots.push('.');
  const patterns: { text: string; regex: boolean }[] = [];
  const groups: { tests: { text: string; regex: boolean; path: boolean; icase?: boolean; negated?: boolean }[]; acts: boolean }[] = [{ tests: [], acts: false }];
  let groupNamed = false;
  let allNamed = true;
  let negate = false;
  for (; k < argv.length; k++) {
    const a = argv[k];
    if (FIND_EXEC_ACTIONS.includes(a)) {
      groups[groups.length - 1].acts = true;
      while (k < argv.length && argv[k] !== ';' && argv[k] !== '+' && argv[k] !== '\\;') k++;
      continue;
    }
    if (FIND_DELETE_ACTIONS.includes(a)) groups[groups.length - 1].acts = true;
    if (a === '!' || a === '-not') {
      negate = true;
      continue;
    }
    if (a === '-o' || a === '-or') {
      groups.push({ tests: [], acts: false });
      allNamed = allNamed && groupNamed;
      groupNamed = false;
      continue;
    }
    if (FIND_NAME_TESTS.includes(a)) {
      const v = argv[k + 1] ?? '*';
      if (!negate) {
        groupNamed = true;
        patterns.push({ text: v, regex: a.endsWith('regex') });
        groups[groups.length - 1].tests.push({ text: v, regex: a.endsWith('regex'), path: /path|wholename/.test(a), icase: /^-i/.test(a) });
      } else if (/path|wholename/.test(a)) {
        // `-not -path './.git/*'`: what it excludes is not reached (a negated name test is kept out: it narrows too little to count).
        groups[groups.length - 1].tests.push({ text: v, regex: a.endsWith('regex'), path: true, icase: /^-i/.test(a), negated: true });
      }
      negate = false;
      k++;
      continue;
    }
    if (FIND_ARG_OPTIONS.has(a)) k++;
    negate = false;
  }
  allNamed = allNamed && groupNamed;
  // Only the alternatives that carry the action act (`-path ./.git -prune -o -name x -delete`).
  const acting = groups.filter((g) => g.acts);
  const counted = acting.length ? acting : groups;
  const named = acting.length ? acting.every((g) => g.tests.some((t) => !t.negated)) : allNamed && patterns.length > 0;
  const emptyFoldersOnly = groups.length === 1 && argv.includes('-empty') && argv.some((x, i) => x === '-type' && argv[i + 1] === 'd');
  return { roots, named, patterns, groups: counted.map((g) => g.tests), emptyFoldersOnly };
}

/**
 * What a find that deletes does to each root: a root outside the project is
 * judged as a recursive delete of it; inside the project a name filter keeps
 * the root itself, unless the names can reach loom's files or git history.
 */
export function judgeFindDeletes(r: RuleContext, argv: string[], how: string): void {
  const shape = findShape(argv);
  for (const root of shape.roots) {
    if (shape.emptyFoldersOnly) {
      // Only empty folders go: nothing with content is lost, but git's own empty folders (refs/tags, objects/info) are its structure.
      const { abs } = resolveTarget(root.startsWith('~') ? r.opts.home + root.slice(1) : root, r.cwd);
      const reachesGit = within(posix.join(r.opts.projectDir, '.git'), abs) || within(abs, posix.join(r.opts.projectDir, '.git')) || /\/\.git(?:\/|$)/.test(abs);
      if (reachesGit && groupsReach(shape, root, GIT_SAMPLE_NAMES, GIT_SAMPLE_PATHS.slice(1))) r.analyzer.hit('git-history-destroy', 'deny', r.segment, `${how} can reach the repository's own folders under ${root}`);
      continue;
    }
    const filtered = shape.named;
    deletesPath(r.analyzer, filtered ? posix.join(root, '*') : root, r.cwd, r.segment, { recursive: true, filtered });
    const { abs } = resolveTarget(root.startsWith('~') ? r.opts.home + root.slice(1) : root, r.cwd);
    if (!within(r.opts.projectDir, abs) && !within(abs, r.opts.projectDir)) continue;
    const exact = shape.groups.some((g) => g.some((p) => !p.negated && !p.path && !p.regex && EXACT_LOOM_NAMES.includes(p.text)));
    const loom = exact || groupsReach(shape, root, LOOM_FILE_NAMES, LOOM_SAMPLE_PATHS);
    const git = groupsReach(shape, root, GIT_SAMPLE_NAMES, GIT_SAMPLE_PATHS);
    const reachesLoom = within(posix.join(r.opts.projectDir, '.loom'), abs) || within(abs, posix.join(r.opts.projectDir, '.loom'));
    if (loom && reachesLoom) r.analyzer.hit('modify-loom', 'deny', r.segment, `${how} can reach loom's own files under ${root}`);
    else if (loom && HOOK_SETTINGS_FILES.some((h) => within(posix.join(r.opts.projectDir, h), abs)) && shape.named) r.analyzer.hit('modify-hook-settings', 'deny', r.segment, `${how} can reach the harness hook settings under ${root}`);
    // -name .opencode: a harness settings folder matched whole, with its hooks in it.
    const folder = shape.named ? HARNESS_FOLDERS.find((f) => within(posix.join(r.opts.projectDir, f), abs) && groupsReach(shape, root, [posix.basename(f)], [f])) : undefined;
    if (folder) r.analyzer.hit('modify-hook-settings', 'deny', r.segment, `${how} can reach the harness settings folder ${folder}`);
    const reachesGit = within(posix.join(r.opts.projectDir, '.git'), abs) || /\/\.git(?:\/|$)/.test(abs);
    if (git && reachesGit) r.analyzer.hit('git-history-destroy', 'deny', r.segment, `${how} can reach the repository history under ${root}`);
    if (!shape.named && abs === r.opts.projectDir) r.analyzer.hit('rm-recursive-project-root', 'deny', r.segment, `${how} deletes everything in the project root that its non-name filters match (${root})`);
    // A name filter that picks the project's own source files (`-name '*.ts'` from the root) deletes its work, not build output.
    else if (shape.named && within(r.opts.projectDir, abs) && SOURCE_SAMPLE_PATHS.some((p) => groupsReach(shape, root, [posix.basename(p)], [abs === r.opts.projectDir ? p : posix.join(posix.relative(abs, r.opts.projectDir) || '.', p)]))) r.analyzer.hit('rm-recursive-project-root', 'deny', r.segment, `${how} deletes the project's source files under ${root}`);
  }
}

/** Secret files under a home folder that a find can reach (relative to it): the table's, and the private SSH keys. */
const HOME_SECRET_SAMPLES = [...HOME_SECRET_FILES, '.ssh/id_rsa', '.ssh/id_ed25519', '.ssh/id_ecdsa', '.gnupg/private-keys-v1.d/key.key'];

/** A deleter in a shell script that names its positional arguments: `sh -c 'rm -- "$1"' _ {}` deletes each match. */
const DELETES_ARGS = new RegExp(`(?:^|[;&|({\\s])(?:${Object.keys(DELETERS).join('|')})\\b[^;&|]*\\$(?:\\{?[0-9@*]|@)`);

/** A shell run with a script (`sh -c SCRIPT ARG0 ARGS`) whose script deletes the arguments it is given. */
function shellDeletesItsArgs(argv: string[]): boolean {
  if (!isShell(posix.basename(argv[0] ?? ''))) return false;
  const c = argv.findIndex((a, i) => i > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(a));
  const script = c > 0 ? argv[c + 1] : undefined;
  return script !== undefined && DELETES_ARGS.test(script.slice(0, 4096));
}

const find: Rule = (r) => {
  if (r.name !== 'find' && r.name !== 'gfind') return;
  const deletes = r.argv.some((a) => FIND_DELETE_ACTIONS.includes(a));
  if (deletes) judgeFindDeletes(r, r.argv, 'find -delete');
  const { roots, named, patterns } = findShape(r.argv);
  // A name filter that picks secrets (`-name '*.pem'`, `-name 'id_*'`, not `*.json`): {} stands for such a file.
  const secretMatch = named ? secretNameOf(patterns) : undefined;
  // A match of the name filter as a file (`-name '*.rb'` gives `x.rb`): what the command does to such a file is judged.
  const plain = patterns.find((p) => !p.regex && !p.text.includes('/'));
  const sampleMatch = plain ? plain.text.replace(/\[[^\]]*\]/g, 'x').replace(/[*?]/g, 'x') || 'match' : 'match';
  // -exec / -execdir / -ok: analyze the command with {} standing for a match under each root.
  for (let e = 0; e < r.argv.length; e++) {
    if (!FIND_EXEC_ACTIONS.includes(r.argv[e])) continue;
    let end = e + 1;
    while (end < r.argv.length && r.argv[end] !== ';' && r.argv[end] !== '+' && r.argv[end] !== '\\;') end++;
    const inner = r.words.slice(e + 1, end);
    const innerName = inner[0] ? posix.basename(inner[0].text) : '';
    if ((own(DELETERS, innerName) || shellDeletesItsArgs(inner.map((w) => w.text))) && !deletes) judgeFindDeletes(r, r.argv, `find ${r.argv[e]} ${innerName}`);
    for (const root of roots) {
      // A name filter that can pick one of loom's files, a hook setting or git's history: {} stands for that file too.
      const shape = findShape(r.argv);
      // Without one, {} stands for every file under the root: inside .git or .loom, one of theirs.
      const rootAbs = resolveTarget(root.startsWith('~') ? r.opts.home + root.slice(1) : root, r.cwd).abs;
      // The protected files under this root, by their path from it (`find .claude -name settings.json` reaches .claude/settings.json).
      const under = PROTECTED_SAMPLE_PATHS.map((p) => posix.join(r.opts.projectDir, p)).filter((p) => within(p, rootAbs) && p !== rootAbs && within(rootAbs, r.opts.projectDir));
      // Without a name filter, from the project root too: `find . -type f -exec truncate -s0 {} +` empties loom's files and the hook settings with the rest.
      const guardedAbs = own(DELETERS, innerName) ? undefined : named ? under.find((p) => groupsReach(shape, root, [posix.basename(p)], [posix.relative(rootAbs, p)])) : under[0];
      const guarded = guardedAbs && posix.relative(r.cwd, guardedAbs);
      if (guarded) {
        const words = inner.map((w) => ({ ...w, text: w.text.split('{}').join(guarded) }));
        const c4: SimpleCommand = { ...r.cmd, words, assignments: [], redirects: [] };
        r.analyzer.analyzeCommand(c4, r.depth + 1, `${r.via} > find ${r.argv[e]} (a match that is ${guarded})`, r.cwd, [c4], r.vars);
      }
      // A secret file under the root that the filters can reach (`find ~/.ssh -type f -exec cat {} +`,
      // `find ~ -name credentials -path '*aws*' -exec cat {} \;`): {} stands for it too.
      const secretAbs = own(DELETERS, innerName) ? undefined : HOME_SECRET_SAMPLES.map((p) => posix.join(r.opts.home, p)).find((p) => within(p, rootAbs) && p !== rootAbs && groupsReach(shape, root, [posix.basename(p)], [posix.relative(rootAbs, p)]));
      if (secretAbs) {
        const words = inner.map((w) => ({ ...w, text: w.text.split('{}').join(secretAbs) }));
        const c5: SimpleCommand = { ...r.cmd, words, assignments: [], redirects: [] };
        r.analyzer.analyzeCommand(c5, r.depth + 1, `${r.via} > find ${r.argv[e]} (a match that is ${secretAbs})`, r.cwd, [c5], r.vars);
      }
      let replaced = inner.map((w) => ({ ...w, text: w.text.split('{}').join(named ? posix.join(root, sampleMatch) : root) }));
      // Without a name filter the command reaches everything under the root: `find / -exec chmod 777 {} +` is `chmod -R 777 /`.
      const flag = own(FIND_EXEC_RECURSIVE, innerName);
      if (flag && !named && replaced.length) replaced = [replaced[0], { ...replaced[0], text: flag, dynamic: false, quoted: false, glob: false, subs: undefined }, ...replaced.slice(1)];
      if (replaced.length && !own(DELETERS, innerName)) {
        const c2: SimpleCommand = { ...r.cmd, words: replaced, assignments: [], redirects: [] };
        r.analyzer.analyzeCommand(c2, r.depth + 1, `${r.via} > find ${r.argv[e]}`, r.cwd, [c2], r.vars);
        if (secretMatch) {
          const words = inner.map((w) => ({ ...w, text: w.text.split('{}').join(posix.join(root, secretMatch)) }));
          const c3: SimpleCommand = { ...r.cmd, words, assignments: [], redirects: [] };
          r.analyzer.analyzeCommand(c3, r.depth + 1, `${r.via} > find ${r.argv[e]} (a match named like a secret)`, r.cwd, [c3], r.vars);
        }
      }
    }
    e = end;
  }
};

const rsync: Rule = (r) => {
  if (r.name !== 'rsync') return;
  const p = parseOptions(r.argv, 1, { long: RSYNC_LONG, longWithArg: RSYNC_WITH_ARG, shortWithArg: 'eBfT' });
  const deleting = [...p.long.keys()].find((k) => k.startsWith('--del') || k === '--remove-source-files');
  if (!deleting) return;
  const ops = p.operands;
  if (ops.length < 2) return;
  const dest = ops[ops.length - 1];
  if (deleting === '--remove-source-files') {
    for (const s of ops.slice(0, -1)) if (!/^[^/]*:/.test(s)) deletesPath(r.analyzer, s, r.cwd, r.segment, { recursive: true, verb: 'deletes' });
    return;
  }
  if (/^[^/]*:/.test(dest) && !dest.startsWith('./') && !dest.startsWith('/')) return; // remote destination
  deletesPath(r.analyzer, dest, r.cwd, r.segment, { recursive: true, verb: 'deletes (rsync --delete) in' });
};

/** mv takes its sources away: moving home, the project root or a protected folder is a delete of it. */
const mv: Rule = (r) => {
  if (r.name !== 'mv' && r.name !== 'gmv') return;
  const p = parseOptions(r.argv, 1, { long: ['--target-directory', '--backup', '--force', '--interactive', '--no-clobber', '--suffix', '--update', '--verbose', '--strip-trailing-slashes', '--no-target-directory', '--exchange'], longWithArg: ['--target-directory', '--suffix'], shortWithArg: 'tS' });
  const target = p.short.get('t') ?? p.long.get('--target-directory');
  const sources = target ? p.operands : p.operands.slice(0, -1);
  const dest = target ?? p.operands[p.operands.length - 1];
  for (const s of sources) movesPath(r.analyzer, s, dest, r.cwd, r.segment);
};

/**
 * `ln -s TARGET LINK`: remembered so a later delete through LINK lands on TARGET. A hard link (`ln .env
 * env.txt`) is the same file under another name: remembered too, so reading or writing it is judged as the target.
 */
const ln: Rule = (r) => {
  if (r.name !== 'ln') return;
  const ops = operands(r.argv, 1, ['-t', '-S', '--suffix', '--target-directory']);
  if (ops.length < 1) return;
  const target = ops[0];
  const link = ops.length >= 2 ? ops[ops.length - 1] : posix.basename(target);
  const t = resolveTarget(target.startsWith('~') ? r.opts.home + target.slice(1) : target, r.cwd).abs;
  const l = resolveTarget(link, r.cwd).abs;
  recordSymlink(r.analyzer, l, t);
  for (const src of ops.length >= 2 ? ops.slice(0, -1) : ops) linksTo(r.analyzer, resolveTarget(src.startsWith('~') ? r.opts.home + src.slice(1) : src, r.cwd).abs, r.segment);
};

/** cp -s / -rs makes links instead of copies: a link tree of .loom is a way to write into it. */
const cpLinks: Rule = (r) => {
  if (!hasShortFlag(r.argv, 's', ['--symbolic-link'])) return;
  const ops = operands(r.argv, 1, ['-t', '--target-directory', '-S', '--suffix']);
  for (const src of ops.slice(0, -1)) linksTo(r.analyzer, resolveTarget(src.startsWith('~') ? r.opts.home + src.slice(1) : src, r.cwd).abs, r.segment);
};
cpLinks.names = ['cp', 'gcp'];

rm.names = Object.keys(DELETERS);
find.names = ['find', 'gfind'];
rsync.names = ['rsync'];
mv.names = ['mv', 'gmv'];
ln.names = ['ln'];

/**
 * fd (fdfind) runs a command on every match: `fd PATTERN ROOT -x CMD` / `-X CMD`. A pattern that matches
 * everything (none, `.`, `^`, `''`) with a delete reaches the whole root, as find without a name filter does;
 * the command is judged with {} (or, for -X, the end of its words) standing for the root.
 */
const FD_WITH_ARG = ['-e', '--extension', '-t', '--type', '-d', '--max-depth', '--min-depth', '--exact-depth', '-E', '--exclude', '-S', '--size', '--changed-within', '--changed-before', '-o', '--owner', '-c', '--color', '-j', '--threads', '--max-results', '--base-directory', '--path-separator', '--search-path', '--ignore-file', '--format', '--and'];
const fd: Rule = (r) => {
  if (r.name !== 'fd' && r.name !== 'fdfind') return;
  const at = r.argv.findIndex((a, i) => i > 0 && (a === '-x' || a === '--exec' || a === '-X' || a === '--exec-batch'));
  if (at < 0) return;
  const ops = operands(r.argv.slice(0, at), 1, FD_WITH_ARG);
  const searchPath = r.argv.findIndex((a) => a === '--search-path');
  const roots = [...ops.slice(1), ...(searchPath > 0 ? [r.argv[searchPath + 1]] : [])].filter(Boolean);
  const pattern = ops[0] ?? '';
  // -e EXT narrows by name as find -name does; -t f does not (every file is one).
  const byExtension = r.argv.slice(0, at).some((a) => a === '-e' || a === '--extension' || a.startsWith('--extension='));
  const everything = !byExtension && (pattern === '' || /^(?:\.|\^|\.\*|\^\.\*|\.\+)$/.test(pattern) || (r.argv.includes('--glob') && pattern === '*'));
  const inner = r.words.slice(at + 1).filter((w) => w.text !== ';');
  // fd walks the whole tree: a delete run on each match deletes under the root as `rm -r` would (-t f: every file in it).
  if (inner[0] && own(DELETERS, posix.basename(inner[0].text))) {
    for (const root of roots.length ? roots : ['.']) deletesPath(r.analyzer, everything ? root : posix.join(root, '*'), r.cwd, r.segment, { recursive: true, filtered: !everything });
  }
  for (const root of roots.length ? roots : ['.']) {
    const target = everything ? root : posix.join(root, 'match');
    const words = inner.some((w) => w.text.includes('{}')) ? inner.map((w) => ({ ...w, text: w.text.split('{}').join(target) })) : [...inner, { ...inner[0], text: target, dynamic: false, quoted: true, glob: false, subs: undefined }];
    if (!words.length) continue;
    const c2: SimpleCommand = { ...r.cmd, words, assignments: [], redirects: [] };
    r.analyzer.analyzeCommand(c2, r.depth + 1, `${r.via} > ${r.name} ${r.argv[at]}`, r.cwd, [c2], r.vars);
  }
};

/**
 * `git ls-files` with no pathspec that narrows it (words after the subcommand: options, `.`, `:/`): every
 * tracked file of the project. `--others` lists untracked ones, which are the project's too; `--deleted` and
 * `--ignored` list nothing of its work.
 */
export function listsEveryTrackedFile(words: readonly string[]): boolean {
  if (posix.basename(words[0] ?? '') !== 'git') return false;
  const at = words.indexOf('ls-files');
  // Files already deleted, or the ignored ones (build output, as `git clean -X` removes): not the project's work.
  if (words.some((x) => /^(?:-d|--deleted|-i|--ignored|-k|--killed)$/.test(x))) return false;
  return at > 0 && words.slice(at + 1).every((x) => x.startsWith('-') || x === '.' || x === ':/' || x === './' || x === '--');
}

/** Programs that destroy the files they are given, with the options that take a value (so the files are found). */
export const FILE_DESTROYERS: Record<string, string[]> = {
  rm: [],
  unlink: [],
  shred: ['-n', '--iterations', '-s', '--size', '--random-source'],
  truncate: ['-s', '--size', '-r', '--reference'],
  srm: [],
  wipe: [],
};

/** `shred -u $(git ls-files)`, `truncate -s0 \`git ls-files\``: every tracked file of the project destroyed. */
const destroysTrackedFiles: Rule = (r) => {
  // tee (not appending) empties every file it is given before it writes what it reads.
  const teeTruncates = r.name === 'tee' && !r.argv.some((a) => /^-[a-zA-Z]*a/.test(a) || a === '--append');
  if (!own(FILE_DESTROYERS, r.name) && !teeTruncates) return;
  for (const w of r.words.slice(1)) for (const sub of w.subs ?? []) {
    if (sub.src.includes('|') || sub.src.includes(';') || sub.src.includes('&')) continue;
    if (listsEveryTrackedFile(sub.src.trim().split(/\s+/))) {
      r.analyzer.hit('rm-recursive-project-root', 'deny', r.segment, `${r.name} destroys every tracked file of the project (\`$(${sub.src.trim().slice(0, 40)})\`)`);
      return;
    }
  }
};
destroysTrackedFiles.names = [...Object.keys(FILE_DESTROYERS), 'tee'];

export const DELETE_RULES: Rule[] = [ln, cpLinks, rm, truncate, find, fd, rsync, mv, destroysTrackedFiles];
export { expandLong };
