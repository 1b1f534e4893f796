// Where things live that the guard protects: system folders, temp folders,
// loom's own files, the harnesses' hook settings and settings folders, the
// parts of .git that hold history, and the files a shell reads at login.
// Tables only; path-rules.ts and the families read them, docs/guard.md lists them.
import { HOOK_SETTINGS_HOME, HOOK_SETTINGS_PROJECT } from '../../../contract/hook-settings';

/** Top-level folders of the operating system: a recursive delete there is a wipe. */
export const SYSTEM_DIRS = ['/bin', '/boot', '/dev', '/etc', '/lib', '/lib32', '/lib64', '/opt', '/proc', '/root', '/sbin', '/srv', '/sys', '/usr', '/var', '/home', '/Users', '/System', '/Library', '/Applications', '/snap', '/mnt', '/media', '/private', '/cores', '/Volumes', '/nix'];

/** Folders where a recursive delete of their contents (not the folder itself) is everyday work. */
export const TEMP_DIRS = ['/tmp', '/var/tmp', '/private/tmp', '/dev/shm'];

/** Caches under the home folder (relative to it): deleting in them is everyday work, like the temp folder. */
export const HOME_CACHE_DIRS = ['.cache', '.npm/_cacache', '.npm/_npx', '.npm/_logs', '.npm/_prebuilds', '.npm/_update-notifier-last-checked', '.m2/repository', '.gradle/caches', '.cargo/registry', '.cargo/git', 'Library/Caches', '.pnpm-store', '.local/share/pnpm/store', '.yarn/cache', '.yarn/berry/cache', '.bun/install/cache', 'go/pkg/mod', '.nuget/packages', '.conda/pkgs', '.ivy2/cache', '.sbt/boot', '.cache/pip', '.deno', '.node-gyp', '.electron', '.local/share/Trash', '.pub-cache', '.composer/cache', '.terraform.d/plugin-cache',
  // Virtual environments the tools keep per project (pipenv, virtualenvwrapper, poetry): rebuilt from the project's lock file.
  '.local/share/virtualenvs', '.virtualenvs', '.cache/pypoetry/virtualenvs'];

/** Hook settings files, relative to the project and to the home folder: changing one can switch the guard off (per harness: contract/hook-settings.ts). */
export const HOOK_SETTINGS_FILES = [
  ...new Set([
    '.claude/settings.json', '.claude/settings.local.json', '.codex/hooks.json', '.codex/config.toml', '.gemini/settings.json', '.cursor/hooks.json',
    '.opencode/plugins', 'opencode.json', '.qwen/settings.json', '.factory/settings.json', '.kilo/plugins', '.kilocode/plugins', '.github/hooks',
    ...HOOK_SETTINGS_PROJECT,
    ...HOOK_SETTINGS_HOME,
  ]),
];

/** Harness settings folders: removing or moving one of them as a whole takes its hooks with it. */
export const HARNESS_FOLDERS = ['.claude', '.codex', '.gemini', '.cursor', '.opencode', '.github/hooks', '.qwen', '.factory', '.kilo', '.kilocode'];

/** Where loom itself is installed in a project (its package and the `loom` command): changing or removing them switches the guard off. */
/** loom's state folder in the home folder, per platform (checkpoint copies and witnesses outside every project): relative to home. */
export const STATE_FOLDERS_OF_LOOM = ['.local/state/loom', 'Library/Application Support/loom', 'AppData/Local/loom'];
export const LOOM_PACKAGE_PATHS = ['node_modules/loom-governance', 'node_modules/.bin/loom', 'node_modules/.bin/loom.cmd', 'node_modules/.bin/loom.ps1'];
/** loom's package name: removing it with a package manager uninstalls the guard. */
export const LOOM_PACKAGE = 'loom-governance';

/** loom's state folder in the project. */
export const LOOM_DIR = '.loom';

/** loom's files in a project, relative to it: what a glob over `.loom` (`.lo?m/policy.json`) is tried against. */
export const LOOM_PROJECT_FILES = ['.loom/policy.json', '.loom/compliance', '.loom/compliance/ledger.db', '.loom/compliance/journal.log', '.loom/compliance/history.json', '.loom/compliance/chain.json', '.loom/compliance/checkpoints.jsonl', '.loom/backups'];

/** File names under .loom (and .git) that a name filter such as `find -name` can reach. */
export const LOOM_FILE_NAMES = ['.loom', 'compliance', 'ledger.db', 'ledger.db-wal', 'ledger.db-shm', 'chain.json', 'history.json', 'checkpoints.jsonl', 'policy.json', 'settings.json', 'settings.local.json', 'hooks.json', 'config.toml'];

/**
 * loom's file names that a name filter reaches only when it names them (`find . -name journal.log -delete`): a
 * pattern over a common kind of file (`-name '*.log'`, a log cleanup) is not taken to mean them.
 */
export const EXACT_LOOM_NAMES = ['journal.log', 'journal.lock'];

/** Entries of .git whose loss destroys history (deleting .git/index.lock or .git/hooks does not). */
export const GIT_HISTORY_ENTRIES = ['objects', 'refs', 'packed-refs', 'HEAD', 'logs'];

/** Names found inside .git that a name filter can reach. */
export const GIT_SAMPLE_NAMES = ['.git', 'objects', 'refs', 'HEAD', 'packed-refs', 'index', 'config', 'ORIG_HEAD', 'pack-4b825dc642cb6eb9a060e54bf8d69288fbee4904.pack', 'pack-4b825dc642cb6eb9a060e54bf8d69288fbee4904.idx', '4b', '825dc642cb6eb9a060e54bf8d69288fbee4904', 'main', 'master'];

