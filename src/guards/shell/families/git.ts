// The git family, read as git parses a command line: global options before
// the subcommand (-C dir, -c k=v, --git-dir ...), then the subcommand's
// options expanded from any unambiguous prefix against git's own lists
// (tables/git.ts), short flags unclustered (-fu, -df). Then: force pushes,
// deleting or mirroring protected branches, discarding work, deleting
// history (reflog expire, gc --prune=now, filter-branch, update-ref -d),
// and reading secrets out of history (git show HEAD:.env).
import { plainStoredCommand } from '../stored-commands';
import { posix } from 'node:path';
import { carriesFolder, deletesPath, movesPath, readsPath, resolveTarget, within } from '../path-rules';
import { deletesWork } from '../project-work';
import type { Rule, RuleContext } from '../rules';
import { FORGE_API_FIELDS, FORGE_API_RULES, FORGE_API_WITH_ARG, FORGE_COMMANDS, FORGE_GRAPHQL_RULES, GIT_CONFIG_READS, GIT_EXPIRE_NOW, GIT_FILE_NAMES, GIT_GLOBAL_WITH_ARG, GIT_HEAD_REVISION, GIT_OPTIONS, GIT_PUSH_PLUMBING, GIT_WORKTREE_OVERWRITES, gitConfigRunsCommand, everydayGitCommand, gitOptionNames, BUILD_OUTPUT_DIRS, HOOK_MANAGER_DIRS, keyMatches } from '../tables/git';
import { own, parseOptions, type ParsedOptions } from './args';
import { quoteArgv } from '../quote-argv';

