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
  'send-pack': { long: ['--all', '--mirror', '--dry-run', '--force', '--receive-pack', '--exec', '--verbose', '--thin', '--atomic', '--signed', '--stdin', '--stateless-rpc', '--helper-status', '--force-with-lease', '--quiet', '--progress', '--push-option'], longWithArg: ['--receive-pack', '--exec', '--push-option'], shortWithArg: '' },
  'http-push': { long: ['--all', '--dry-run', '--force', '--verbose'], longWithArg: [], shortWithArg: '' },
  'read-tree': { long: ['--reset', '--dry-run', '--verbose', '--trivial', '--aggressive', '--prefix', '--index-output', '--no-sparse-checkout', '--empty', '--quiet', '--recurse-submodules'], longWithArg: ['--index-output'], shortWithArg: '' },
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

/**
 * Programs git is routinely set to run (a pager, a diff viewer, an editor, Git LFS's filters, a
 * credential manager): a value naming one, with no shell syntax, is everyday configuration.
 */
export const GIT_EVERYDAY_COMMANDS = ['less', 'more', 'most', 'delta', 'diff-so-fancy', 'bat', 'cat', 'difft', 'git-lfs', 'code', 'vim', 'vi', 'nvim', 'nano', 'emacs', 'emacsclient', 'subl', 'mate', 'meld', 'vimdiff', 'nvimdiff', 'kdiff3', 'opendiff', 'bcompare', 'p4merge', 'smerge', 'gpg', 'gpg2', 'ssh', 'git-credential-manager', 'git-credential-manager-core', 'cache', 'osxkeychain', 'libsecret', 'manager', 'manager-core', 'wincred'];
export function everydayGitCommand(value: string): boolean {
  // Shell syntax, quoting, or an option that runs a command of its own (ssh -o ProxyCommand=…): not routine.
  if (/[;&|`$<>()'"]|^\s*!|Command\b|\b(?:sh|bash|zsh|python3?|node|perl|ruby)\b/i.test(value)) return false;
  const first = value.trim().split(/\s+/)[0]?.replace(/^["']|["']$/g, '') ?? '';
  return GIT_EVERYDAY_COMMANDS.includes(first.split('/').pop()!.replace(/\.exe$/i, ''));
}

/** Folders that hold generated output: `git clean -f -- dist/` removes only what a build made. */
/** Project folders where hook managers keep the team's committed git hooks (core.hooksPath set to one is routine). */
export const HOOK_MANAGER_DIRS = ['.husky', '.husky/_', '.githooks', '.git-hooks', 'githooks', '.lefthook', '.config/husky'];

export const BUILD_OUTPUT_DIRS = ['dist', 'build', 'out', 'output', 'tmp', 'temp', '.tmp', 'coverage', '.coverage', 'htmlcov', 'target', '.cache', 'cache', '.next', '.nuxt', '.turbo', '.parcel-cache', '.vite', '.svelte-kit', '.angular', '__pycache__', '.pytest_cache', '.mypy_cache', '.ruff_cache', '.tox', '.nox', 'node_modules', '.gradle', 'bin', 'obj', 'logs', 'log', 'reports', 'storybook-static', '.docusaurus', 'public/build', '.expo', '.dart_tool', 'DerivedData', '.build', 'lib-cov', '.nyc_output', 'artifacts', '.serverless', '.terraform', 'generated', '__generated__', 'gen', '.generated', 'codegen'];

// ---------------------------------------------------------------- config that changes a later push

/**
 * Config that changes what a later `git push` does, whether given by `git -c k=v`
 * or written earlier on the line (`git config [--local|--global] k v`, `git config set k v`,
 * `git remote add --mirror`). A push with no refspec then pushes these refspecs, or
 * mirrors, or force-pushes every matching branch (`*` is one subsection).
 */
export const GIT_PUSH_CONFIG: { key: string; effect: 'refspecs' | 'mirror' | 'matching' | 'remote' }[] = [
  { key: 'remote.*.push', effect: 'refspecs' },
  { key: 'remote.*.mirror', effect: 'mirror' },
  { key: 'push.default', effect: 'matching' },
  { key: 'remote.pushdefault', effect: 'remote' },
  { key: 'branch.*.pushremote', effect: 'remote' },
];

/** Keys the analyzer remembers from `git config` written earlier on the line (matched lowercased, `*` one subsection). */
export const GIT_LINE_CONFIG_KEYS = ['alias.*', 'remote.*.push', 'remote.*.mirror', 'remote.*.url', 'remote.*.pushurl', 'push.default', 'remote.pushdefault', 'branch.*.pushremote', 'protocol.allow', 'protocol.*.allow'];

/** Bounds of that per-line config map: keys kept, values kept per key. */
export const GIT_LINE_CONFIG_MAX = { keys: 64, values: 16 };

/** Plumbing that pushes: judged as `git push` (a send-pack with no ref updates every matching ref). */
export const GIT_PUSH_PLUMBING = ['send-pack', 'http-push'];

// ---------------------------------------------------------------- discarding local changes

/**
 * Commands that overwrite the working tree with another version: the options
 * that must all be given (`all`) or of which one is enough (`any`), after an
 * optional action operand. `git-discard-changes` is denied by the policy (the
 * whole tree, like reset --hard); `git-discard-paths` asks.
 */
export const GIT_WORKTREE_OVERWRITES: { sub: string; action?: string; all?: string[]; any?: string[]; rule: 'git-discard-changes' | 'git-discard-paths'; what: string }[] = [
  { sub: 'read-tree', all: ['--reset', '-u'], rule: 'git-discard-changes', what: 'git read-tree --reset -u overwrites the index and the working tree, local changes included (as reset --hard)' },
  { sub: 'read-tree', all: ['-m', '-u'], rule: 'git-discard-paths', what: 'git read-tree -m -u rewrites the working tree from other trees' },
  { sub: 'submodule', action: 'update', any: ['-f', '--force'], rule: 'git-discard-paths', what: 'git submodule update --force throws away local changes in the submodules' },
  { sub: 'submodule', action: 'deinit', any: ['-f', '--force'], rule: 'git-discard-paths', what: 'git submodule deinit --force removes submodule working trees with their local changes' },
];

/** A revision that is HEAD or an ancestor of it (`HEAD`, `@`, `HEAD~3`, `HEAD^2`): checking out paths from it discards their local changes. */
export const GIT_HEAD_REVISION = /^(?:HEAD|@)(?:[~^]\d*)*$/;

/** Names without an extension that are files (a pathspec with neither extension nor one of these may be a folder). */
export const GIT_FILE_NAMES = ['Makefile', 'GNUmakefile', 'Dockerfile', 'Containerfile', 'Jenkinsfile', 'Vagrantfile', 'Gemfile', 'Rakefile', 'Procfile', 'Brewfile', 'Pipfile', 'Justfile', 'justfile', 'Caddyfile', 'LICENSE', 'COPYING', 'NOTICE', 'README', 'CHANGELOG', 'AUTHORS', 'CODEOWNERS', 'VERSION', 'OWNERS', 'BUILD', 'WORKSPACE'];

// ---------------------------------------------------------------- transports that run commands

/**
 * URL forms whose "address" is a command git runs: `ext::CMD ARGS` (git-remote-ext:
 * split at blanks, `% ` a blank inside a word, `%%` a percent, `%s`/`%S` the
 * service name, a word starting `%G`/`%V` is not passed).
 */
export const GIT_COMMAND_URL_PREFIXES = ['ext::'];
export const GIT_EXT_ESCAPES: Record<string, string> = { '% ': ' ', '%%': '%', '%s': 'upload-pack', '%S': 'git-upload-pack' };

/** Config that lets any URL (a submodule's, a redirect's) use the ext:: transport: with no ext:: URL on the line, the command asks. */
export const GIT_EXT_ALLOW = { keys: ['protocol.ext.allow', 'protocol.allow'], value: /^always$/i, env: 'GIT_ALLOW_PROTOCOL', envValue: /(?:^|:)ext(?::|$)/ };

/** git subcommands that contact a remote by URL (their URLs may come from config or .gitmodules). */
export const GIT_FETCHING_SUBS = ['clone', 'fetch', 'pull', 'ls-remote', 'submodule', 'remote', 'archive', 'push', 'fetch-pack'];

// ---------------------------------------------------------------- GitHub / GitLab REST APIs through their CLIs

export type ForgeRule = 'git-delete-protected-branch' | 'git-force-push-protected' | 'git-force-push' | 'git-ref-delete' | 'forge-repo-delete' | 'forge-branch-protection' | 'forge-protection-change' | 'forge-visibility';

/**
 * `gh api` / `glab api` calls by (method, endpoint) → rule. Endpoints are matched
 * without a leading `/`, host or query; `{owner}`, `:id` and URL-encoded names
 * are one segment. `branch` is the capture holding a branch name (checked
 * against the protected branches: `protectedOnly` entries hit only then);
 * `field` must match a `-f/-F/--field/--raw-field k=v` (a body from --input is unknown: ask).
 */
export const FORGE_API_RULES: { cli: ('gh' | 'glab')[]; method: RegExp; path: RegExp; field?: RegExp; protectedOnly?: boolean; rule: ForgeRule; action: 'ask' | 'deny'; what: string }[] = [
  // GitHub
  { cli: ['gh'], method: /^DELETE$/, path: /^repos\/[^/]+\/[^/]+\/?$/, rule: 'forge-repo-delete', action: 'deny', what: 'deletes the repository' },
  { cli: ['gh'], method: /^DELETE$/, path: /^orgs\/[^/]+\/?$/, rule: 'forge-repo-delete', action: 'deny', what: 'deletes the organization and its repositories' },
  { cli: ['gh'], method: /^DELETE$/, path: /^repos\/[^/]+\/[^/]+\/git\/refs\/heads\/(?<branch>.+)$/, protectedOnly: true, rule: 'git-delete-protected-branch', action: 'deny', what: 'deletes a protected branch on GitHub' },
  { cli: ['gh'], method: /^DELETE$/, path: /^repos\/[^/]+\/[^/]+\/git\/refs\/tags\/.+$/, rule: 'git-ref-delete', action: 'deny', what: 'deletes a tag on GitHub' },
  { cli: ['gh'], method: /^(?:PATCH|POST|PUT)$/, path: /^repos\/[^/]+\/[^/]+\/git\/refs\/heads\/(?<branch>.+)$/, field: /^force=(?:true|1)$/i, protectedOnly: true, rule: 'git-force-push-protected', action: 'deny', what: 'force-moves a protected branch on GitHub (its commits are lost)' },
  { cli: ['gh'], method: /^(?:PATCH|POST|PUT)$/, path: /^repos\/[^/]+\/[^/]+\/git\/refs\/heads\/(?<branch>.+)$/, field: /^force=(?:true|1)$/i, rule: 'git-force-push', action: 'ask', what: 'force-moves a branch on GitHub (rewrites its history)' },
  { cli: ['gh'], method: /^(?:PATCH|POST|PUT)$/, path: /^repos\/[^/]+\/[^/]+\/git\/refs\/tags\/.+$/, field: /^force=(?:true|1)$/i, rule: 'git-force-push', action: 'ask', what: 'force-moves a tag on GitHub' },
  { cli: ['gh'], method: /^DELETE$/, path: /^repos\/[^/]+\/[^/]+\/branches\/(?<branch>[^/]+)\/protection(?:\/.*)?$/, rule: 'forge-branch-protection', action: 'deny', what: 'removes branch protection on GitHub' },
  { cli: ['gh'], method: /^(?:PUT|PATCH|POST)$/, path: /^repos\/[^/]+\/[^/]+\/branches\/(?<branch>[^/]+)\/protection(?:\/.*)?$/, rule: 'forge-protection-change', action: 'ask', what: 'changes branch protection on GitHub' },
  { cli: ['gh'], method: /^DELETE$/, path: /^(?:repos\/[^/]+\/[^/]+|orgs\/[^/]+)\/rulesets\/[^/]+$/, rule: 'forge-branch-protection', action: 'deny', what: 'deletes a ruleset (branch protection) on GitHub' },
  { cli: ['gh'], method: /^(?:PUT|PATCH)$/, path: /^(?:repos\/[^/]+\/[^/]+|orgs\/[^/]+)\/rulesets\/[^/]+$/, rule: 'forge-protection-change', action: 'ask', what: 'changes a ruleset (branch protection) on GitHub' },
  { cli: ['gh'], method: /^PATCH$/, path: /^repos\/[^/]+\/[^/]+\/?$/, field: /^(?:private=false|visibility=public)$/i, rule: 'forge-visibility', action: 'ask', what: 'makes the repository public' },
  // GitLab
  { cli: ['glab'], method: /^DELETE$/, path: /^(?:projects|groups)\/[^/]+\/?$/, rule: 'forge-repo-delete', action: 'deny', what: 'deletes the GitLab project or group' },
  { cli: ['glab'], method: /^DELETE$/, path: /^projects\/[^/]+\/repository\/branches\/(?<branch>.+)$/, protectedOnly: true, rule: 'git-delete-protected-branch', action: 'deny', what: 'deletes a protected branch on GitLab' },
  { cli: ['glab'], method: /^DELETE$/, path: /^projects\/[^/]+\/repository\/merged_branches\/?$/, rule: 'git-ref-delete', action: 'deny', what: 'deletes every merged branch on GitLab' },
  { cli: ['glab'], method: /^DELETE$/, path: /^projects\/[^/]+\/repository\/tags\/.+$/, rule: 'git-ref-delete', action: 'deny', what: 'deletes a tag on GitLab' },
  { cli: ['glab'], method: /^DELETE$/, path: /^projects\/[^/]+\/protected_(?:branches|tags)\/.+$/, rule: 'forge-branch-protection', action: 'deny', what: 'unprotects a branch on GitLab' },
  { cli: ['glab'], method: /^(?:PATCH|PUT|POST)$/, path: /^projects\/[^/]+\/protected_branches(?:\/.+)?$/, field: /^allow_force_push=(?:true|1)$/i, rule: 'forge-branch-protection', action: 'deny', what: 'allows force pushes to a protected branch on GitLab' },
  { cli: ['glab'], method: /^PUT$/, path: /^projects\/[^/]+\/?$/, field: /^visibility=public$/i, rule: 'forge-visibility', action: 'ask', what: 'makes the GitLab project public' },
];

/** GraphQL mutations sent by `gh api graphql` / `glab api graphql` → rule. */
export const FORGE_GRAPHQL_RULES: { mutation: RegExp; rule: ForgeRule; action: 'ask' | 'deny'; what: string }[] = [
  { mutation: /\bdeleteBranchProtectionRule\b|\bdeleteRepositoryRuleset\b/, rule: 'forge-branch-protection', action: 'deny', what: 'removes branch protection' },
  { mutation: /\bupdateBranchProtectionRule\b|\bupdateRepositoryRuleset\b/, rule: 'forge-protection-change', action: 'ask', what: 'changes branch protection' },
  { mutation: /\bdeleteRef\b/, rule: 'git-ref-delete', action: 'deny', what: 'deletes a ref (which one is only known by its node id)' },
  { mutation: /\bupdateRefs?\b[\s\S]*\bforce\s*:\s*true/, rule: 'git-force-push', action: 'ask', what: 'force-moves a ref' },
  { mutation: /\bprojectDelete\b|\bgroupDelete\b/, rule: 'forge-repo-delete', action: 'deny', what: 'deletes a project or group' },
];

/** Forge CLI subcommands (not api) → rule: `gh repo delete`, `glab repo delete`, making a repository public. */
export const FORGE_COMMANDS: { cli: string; sub: string[]; /** Tested on the rest of the command line, joined by blanks. */ rest?: RegExp; rule: ForgeRule; action: 'ask' | 'deny'; what: string }[] = [
  { cli: 'gh', sub: ['repo', 'delete'], rule: 'forge-repo-delete', action: 'deny', what: 'gh repo delete deletes the repository' },
  { cli: 'glab', sub: ['repo', 'delete'], rule: 'forge-repo-delete', action: 'deny', what: 'glab repo delete deletes the project' },
  { cli: 'gh', sub: ['release', 'delete'], rest: /(?:^| )--cleanup-tag(?: |=true|$)/, rule: 'git-ref-delete', action: 'deny', what: 'gh release delete --cleanup-tag deletes the release tag on the remote' },
  { cli: 'glab', sub: ['release', 'delete'], rest: /(?:^| )(?:-t|--with-tag)(?: |=true|$)/, rule: 'git-ref-delete', action: 'deny', what: 'glab release delete --with-tag deletes the release tag on the remote' },
  { cli: 'gh', sub: ['repo', 'edit'], rest: /(?:^| )--vis[a-z]*(?:=| )public(?: |$)/, rule: 'forge-visibility', action: 'ask', what: 'gh repo edit --visibility public makes the repository public' },
];

/** `gh api` / `glab api` options that take the next word (the endpoint is the first other operand). */
export const FORGE_API_WITH_ARG = ['-X', '--method', '-H', '--header', '-f', '--raw-field', '-F', '--field', '--input', '-q', '--jq', '-t', '--template', '--hostname', '--cache', '-p', '--preview'];
/** Options that give body fields (their presence makes the default method POST). */
export const FORGE_API_FIELDS = ['-f', '--raw-field', '-F', '--field'];

/** A config key against a table pattern: `pager.*` (any variable of the section), `filter.*.clean` (any subsection). */
export function keyMatches(pattern: string, key: string): boolean {
  const p = pattern.split('.');
  const k = key.split('.');
  if (p.length === 2 && p[1] === '*') return k.length >= 2 && k[0] === p[0];
  if (p.length === 3 && p[1] === '*') return k.length >= 3 && k[0] === p[0] && k[k.length - 1] === p[2];
  return pattern === key;
}
