// git's own option lists, per subcommand, so options are read as git reads
// them: any unambiguous prefix of a long option is that option
// (`--force-w` is `--force-with-lease`, `--mirr` is `--mirror`). From
// `git <cmd> -h` (git 2.39); `--no-X` forms are added by `gitOptionNames`.

export interface GitSubcommandOptions {
  long: string[];
  /** Long options that take the next word as their value (when not written with `=`). */
  longWithArg: string[];
  /** Short letters that take a value. */
  shortWithArg: string;
}

export const GIT_OPTIONS: Record<string, GitSubcommandOptions> = {
  push: { long: ['--all', '--branches', '--atomic', '--delete', '--dry-run', '--exec', '--follow-tags', '--force', '--force-if-includes', '--force-with-lease', '--ipv4', '--ipv6', '--mirror', '--no-verify', '--verify', '--porcelain', '--progress', '--prune', '--push-option', '--quiet', '--receive-pack', '--recurse-submodules', '--repo', '--set-upstream', '--signed', '--tags', '--thin', '--verbose'], longWithArg: ['--exec', '--push-option', '--receive-pack', '--repo', '--recurse-submodules'], shortWithArg: 'o' },
  reset: { long: ['--hard', '--intent-to-add', '--keep', '--merge', '--mixed', '--refresh', '--patch', '--pathspec-file-nul', '--pathspec-from-file', '--quiet', '--recurse-submodules', '--soft'], longWithArg: ['--pathspec-from-file'], shortWithArg: '' },
  clean: { long: ['--dry-run', '--exclude', '--force', '--interactive', '--quiet'], longWithArg: ['--exclude'], shortWithArg: 'e' },
  checkout: { long: ['--conflict', '--detach', '--force', '--guess', '--ignore-other-worktrees', '--ignore-skip-worktree-bits', '--merge', '--orphan', '--ours', '--overlay', '--overwrite-ignore', '--patch', '--pathspec-file-nul', '--pathspec-from-file', '--progress', '--quiet', '--recurse-submodules', '--theirs', '--track'], longWithArg: ['--orphan', '--conflict', '--pathspec-from-file'], shortWithArg: 'bB' },
  switch: { long: ['--conflict', '--create', '--detach', '--discard-changes', '--force', '--force-create', '--guess', '--ignore-other-worktrees', '--merge', '--orphan', '--overwrite-ignore', '--progress', '--quiet', '--recurse-submodules', '--track'], longWithArg: ['--create', '--force-create', '--orphan', '--conflict'], shortWithArg: 'cC' },
  restore: { long: ['--conflict', '--ignore-skip-worktree-bits', '--ignore-unmerged', '--merge', '--ours', '--overlay', '--patch', '--pathspec-file-nul', '--pathspec-from-file', '--progress', '--quiet', '--recurse-submodules', '--source', '--staged', '--theirs', '--worktree'], longWithArg: ['--source', '--pathspec-from-file', '--conflict'], shortWithArg: 's' },
  branch: { long: ['--abbrev', '--all', '--color', '--column', '--contains', '--copy', '--create-reflog', '--delete', '--edit-description', '--force', '--format', '--ignore-case', '--list', '--merged', '--move', '--no-contains', '--no-merged', '--points-at', '--quiet', '--recurse-submodules', '--remotes', '--set-upstream-to', '--show-current', '--sort', '--track', '--unset-upstream', '--verbose'], longWithArg: ['--contains', '--no-contains', '--merged', '--no-merged', '--points-at', '--format', '--sort', '--set-upstream-to'], shortWithArg: 'u' },
  reflog: { long: ['--expire', '--expire-unreachable', '--all', '--single-worktree', '--rewrite', '--updateref', '--stale-fix', '--dry-run', '--verbose'], longWithArg: [], shortWithArg: 'n' },
  gc: { long: ['--aggressive', '--auto', '--cruft', '--force', '--keep-largest-pack', '--prune', '--quiet'], longWithArg: [], shortWithArg: '' },
  prune: { long: ['--dry-run', '--exclude-promisor-objects', '--expire', '--progress', '--verbose'], longWithArg: ['--expire'], shortWithArg: '' },
  'update-ref': { long: ['--create-reflog', '--no-deref', '--stdin'], longWithArg: [], shortWithArg: 'm' },
  'filter-branch': { long: ['--force', '--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter', '--subdirectory-filter', '--prune-empty', '--original', '--state-branch'], longWithArg: ['--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter', '--subdirectory-filter', '--original', '--state-branch'], shortWithArg: 'd' },
  stash: { long: ['--keep-index', '--all', '--include-untracked', '--message', '--only-untracked', '--patch', '--quiet', '--staged', '--index'], longWithArg: ['--message'], shortWithArg: 'm' },
  rebase: { long: ['--abort', '--apply', '--autosquash', '--autostash', '--committer-date-is-author-date', '--continue', '--edit-todo', '--empty', '--exec', '--force-rebase', '--fork-point', '--gpg-sign', '--ignore-whitespace', '--interactive', '--keep-base', '--merge', '--no-ff', '--stat', '--verify', '--onto', '--quiet', '--quit', '--reapply-cherry-picks', '--rebase-merges', '--rerere-autoupdate', '--reschedule-failed-exec', '--reset-author-date', '--root', '--show-current-patch', '--signoff', '--skip', '--strategy', '--strategy-option', '--update-refs', '--verbose', '--whitespace'], longWithArg: ['--exec', '--onto', '--strategy', '--strategy-option', '--whitespace'], shortWithArg: 'xsX' },
  rm: { long: ['--cached', '--dry-run', '--force', '--ignore-unmatch', '--pathspec-file-nul', '--pathspec-from-file', '--quiet', '--sparse', '--recursive'], longWithArg: ['--pathspec-from-file'], shortWithArg: '' },
  show: { long: ['--format', '--pretty', '--stat', '--name-only', '--name-status', '--oneline', '--patch', '--quiet', '--source', '--decorate'], longWithArg: [], shortWithArg: '' },
  'cat-file': { long: ['--batch', '--batch-check', '--batch-command', '--batch-all-objects', '--textconv', '--filters', '--path', '--follow-symlinks', '--unordered', '--buffer', '--allow-unknown-type', '--mailmap', '--use-mailmap'], longWithArg: [], shortWithArg: '' },
  tag: { long: ['--annotate', '--delete', '--force', '--list', '--message', '--sign', '--verify', '--file'], longWithArg: ['--message', '--file'], shortWithArg: 'mFu' },
  config: { long: ['--global', '--system', '--local', '--worktree', '--file', '--blob', '--add', '--replace-all', '--append', '--get', '--get-all', '--get-regexp', '--get-urlmatch', '--unset', '--unset-all', '--all', '--list', '--edit', '--type', '--bool', '--int', '--path', '--null', '--name-only', '--show-origin', '--show-scope', '--default', '--comment', '--value', '--fixed-value', '--includes', '--rename-section', '--remove-section'], longWithArg: ['--file', '--blob', '--type', '--default', '--comment', '--value'], shortWithArg: 'f' },
  worktree: { long: ['--force', '--detach', '--checkout', '--lock', '--reason', '--quiet', '--track', '--guess-remote', '--orphan', '--porcelain', '--expire', '--dry-run', '--verbose'], longWithArg: ['--reason', '--expire'], shortWithArg: 'bB' },
};