/** Files a shell or login runs on its own: writing them is persistence (ask). Relative to home unless absolute. */
export const PERSISTENCE_FILES = [
  '.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout', '.config/fish/config.fish', '.config/fish/conf.d', '.config/fish/functions', '.ssh/authorized_keys', '.ssh/authorized_keys2', '.ssh/rc', '.ssh/config',
  '.vimrc', '.exrc', '.gvimrc', '.vim/plugin', '.config/nvim/init.lua', '.config/nvim/init.vim', '.config/nvim/plugin', '.tmux.conf', '.config/tmux/tmux.conf', '.screenrc', '.inputrc', '.emacs', '.emacs.d/init.el', '.config/environment.d', '.xsession', '.xsessionrc', '.gitconfig', '.config/git/config', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pythonrc', '.config/containers/systemd', '.config/upstart', 'Library/LaunchDaemons', 'Library/StartupItems',
  '.config/autostart', '.config/systemd/user', 'Library/LaunchAgents', '.xprofile', '.xinitrc', '.pam_environment', '/etc/profile', '/etc/profile.d', '/etc/bash.bashrc', '/etc/zshrc', '/etc/cron.d', '/etc/crontab', '/etc/systemd/system', '/etc/rc.local', '/etc/ld.so.preload', '/var/spool/cron',
];

/**
 * Of PERSISTENCE_FILES, those whose content is shell code a shell runs later (its start-up files; git hooks, by their
 * `#!` line): writing them is `persistence` (ask) as for the others, and what the line writes into them is judged
 * as the code it will run too, so `rm -rf ~` appended to .bashrc is that delete (deny).
 */
export const STARTUP_SCRIPTS = ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.bash_aliases', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout', '.xprofile', '.xinitrc', '.xsession', '.xsessionrc', '/etc/profile', '/etc/profile.d', '/etc/bash.bashrc', '/etc/zshrc'];

/** The account's own settings files in the home folder: deleted or emptied, what they held is kept nowhere else (`destroy-outside-project`, deny). */
export const ACCOUNT_SETTINGS_FILES = ['.bashrc', '.bash_profile', '.bash_login', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.config/fish/config.fish', '.gitconfig', '.config/git/config', '.ssh/config', '.vimrc', '.config/nvim/init.lua', '.config/nvim/init.vim', '.tmux.conf', '.inputrc', '.emacs', '.emacs.d/init.el', '.npmrc', '.pam_environment'];

/** Files in a repository's .git (besides its history) whose settings run commands or say where pushes go: written by anything but git, `persistence` (ask). */
export const GIT_SETTINGS_FILES = ['config', 'config.worktree', 'info/attributes', 'hooks'];

/** Folders early on PATH (relative to home unless absolute): a file there named like a common command runs instead of it. */
export const PATH_DIRS = ['.local/bin', 'bin', '.cargo/bin', 'go/bin', '.npm-global/bin', '.bun/bin', '/usr/local/bin', '/usr/local/sbin'];
/** Commands a planted look-alike on PATH would shadow (every later `git push` or `sudo` runs the look-alike). */
export const SHADOWED_COMMANDS = ['git', 'ssh', 'scp', 'sudo', 'su', 'doas', 'ls', 'cat', 'cd', 'cp', 'mv', 'rm', 'ps', 'kill', 'env', 'which', 'bash', 'sh', 'zsh', 'python', 'python3', 'pip', 'pip3', 'node', 'npm', 'npx', 'yarn', 'pnpm', 'curl', 'wget', 'docker', 'kubectl', 'gpg', 'gh', 'aws', 'gcloud', 'az', 'make', 'gcc', 'cc', 'go', 'cargo', 'java', 'ruby', 'perl', 'tar', 'openssl', 'passwd', 'login', 'less', 'vim', 'vi', 'code', 'grep', 'find', 'id', 'whoami', 'ssh-agent', 'ssh-add', 'loom'];

/** File names that run on their own wherever they land: Python's start-up hooks in a site folder. */
export const PERSISTENCE_NAMES = /^(?:usercustomize\.py|sitecustomize\.py|[\w.-]+\.pth)$/;

/** Inside any repository: hooks git runs on its own. */
export const GIT_HOOKS_DIR = '.git/hooks';

/**
 * Folders whose files belong to the operating system: emptying, shredding or
 * (with privileges) deleting one of them breaks the machine, not the project
 * (deny). `/usr/local` and `/opt` hold what the user installed; removing that is not covered.
 */
export const SYSTEM_FILE_DIRS = ['/etc', '/boot', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/usr', '/var', '/root', '/System', '/Library', '/private/etc', '/private/var', '/proc', '/sys'];
export const SYSTEM_FILE_EXCEPTIONS = ['/usr/local', '/var/tmp', '/var/folders', '/private/var/folders', '/var/lib/docker/tmp'];

/** Programs that overwrite a file's content in place before (optionally) removing it: shredding a file outside the project is a deny. */
export const CONTENT_DESTROYERS = ['shred', 'srm', 'wipe', 'scrub'];

/**
 * Folders a bare command name is looked up in when the line has not set PATH
 * (`~/` is the home folder, a relative folder is under the working folder):
 * a file written or downloaded there earlier on the line runs by its name.
 */
export const DEFAULT_PATH_DIRS = ['~/.local/bin', '~/bin', '~/.cargo/bin', '~/go/bin', '/usr/local/bin', '/usr/local/sbin', '/usr/bin', '/bin', '/usr/sbin', '/sbin', '/opt/homebrew/bin', 'node_modules/.bin'];