export function isProtectedBranch(r: Pick<RuleContext, 'opts'>, branch: string): boolean {
  const b = branch.replace(/^refs\/heads\//, '').replace(/^refs\/remotes\/[^/]+\//, '');
  return b !== '' && r.opts.policy.protectedBranches.some((p) => p.test(b));
}

export interface GitCall {
  sub: string;
  /** Index of the subcommand in argv. */
  at: number;
  /** Folder git runs in (after -C). */
  cwd: string;
  opts: ParsedOptions;
  has: (...names: string[]) => boolean;
  value: (name: string) => string | undefined;
  /** Config given on the command (`-c key=value`), by gitConfigKey; the last value of a key wins, as in git. */
  config: Map<string, string>;
}

/** Reads `git [global options] <sub> [options] [operands]`. */
export function parseGit(argv: string[], cwd: string): GitCall | undefined {
  let k = 1;
  let dir = cwd;
  const config = new Map<string, string>();
  for (;;) {
    // A word only known at run time where global options go (`git $GIT_OPTS reset --hard`), before a known subcommand:
    // options or nothing at all (an unset variable), so the subcommand after it is what runs.
    if (k + 1 < argv.length && /[\u0000$]/.test(argv[k]) && !own(GIT_OPTIONS, argv[k]) && own(GIT_OPTIONS, argv[k + 1])) {
      k++;
      continue;
    }
    if (!(k < argv.length && argv[k].startsWith('-'))) break;
    const a = argv[k];
    const kv = a === '-c' ? argv[k + 1] : a.startsWith('-c') && a.length > 2 ? a.slice(2) : undefined;
    if (kv !== undefined) config.set(gitConfigKey(kv.includes('=') ? kv.slice(0, kv.indexOf('=')) : kv), kv.includes('=') ? kv.slice(kv.indexOf('=') + 1) : 'true');
    if (GIT_GLOBAL_WITH_ARG.includes(a)) {
      if (a === '-C' && argv[k + 1]) dir = posix.resolve(dir, argv[k + 1]);
      k += 2;
      continue;
    }
    if (a.startsWith('-C') && a.length > 2) dir = posix.resolve(dir, a.slice(2));
    k++;
  }
  const sub = argv[k];
  if (!sub) return undefined;
  const spec = own(GIT_OPTIONS, sub);
  const opts = parseOptions(argv, k + 1, spec ? { long: gitOptionNames(sub), longWithArg: spec.longWithArg, shortWithArg: spec.shortWithArg } : { long: [] });
  const has = (...names: string[]) => names.some((n) => (n.startsWith('--') ? opts.long.has(n) : opts.short.has(n.slice(1))));
  const value = (name: string) => (name.startsWith('--') ? opts.long.get(name) : opts.short.get(name.slice(1)));
  return { sub, at: k, cwd: dir, opts, has, value, config };
}

/** A sequence editor command that drops todo lines: s/pick/drop/, /pick/d, a line range deleted, the file emptied or overwritten. */
const DROPPING_EDITOR = /\bs(.)\^?(?:pick|p)\b[^\n]{0,200}?\1(?:drop|d)\b|\/(?:\^?pick|\^p)[^/]*\/d\b|\b\d*,?\$?d\b['"]?\s|(?:^|[;&|]\s*)(?:true\s*>|:\s*>|echo\s+(?:-n\s+)?(?:''|"")?\s*>|printf\s+(?:''|"")\s*>|truncate\b)|\bsed\b[^|;]*\bd['"]|\bperl\b[^|;]*s\/pick\/drop/;

function push(r: RuleContext, g: GitCall): void {
  if (g.has('-n', '--dry-run')) return;
  const longs = [...g.opts.long.keys()];
  // --force-with-lease only overwrites what the pusher has seen: everyday on a feature branch, still a rewrite of a protected one.
  const lease = g.has('--force-with-lease', '--force-if-includes') && !g.has('--force', '-f');
  const force = g.has('--force', '-f', '--force-with-lease', '--force-if-includes') || longs.some((l) => l.length >= 5 && '--force'.startsWith(l));
  const mirror = g.has('--mirror');
  const pos = g.opts.operands;
  const refs = pos.slice(1);
  // send-pack with no ref (and without --stdin) updates every ref both sides have: a matching push.
  const wide = g.has('--all', '--branches') || (g.sub !== 'push' && refs.length === 0 && !g.has('--stdin'));
  if (g.sub !== 'push' && g.has('--stdin') && g.has('--force')) r.analyzer.hit('git-force-push', 'ask', r.segment, `git ${g.sub} --force updates refs only known when it reads its input`);
  const deleting = g.has('--delete', '-d');
  const prune = g.has('--prune');
  const globbed = refs.some((ref) => ref.includes('*'));
  const targets = refs.length
    ? refs.map((ref) => {
        const s = ref.replace(/^\+/, '');
        const dst = s.includes(':') ? s.slice(s.indexOf(':') + 1) : s;
        const b = dst === 'HEAD' || dst === '' ? (s.startsWith(':') ? s.slice(1) : r.opts.currentBranch ?? '') : dst;
        return b.replace(/^refs\/heads\//, '');
      })
    : [r.opts.currentBranch ?? ''];
  if (mirror) {
    r.analyzer.hit('git-force-push-protected', 'deny', r.segment, 'git push --mirror overwrites and deletes every ref on the remote, protected branches included');
    return;
  }
  if (prune && (refs.length === 0 || globbed || wide)) r.analyzer.hit('git-delete-protected-branch', 'deny', r.segment, 'git push --prune deletes every remote branch missing locally, protected ones included');
  const protectedHit = wide || globbed || targets.some((b) => isProtectedBranch(r, b));
  const colonDelete = refs.filter((p) => p.startsWith(':') || p.startsWith('+:')).map((p) => p.replace(/^\+?:/, ''));
  // Refs only known at run time (`git branch -r | xargs git push origin --delete`, `:$B`): a protected one may be among them.
  const runtimeDeleted = (deleting ? refs : colonDelete).filter((ref) => ref.includes('\u0000') || ref.includes('$'));
  if (runtimeDeleted.length && !(deleting && refs.some((b) => isProtectedBranch(r, b)))) r.analyzer.hit('dynamic-command', 'ask', r.segment, 'git push deletes remote refs only known at run time: a protected branch may be among them');
  if ((deleting && refs.some((b) => isProtectedBranch(r, b))) || colonDelete.some((b) => isProtectedBranch(r, b) || b.includes('*'))) {
    r.analyzer.hit('git-delete-protected-branch', 'deny', r.segment, `deletes the protected branch ${(deleting ? refs : colonDelete).join(', ')} on the remote`);
  } else {
    // A tag deleted on the remote (a release others build from) or a glob of refs is gone for everyone who
    // has not fetched it. A feature branch deleted after its merge is everyday clean-up (real agent work).
    const gone = (deleting ? refs : colonDelete).filter((ref) => ref.includes('*') || /^(?:refs\/tags\/|v?\d+(?:\.\d+)+(?:[-+.][\w.]+)?$)/.test(ref) || (g.has('--tags') && deleting));
    if (gone.length) r.analyzer.hit('git-ref-delete', 'deny', r.segment, `deletes ${gone.join(', ')} on the remote`);
  }
  const plus = refs.some((p) => p.startsWith('+'));
  if (force || plus) {
    if (protectedHit) r.analyzer.hit('git-force-push-protected', 'deny', r.segment, `force-pushes to the protected branch ${wide || globbed ? '(all branches)' : targets.filter(Boolean).join(', ')}`);
    else if (!lease || plus) r.analyzer.hit('git-force-push', 'ask', r.segment, `force-pushes ${targets.filter(Boolean).join(', ') || 'the current branch'} (rewrites remote history)`);
  }
}

/** Paths a checkout/restore/clean/stash would overwrite or remove that belong to loom or the harness hooks. */
function touchesProtected(r: RuleContext, g: GitCall, paths: string[]): string | undefined {
  for (const p of paths) {
    const clean = p.replace(/^:\(top\)|^:\//, '');
    const { abs } = resolveTarget(clean === '' ? '.' : clean, g.cwd);
    for (const prot of ['.loom', '.claude', '.codex', '.gemini', '.cursor', '.opencode', '.qwen', '.factory', '.kilo', '.kilocode', '.github/hooks', 'opencode.json']) {
      const full = posix.join(r.opts.projectDir, prot);
      if (within(abs, full) || (prot === '.loom' && within(full, abs) && abs !== r.opts.projectDir && p !== '.' && clean !== '')) return full;
    }
  }
  return undefined;
}

/** A pathspec that names the whole working tree: `.`, `:/`, `*`, `..` from a subfolder, the project root by path. */
function wholeTree(r: RuleContext, g: GitCall, p: string): boolean {
  if (p === '.' || p === ':/' || p === '*' || p === './' || p === ':/*' || p === ':(top)' || p === ':(top).' || p === ':' ) return true;
  if (/^:\(top[^)]*\)\/?\*?$/.test(p)) return true;
  if (p.includes('\u0000') || /[*?[]/.test(p)) return false;
  const { abs } = resolveTarget(p, g.cwd);
  return abs === g.cwd ? p.replace(/\/+$/, '') === '.' || p === './' : abs === r.opts.projectDir || within(r.opts.projectDir, abs);
}

/** A pathspec naming a build output folder (its last part is one of BUILD_OUTPUT_DIRS), inside the tree. */
function isBuildOutput(p: string): boolean {
  const parts = p.replace(/\/+$/, '').split('/').filter((x) => x && x !== '.');
  return parts.length > 0 && !parts.includes('..') && BUILD_OUTPUT_DIRS.includes(parts[parts.length - 1]);
}

/** A pathspec that names one file: no glob or magic, no trailing slash, a name with an extension (or a known file name). */
function namesOneFile(p: string): boolean {
  if (p.includes('\u0000') || /[*?[]/.test(p) || p.startsWith(':') || p.endsWith('/')) return false;
  const base = posix.basename(p);
  return /.\.[\w-]+$|^\.[\w-][\w.-]*$/.test(base) || GIT_FILE_NAMES.includes(base);
}

const HISTORY_SECRET_SUBS = new Set(['show', 'cat-file', 'log', 'diff', 'blame', 'grep', 'archive', 'format-patch', 'whatchanged', 'annotate']);

const git: Rule = (r) => {
  if (r.name !== 'git') return;
  const g = parseGit(r.argv, r.cwd);
  if (!g) return;
  const { sub, has } = g;
  if (has('-h', '--help') || r.argv.includes('--help')) return;
  const ops = g.opts.operands;
  // Secrets read out of history: `git show HEAD:.env`, `git cat-file -p :.env`, `git log -p -- .env`.
  if (HISTORY_SECRET_SUBS.has(sub)) {
    for (const o of ops) {
      const colon = o.indexOf(':');
      if (colon >= 0 && !/^[a-z+.-]+:\/\//i.test(o)) readsPath(r.analyzer, o.slice(colon + 1), g.cwd, r.segment);
      else if (sub !== 'show' && sub !== 'cat-file' && sub !== 'grep' && /^\.|\//.test(o)) readsPath(r.analyzer, o, g.cwd, r.segment);
    }
  }
  for (const o of GIT_WORKTREE_OVERWRITES) {
    if (o.sub !== sub || (o.action !== undefined && ops[0] !== o.action) || has('-n', '--dry-run')) continue;
    if ((o.all ?? []).every((x) => has(x)) && (o.any === undefined || o.any.some((x) => has(x)))) r.analyzer.hit(o.rule, o.rule === 'git-discard-changes' ? 'deny' : 'ask', r.segment, o.what);
  }
  if (GIT_PUSH_PLUMBING.includes(sub)) {
    push(r, g);
    return;
  }
  switch (sub) {
    case 'push':
      push(r, g);
      return;
    case 'reset':
      // --hard throws away every uncommitted change (--merge and --keep refuse to when a change would be lost).
      if (has('--hard')) r.analyzer.hit('git-reset-hard', 'deny', r.segment, 'discards uncommitted work (git reset --hard)');
      return;
    case 'clean': {
      // clean.requireForce=false lets clean delete without -f.
      const unforced = /^(?:false|no|off|0)$/i.test(g.config.get('clean.requireforce') ?? '');
      if (has('-n', '--dry-run') || !(has('-f', '--force') || g.opts.short.get('f') !== undefined || unforced)) return;
      const paths = ops;
      const excludesLoom = [g.value('-e'), g.value('--exclude')].some((e) => e !== undefined && /(?:^|\/)\.loom\/?$/.test(e));
      const dirs = has('-d');
      if (dirs && (paths.length === 0 || touchesProtected(r, g, paths) || paths.some((p) => p === '.' || p === ':/')) && !excludesLoom) {
        r.analyzer.hit('modify-loom', 'deny', r.segment, `git clean -d${has('-x') ? 'x' : ''} removes untracked folders, loom's own files (.loom) among them`);
        return;
      }
      // Named files (no folder, no glob, not the tree): the agent removes exactly what it names.
      if (!dirs && paths.length && !touchesProtected(r, g, paths) && paths.every((p) => !p.includes('\u0000') && !/[*?[]/.test(p) && !p.endsWith('/') && !wholeTree(r, g, p) && /\.[\w-]+$|^[^.]*[A-Za-z0-9_-]$/.test(posix.basename(p)) && !/^\.?\.?$/.test(p))) return;
      // Build output folders by name (dist/, build/, tmp/, coverage/): untracked files there are generated.
      if (paths.length && !touchesProtected(r, g, paths) && paths.every((p) => !p.includes('\u0000') && !/[*?[]/.test(p) && !wholeTree(r, g, p) && isBuildOutput(p))) return;
      r.analyzer.hit('git-clean', 'ask', r.segment, 'deletes untracked files (git clean -f)');
      return;
    }
    case 'checkout':
    case 'restore': {
      if (sub === 'restore' && has('--staged') && !has('--worktree', '-W')) return;
      const dashdash = r.argv.indexOf('--', g.at);
      const before = dashdash >= 0 ? ops.slice(0, ops.length - (r.argv.length - dashdash - 1)) : ops;
      // `git checkout TREE-ISH [--] PATHS` / `git restore --source=TREE-ISH PATHS`: the paths take that version.
      const treeish = sub === 'restore' ? (g.value('--source') ?? g.value('-s')) : dashdash >= 0 ? before[0] : ops.length >= 2 ? ops[0] : undefined;
      const paths = dashdash >= 0 ? r.argv.slice(dashdash + 1) : sub === 'restore' ? ops : treeish !== undefined ? ops.slice(1) : ops.filter((p) => p === '.' || p === ':/' || p === '*' || p.includes('/') || p.startsWith('.'));
      const prot = touchesProtected(r, g, paths);
      if (prot) {
        r.analyzer.hit(prot.endsWith('.loom') ? 'modify-loom' : 'modify-hook-settings', 'deny', r.segment, `git ${sub} overwrites ${prot} with the committed version`);
        return;
      }
      if (sub === 'checkout' && isProtectedBranch(r, g.value('-B') ?? '')) r.analyzer.hit('git-branch-force-delete', 'deny', r.segment, 'resets a protected branch to another commit (git checkout -B)');
      // Interactive hunk selection (-p) asks the user for each change.
      if (has('-p', '--patch')) return;
      const broad = paths.some((p) => wholeTree(r, g, p));
      const forced = sub === 'checkout' && has('-f', '--force');
      if (broad || forced) r.analyzer.hit('git-discard-changes', 'deny', r.segment, broad ? 'discards every uncommitted change in the working tree' : 'discards uncommitted changes in the working tree (git checkout --force)');
      // From HEAD (or an ancestor) the paths' local changes are thrown away; from another branch a named file is
      // brought over on purpose (`git checkout main -- package-lock.json`), a folder or a glob takes many files.
      else if (treeish !== undefined && paths.length && (GIT_HEAD_REVISION.test(treeish) || paths.some((p) => !namesOneFile(p)))) {
        r.analyzer.hit('git-discard-paths', 'ask', r.segment, `git ${sub} overwrites ${paths.join(' ')} with the version in ${treeish}, discarding local changes there`);
      }
      // Paths only known at run time (`$(git ls-files -m)`, fed by xargs): whichever files they are lose their changes.
      else if (paths.some((p) => p.includes('\u0000'))) r.analyzer.hit('git-discard-paths', 'ask', r.segment, `git ${sub} discards the local changes of files only known at run time`);
      return;
    }
    case 'switch':
      if (has('-f', '--force', '--discard-changes')) r.analyzer.hit('git-discard-changes', 'deny', r.segment, 'discards uncommitted changes in the working tree (git switch --discard-changes)');
      if (has('-C', '--force-create') && isProtectedBranch(r, g.value('-C') ?? g.value('--force-create') ?? '')) r.analyzer.hit('git-branch-force-delete', 'deny', r.segment, 'resets a protected branch to another commit');
      return;
    case 'branch': {
      const del = has('-D') || (has('-d', '--delete') && has('-f', '--force'));
      const names = ops.filter((o) => !o.startsWith('-'));
      if (del || has('-d', '--delete')) {
        const prot = names.filter((b) => isProtectedBranch(r, b));
        // A local feature branch deleted with -D is everyday clean-up; a protected one is not.
        if (prot.length && !has('-r', '--remotes') && del) r.analyzer.hit('git-branch-delete-protected', 'deny', r.segment, `force-deletes the protected branch ${prot.join(', ')}`);
        else if (prot.length && !has('-r', '--remotes')) r.analyzer.hit('git-branch-force-delete', 'deny', r.segment, `deletes the protected branch ${prot.join(', ')}`);
        // -D deletes a branch whether or not it was merged: its unmerged commits are lost (as cc-safety-net judges it).
        else if (del && !has('-r', '--remotes')) r.analyzer.hit('git-branch-force-delete', 'deny', r.segment, `force-deletes the branch ${names.join(', ') || '(named at run time)'} with its unmerged commits`);
        return;
      }
      if ((has('-f', '--force') || has('-M', '-C')) && names.some((b) => isProtectedBranch(r, b))) r.analyzer.hit('git-branch-force-delete', 'deny', r.segment, 'overwrites a protected branch (git branch -f / -M)');
      return;
    }
    case 'stash': {
      const action = ops[0];
      if (action === 'drop' || action === 'clear') {
        r.analyzer.hit('git-stash-drop', 'deny', r.segment, `discards stashed work (git stash ${action})`);
        return;
      }
      if ((action === undefined || action === 'push' || action === 'save') && has('-a', '--all')) r.analyzer.hit('modify-loom', 'deny', r.segment, "git stash --all stashes and removes ignored and untracked files, loom's own files (.loom) among them");
      // A pathspec that names loom's files or the hook settings: they leave the work tree into the stash.
      else if (action === 'push' && ops.slice(1).some((p) => /^(?::\/)?\.?\/?(?:\.loom|\.claude|\.codex|\.gemini|\.cursor|\.qwen|\.factory|\.opencode|opencode\.json|\.github\/hooks)(?:\/|$)/.test(p))) r.analyzer.hit('modify-loom', 'deny', r.segment, "git stash push of loom's files or the hook settings takes them out of the work tree");
      return;
    }
    case 'reflog': {
      if (ops[0] === 'delete') {
        r.analyzer.hit('git-ref-delete', 'deny', r.segment, 'deletes reflog entries (the way back to lost commits)');
        return;
      }
      if (ops[0] !== 'expire') return;
      const exp = [g.value('--expire'), g.value('--expire-unreachable')].filter((v): v is string => v !== undefined);
      if (exp.some((v) => GIT_EXPIRE_NOW.test(v))) r.analyzer.hit('git-history-destroy', 'deny', r.segment, 'git reflog expire --expire=now drops the way back to lost commits');
      return;
    }
    case 'gc':
    case 'prune': {
      // gc also expires the reflogs by gc.reflogExpire(Unreachable), and prunes by gc.pruneExpire when --prune is not given.
      const reflogNow = sub === 'gc' && ['gc.reflogexpire', 'gc.reflogexpireunreachable'].some((key) => GIT_EXPIRE_NOW.test(g.config.get(key) ?? ''));
      if (reflogNow) r.analyzer.hit('git-history-destroy', 'deny', r.segment, 'git gc with gc.reflogExpire=now drops the way back to lost commits');
      const prune = sub === 'gc' ? (g.value('--prune') ?? g.config.get('gc.pruneexpire')) : g.value('--expire');
      if (prune !== undefined && GIT_EXPIRE_NOW.test(prune)) r.analyzer.hit('git-prune-unreachable', 'deny', r.segment, `git ${sub} deletes unreachable commits now (no grace period)`);
      else if (sub === 'prune' && !has('-n', '--dry-run')) r.analyzer.hit('git-prune-unreachable', 'deny', r.segment, 'git prune deletes unreachable objects');
      return;
    }
    case 'rebase': {
      // A sequence editor that rewrites the todo list unseen (GIT_SEQUENCE_EDITOR, -c sequence.editor=): `drop` for
      // `pick`, lines deleted, the list emptied: the commits it drops are gone from the branch.
      const editor = r.cmd.assignments.find((x) => x.name === 'GIT_SEQUENCE_EDITOR')?.value.text ?? r.vars.get('GIT_SEQUENCE_EDITOR') ?? r.argv.find((x, k) => r.argv[k - 1] === '-c' && /^sequence\.editor=/i.test(x))?.replace(/^[^=]*=/, '');
      if ((has('-i', '--interactive') || editor !== undefined) && editor !== undefined && DROPPING_EDITOR.test(editor.slice(0, 2000))) r.analyzer.hit('git-rewrite-history', 'deny', r.segment, `git rebase with the sequence editor \`${editor.slice(0, 60)}\` drops commits from the branch`);
      return;
    }
    case 'filter-branch':
    case 'filter-repo':
      // filter-repo --analyze writes a report about the history and rewrites nothing (with --dry-run it only shows what it would do).
      if (sub === 'filter-repo' && has('--analyze', '--dry-run', '--help', '-h', '--version')) return;
      r.analyzer.hit('git-rewrite-history', 'deny', r.segment, `git ${sub} rewrites every commit of the history`);
      return;
    case 'fetch': {
      // git fetch REMOTE +SRC:main (or --force / --update-head-ok): the local protected branch is moved to whatever SRC is.
      const forced = has('-f', '--force');
      for (const spec of ops.slice(1)) {
        const m = /^(\+?)([^:]*):(.+)$/.exec(spec);
        if (m && (m[1] === '+' || forced) && isProtectedBranch(r, m[3])) r.analyzer.hit('git-branch-force-delete', 'deny', r.segment, `git fetch ${spec} moves the protected branch ${m[3]} to another commit, whatever it held`);
      }
      return;
    }
    case 'update-ref': {
      const refs = ops.filter((o) => o.startsWith('refs/') || o === 'HEAD');
      if (has('-d')) {
        if (refs.some((ref) => isProtectedBranch(r, ref) || ref === 'HEAD')) r.analyzer.hit('git-delete-protected-branch', 'deny', r.segment, `deletes the protected ref ${refs.join(', ')}`);
        else r.analyzer.hit('git-ref-delete', 'deny', r.segment, `deletes the ref ${refs.join(', ') || ops.join(' ')}`);
      } else if (has('--stdin')) r.analyzer.hit('git-ref-delete', 'deny', r.segment, 'updates (and may delete) refs read from its input');
      else if (refs[0] && isProtectedBranch(r, refs[0])) r.analyzer.hit('git-branch-force-delete', 'deny', r.segment, `moves the protected branch ${refs[0]} to another commit`);
      return;
    }
    case 'rm': {
      if (has('--cached') || has('-n', '--dry-run')) return;
      const recursive = has('-r', '--recursive');
      for (const p of ops) {
        if (recursive && (p === '.' || p === ':/' || p === '*' || p === './' || p === ':/*')) r.analyzer.hit('rm-recursive-project-root', 'deny', r.segment, 'git rm -r of the whole project deletes every tracked file');
        else deletesPath(r.analyzer, p, g.cwd, r.segment, { recursive, filtered: true });
      }
      return;
    }
    case 'mv': {
      // git mv SRC... DEST: a move in the working tree (and the index), judged as mv judges it.
      if (has('-n', '--dry-run') || ops.length < 2) return;
      for (const src of ops.slice(0, -1).slice(0, 64)) movesPath(r.analyzer, src, ops[ops.length - 1], g.cwd, r.segment);
      return;
    }
    case 'symbolic-ref':
      if (has('-d', '--delete') && ops.includes('HEAD')) r.analyzer.hit('git-history-destroy', 'deny', r.segment, 'deletes HEAD');
      return;
    case 'worktree':
      if (ops[0] === 'remove' && has('-f', '--force')) r.analyzer.hit('git-discard-changes', 'deny', r.segment, 'removes a worktree with uncommitted changes');
      return;
    case 'config': {
      if (GIT_CONFIG_READS.some((o) => has(o))) return;
      // `git config set k v` (git 2.46) or the classic `git config k v`
      const verbs = ['get', 'list', 'unset', 'remove-section', 'rename-section', 'edit'];
      if (verbs.includes(ops[0] ?? '')) return;
      const [key, value] = ops[0] === 'set' ? [ops[1], ops[2]] : [ops[0], ops[1]];
      if (key === undefined || value === undefined) return;
      // credential.helper store keeps every password git is given in plain text (~/.git-credentials or --file).
      if (/^credential\..*helper$/i.test(key) && /^\s*store\b/.test(value)) r.analyzer.hit('read-secret-file', 'deny', r.segment, `git config ${key} ${value} writes every git credential to a plain-text file`);
      // core.hooksPath to a hook manager's folder in the project (.husky): the team's committed hooks, as husky sets them.
      else if (/^core\.hookspath$/i.test(key) && HOOK_MANAGER_DIRS.includes(value.replace(/^\.\//, '').replace(/\/+$/, ''))) return;
      // The stored command itself was judged as the command it is (gitConfigWrites); what is asked here is a command
      // loom cannot read ahead: a script by its path, shell code beyond git and text tools.
      else if (gitConfigRunsCommand(key, value) && !readableStoredCommand(key, value, has('--global', '--system'))) r.analyzer.hit('persistence', 'ask', r.segment, `git config ${has('--system') ? '--system ' : has('--global') ? '--global ' : ''}${key} stores a command that git runs on its own later${has('--global', '--system') ? ', in every repository' : ''}`);
      // In the user's or the machine's config the setting outlives the project and the session: where every fetch
      // goes (url.*.insteadOf to another host), the hooks every new clone gets, the proxy, TLS checks.
      else if (has('--global', '--system') && GLOBAL_REDIRECTS.test(key) && !sameHostRedirect(key, value)) r.analyzer.hit('persistence', 'ask', r.segment, `git config ${has('--system') ? '--system' : '--global'} ${key} changes what git does in every repository of this ${has('--system') ? 'machine' : 'user'}, from now on`);
      return;
    }
    case 'checkout-index':
      if (has('-f', '--force') && has('-a', '--all')) r.analyzer.hit('git-discard-changes', 'deny', r.segment, 'overwrites every file of the working tree');
      return;
  }
};

git.names = ['git'];

/**
 * A stored command loom reads ahead as what it is: a boolean where git takes one (core.fsmonitor true: git's own
 * monitor), an everyday program, or a plain stored command (stored-commands.ts). In the user's or the machine's
 * config, which outlives the project, only an everyday program or an alias of git and text tools.
 */
function readableStoredCommand(key: string, value: string, global: boolean): boolean {
  if (/^core\.fsmonitor$/i.test(key) && /^(?:true|false|yes|no|on|off|1|0)$/i.test(value.trim())) return true;
  // A folder of hooks is not a command: what runs is whatever is, or will be, in it.
  if (/^core\.hookspath$/i.test(key)) return false;
  // A file in a world-writable folder (a key, a config) is one anyone on the machine can swap, from then on.
  if (global && /(?:^|[\s='"])\/(?:tmp|var\/tmp|dev\/shm)\//.test(value)) return false;
  if (everydayGitCommand(value)) return true;
  return global ? value.trim().startsWith('!') && plainStoredCommand(value) : plainStoredCommand(value);
}

/** url.<base>.insteadOf <prefix> where both name one host (https to ssh of the same forge): the same remote, another protocol. */
function sameHostRedirect(key: string, value: string): boolean {
  const m = /^url\.(.+)\.(?:insteadof|pushinsteadof)$/i.exec(key);
  if (!m) return false;
  const host = (u: string) => (/^[a-z][\w+.-]*:\/\/(?:[^@/]*@)?([^/:]+)/i.exec(u) ?? /^(?:[^@/:]+@)?([^/:]+):/.exec(u))?.[1]?.toLowerCase();
  const a = host(m[1]);
  return a !== undefined && a === host(value);
}

/** Global git settings that redirect where every repository fetches or pushes, or what every new clone starts with. */
const GLOBAL_REDIRECTS = /^(?:url\..+\.(?:insteadof|pushinsteadof)|init\.templatedir|core\.hookspath|http\.proxy|https\.proxy|http\.sslverify)$/i;

/** git's dashed forms (`git-push`, `git-reset`, and git-filter-repo, a program of its own): the same command as `git X`. */
const gitDashed: Rule = (r) => {
  const sub = r.name.slice(4);
  r.analyzer.analyzeSource(quoteArgv(['git', sub, ...r.argv.slice(1)]), r.depth + 1, `${r.via} > git ${sub}`, r.cwd, new Map(r.vars));
};
gitDashed.names = [...Object.keys(GIT_OPTIONS), 'filter-repo'].map((sub) => `git-${sub}`);

/** `gh api` / `glab api` by (method, endpoint), GraphQL mutations, and forge subcommands (tables/git.ts). */
const forge: Rule = (r) => {
  if (r.name !== 'gh' && r.name !== 'glab') return;
  const cli = r.name;
  const argv = r.argv;
  const rest = argv.slice(1).join(' ');
  for (const c of FORGE_COMMANDS) {
    if (c.cli === cli && c.sub.every((w, i) => argv[1 + i] === w) && (c.rest === undefined || c.rest.test(rest))) r.analyzer.hit(c.rule, c.action, r.segment, c.what);
  }
  if (argv[1] !== 'api') return;
  let method: string | undefined;
  let endpoint: string | undefined;
  let body = false;
  let input = false;
  const fields: string[] = [];
  for (let k = 2; k < argv.length; k++) {
    const a = argv[k];
    const eq = a.indexOf('=');
    const [opt, glued] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : /^-[A-Za-z]./.test(a) ? [a.slice(0, 2), a.slice(2)] : [a, undefined];
    if (a.startsWith('-') && a.length > 1 && FORGE_API_WITH_ARG.includes(opt)) {
      const v = glued !== undefined && glued !== '' ? glued : argv[++k];
      if (v === undefined) break;
      if (opt === '-X' || opt === '--method') method = v.toUpperCase();
      else if (FORGE_API_FIELDS.includes(opt)) {
        body = true;
        fields.push(v);
      } else if (opt === '--input') input = body = true;
      continue;
    }
    if (a.startsWith('-') && a.length > 1) continue;
    endpoint ??= a;
  }
  if (endpoint === undefined) return;
  const m = method ?? (body ? 'POST' : 'GET');
  // Matched as written (GitLab writes a project path as `group%2Fname`, one segment); a branch name is decoded.
  const path = endpoint.replace(/^https?:\/\/[^/]+\//, '').replace(/^\/+/, '').replace(/^api\/v\d+\//, '').replace(/[?#].*$/, '');
  const decode = (x: string) => {
    try {
      return decodeURIComponent(x);
    } catch {
      return x;
    }
  };
  if (path === 'graphql') {
    const query = fields.filter((f) => /^query=/.test(f)).join('\n');
    for (const g of FORGE_GRAPHQL_RULES) if (/\bmutation\b/.test(query) && g.mutation.test(query)) r.analyzer.hit(g.rule, g.action, r.segment, `${cli} api graphql ${g.what}`);
    if (input && !query) r.analyzer.hit('forge-protection-change', 'ask', r.segment, `${cli} api graphql sends a query only known at run time`);
    return;
  }
  for (const rule of FORGE_API_RULES) {
    if (!rule.cli.includes(cli) || !rule.method.test(m)) continue;
    const hit = rule.path.exec(path);
    if (!hit) continue;
    const branch = hit.groups?.branch === undefined ? undefined : decode(hit.groups.branch);
    if (rule.protectedOnly && !(branch !== undefined && (isProtectedBranch(r, branch) || branch.includes('*')))) continue;
    if (rule.field && !fields.some((f) => rule.field!.test(f))) {
      // The body comes from a file or stdin: what it sets is unknown.
      if (input) r.analyzer.hit(rule.rule === 'git-force-push-protected' || rule.rule === 'forge-branch-protection' ? 'git-force-push' : rule.rule, 'ask', r.segment, `${cli} api ${m} ${path} with a body only known at run time: it may ${rule.what.replace(/^(\w)/, (c) => c.toLowerCase())}`);
      continue;
    }
    r.analyzer.hit(rule.rule, rule.action, r.segment, `${cli} api ${m} ${path} ${rule.what}`);
    return;
  }
};

forge.names = ['gh', 'glab'];

/**
 * `git add ~/.ssh`, `git -C /tmp/x add ~/.aws/credentials`, `git add -f .env`: a secret staged is on its way
 * into a commit and to any remote it is pushed to (judged as a read of it; `git add .` and `-A` name no file).
 */
const stagesSecrets: Rule = (r) => {
  if (r.name !== 'git') return;
  const g = parseGit(r.argv, r.cwd);
  if (!g || (g.sub !== 'add' && g.sub !== 'stage')) return;
  for (const f of g.opts.operands.slice(0, 64)) if (!f.includes('\u0000')) carriesFolder(r.analyzer, f, g.cwd, r.segment);
};

/** `git rm -r -f src`: the folder is deleted from the working tree with its uncommitted changes (without -f git refuses to). */
const removesSourceFolders: Rule = (r) => {
  if (r.name !== 'git') return;
  const g = parseGit(r.argv, r.cwd);
  if (!g || g.sub !== 'rm' || g.has('--cached') || g.has('-n', '--dry-run')) return;
  const force = g.has('-f', '--force');
  const recursive = g.has('-r');
  if (!force || !recursive) return;
  for (const f of g.opts.operands.slice(0, 64)) if (!f.includes('\u0000')) {
    const { abs, globbed } = resolveTarget(f, g.cwd);
    deletesWork(r.analyzer, f, abs, globbed, r.segment, 'git rm -r -f deletes');
  }
};

export const GIT_RULES: Rule[] = [git, gitDashed, forge, stagesSecrets, removesSourceFolders];

// ---------------------------------------------------------------- config written on the line

/** A config key as git compares it: section and variable name lowercased, the subsection kept. */
export function gitConfigKey(key: string): string {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return key.toLowerCase();
  return first === last ? key.toLowerCase() : key.slice(0, first).toLowerCase() + key.slice(first, last) + key.slice(last).toLowerCase();
}

export function gitKeyIn(patterns: readonly string[], key: string): boolean {
  const k = key.toLowerCase();
  return patterns.some((p) => keyMatches(p, k));
}

export interface GitConfigWrite {
  key: string;
  value?: string;
  mode: 'set' | 'add' | 'unset';
}

/**
 * What `git config` (classic or `set`/`unset` verbs) or `git remote add --mirror` writes to the
 * repository's (or the user's) config; undefined for a read, another file (--file, --blob) or
 * anything else.
 */
export function gitConfigWrites(argv: string[], cwd: string): GitConfigWrite[] {
  const g = parseGit(argv, cwd);
  if (!g) return [];
  const ops = g.opts.operands;
  if (g.sub === 'remote' && ops[0] === 'add' && ops[1] !== undefined) {
    const url: GitConfigWrite[] = ops[2] !== undefined ? [{ key: `remote.${ops[1]}.url`, value: ops[2], mode: 'set' }] : [];
    if (!g.opts.long.has('--mirror')) return url;
    const v = g.opts.long.get('--mirror');
    return v === 'fetch' ? url : [...url, { key: `remote.${ops[1]}.mirror`, value: 'true', mode: 'set' }];
  }
  // git remote set-url [--push] [--add] NAME URL
  if (g.sub === 'remote' && ops[0] === 'set-url' && ops[1] !== undefined && ops[2] !== undefined) {
    return [{ key: `remote.${ops[1]}.${g.opts.long.has('--push') ? 'pushurl' : 'url'}`, value: ops[2], mode: g.opts.long.has('--add') ? 'add' : 'set' }];
  }
  if (g.sub !== 'config' || g.has('--file', '-f', '--blob')) return [];
  if (g.has('--unset', '--unset-all') || ops[0] === 'unset') {
    const key = ops[0] === 'unset' ? ops[1] : ops[0];
    return key ? [{ key: gitConfigKey(key), mode: 'unset' }] : [];
  }
  if (GIT_CONFIG_READS.some((o) => has(g, o))) return [];
  const verbs = ['get', 'list', 'remove-section', 'rename-section', 'edit'];
  if (verbs.includes(ops[0] ?? '')) return [];
  const [key, value] = ops[0] === 'set' ? [ops[1], ops[2]] : [ops[0], ops[1]];
  if (key === undefined || value === undefined) return [];
  return [{ key: gitConfigKey(key), value, mode: g.has('--add', '--append') || (ops[0] === 'set' && g.has('--append')) ? 'add' : 'set' }];
}

function has(g: GitCall, o: string): boolean {
  return g.has(o);
}

const TRUE = /^(?:true|yes|on|1)$/i;

/**
 * The pushes a `git push` really makes once config is read (`cfg` holds the values of each key, the
 * line's config and `-c` together): a push naming no refspec pushes `remote.R.push`, a
 * `remote.R.mirror` remote is pushed with --mirror, `push.default=matching` pushes every branch.
 * Returned as the equivalent push commands (argv), judged like any push.
 */
export function pushWithConfig(argv: string[], cwd: string, cfg: (key: string) => string[], currentBranch?: string): { argv: string[]; why: string }[] {
  const g = parseGit(argv, cwd);
  if (!g || g.sub !== 'push') return [];
  const ops = g.opts.operands;
  if (ops.length > 1 || g.has('--mirror', '--all', '--branches', '--tags', '--delete', '-d')) return [];
  const last = (k: string) => cfg(k).at(-1);
  const remote = ops[0] ?? (currentBranch ? last(`branch.${currentBranch}.pushremote`) : undefined) ?? last('remote.pushdefault') ?? 'origin';
  const flags = argv.slice(g.at + 1).filter((a, i, all) => !(ops[0] !== undefined && a === ops[0] && all.lastIndexOf(ops[0]) === i));
  const out: { argv: string[]; why: string }[] = [];
  if (TRUE.test(last(`remote.${remote}.mirror`) ?? '')) out.push({ argv: ['git', 'push', ...flags, '--mirror', remote], why: `remote.${remote}.mirror` });
  const refspecs = cfg(`remote.${remote}.push`).filter((s) => s !== '');
  if (refspecs.length) out.push({ argv: ['git', 'push', ...flags, remote, ...refspecs], why: `remote.${remote}.push` });
  else if (/^matching$/i.test(last('push.default') ?? '')) out.push({ argv: ['git', 'push', ...flags, '--all', remote], why: 'push.default=matching' });
  return out;
}

/**
 * A push to a place the repository did not know before this line: a remote whose URL the line
 * itself set (`git remote add drop URL && git push drop`): the code leaves for a destination nobody
 * configured. (A URL in place of a remote is how CI pushes with a token, and stays a push.)
 */
export function pushToNewPlace(argv: string[], cwd: string, lineCfg: (key: string) => string[]): string | undefined {
  const g = parseGit(argv, cwd);
  if (!g || g.sub !== 'push' || g.has('-n', '--dry-run')) return undefined;
  const remote = g.opts.operands[0];
  if (remote === undefined) return undefined;
  return lineCfg(`remote.${remote}.pushurl`).at(-1) ?? lineCfg(`remote.${remote}.url`).at(-1);
}

/** `git config` stores push config a later push reads: judged now as the push it makes (no options of its own). */
export function storedPushConfig(w: GitConfigWrite): { argv: string[]; why: string } | undefined {
  if (w.mode === 'unset' || w.value === undefined) return undefined;
  const m = /^remote\.(.+)\.(push|mirror)$/.exec(w.key);
  if (!m) return undefined;
  if (m[2] === 'mirror') return TRUE.test(w.value) ? { argv: ['git', 'push', '--mirror', m[1]], why: `git config ${w.key} ${w.value}` } : undefined;
  return { argv: ['git', 'push', m[1], w.value], why: `git config ${w.key} ${w.value}` };
}