/** Options git itself takes before the subcommand; those listed with a value take the next word. */
export const GIT_GLOBAL_WITH_ARG = ['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--config-env', '--exec-path', '--list-cmds', '--attr-source'];
export const GIT_GLOBAL_FLAGS = ['-p', '-P', '--paginate', '--no-pager', '--bare', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--no-optional-locks', '--html-path', '--man-path', '--info-path', '--version', '--help', '-h', '-v'];

/** Reflog expiry values that drop every entry (so what only the reflog reached is lost to the next gc). */
export const GIT_EXPIRE_NOW = /^(?:now|all|0|never|[0-9]+\.(?:seconds?|minutes?)(?:\.ago)?|1\.(?:hour|day)s?(?:\.ago)?)$/i;

/** Every long option of a subcommand, with its `--no-` twin (parse-options accepts both, and both count for abbreviation). */
const namesCache = new Map<string, string[]>();

export function gitOptionNames(sub: string): string[] {
  const cached = namesCache.get(sub);
  if (cached) return cached;
  const spec = Object.prototype.hasOwnProperty.call(GIT_OPTIONS, sub) ? GIT_OPTIONS[sub] : undefined;
  if (!spec) return [];
  const out = new Set<string>();
  for (const l of spec.long) {
    out.add(l);
    out.add(l.startsWith('--no-') ? '--' + l.slice(5) : '--no-' + l.slice(2));
  }
  const list = [...out];
  namesCache.set(sub, list);
  return list;
}

/**
 * Config keys whose value is a command (or a folder of hooks) that git runs on
 * its own later: setting one is persistence (ask). `alias.*` only when the
 * value starts with `!` (a shell command, not a git subcommand).
 */
export const GIT_COMMAND_KEYS = ['core.hookspath', 'core.fsmonitor', 'core.sshcommand', 'core.pager', 'core.editor', 'core.askpass', 'sequence.editor', 'diff.external', 'gpg.program', 'gpg.ssh.program', 'credential.helper', 'uploadpack.packobjectshook', 'pager.*', 'filter.*.clean', 'filter.*.smudge', 'filter.*.process', 'diff.*.textconv', 'diff.*.command', 'merge.*.driver', 'alias.* (value starting with !)'];

/** Options of `git config` that only read or remove (never set a value). */
export const GIT_CONFIG_READS = ['--get', '--get-all', '--get-regexp', '--get-urlmatch', '--unset', '--unset-all', '--list', '-l', '--edit', '-e', '--rename-section', '--remove-section'];

/** Whether setting `key` to `value` stores a command git runs later. */
export function gitConfigRunsCommand(key: string, value: string): boolean {
  const k = key.toLowerCase();
  const parts = k.split('.');
  for (const pat of GIT_COMMAND_KEYS) {
    const [p, cond] = pat.split(' (');
    const pp = p.split('.');
    // a `*` stands for a subsection name, which may itself contain dots
    const ok = pp.length === 3 && pp[1] === '*' ? parts.length >= 3 && parts[0] === pp[0] && parts[parts.length - 1] === pp[2] : pp.length === 2 && pp[1] === '*' ? parts.length >= 2 && parts[0] === pp[0] : k === p;
    if (ok && (!cond || value.trimStart().startsWith('!'))) return true;
  }
  return false;
}

/** Folders that hold generated output: `git clean -f -- dist/` removes only what a build made. */
/** Project folders where hook managers keep the team's committed git hooks (core.hooksPath set to one is routine). */
export const HOOK_MANAGER_DIRS = ['.husky', '.husky/_', '.githooks', '.git-hooks', 'githooks', '.lefthook', '.config/husky'];

export const BUILD_OUTPUT_DIRS = ['dist', 'build', 'out', 'output', 'tmp', 'temp', '.tmp', 'coverage', '.coverage', 'htmlcov', 'target', '.cache', 'cache', '.next', '.nuxt', '.turbo', '.parcel-cache', '.vite', '.svelte-kit', '.angular', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.tox', '.nox', 'node_modules', '.gradle', 'bin', 'obj', 'logs', 'log', 'reports', 'storybook-static', '.docusaurus', 'public/build', '.expo', '.dart_tool', 'DerivedData', '.build', 'lib-cov', '.nyc_output', 'artifacts', '.serverless', '.terraform', 'generated', '__generated__', 'gen', '.generated', 'codegen'];
