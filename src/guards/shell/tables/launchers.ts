// Programs that run another command, as data (issue 12 §1.2): which option
// or operand of each holds the command, and in which language it is
// written. `launchers.ts` reads these tables; the analyzer then judges the
// launched command as a shell script (static text), or asks when it is only
// known at run time.

/** How a value given to git (a config key, an environment variable) is run. */
export type GitValueRuns =
  /** Run by a shell (`sh -c VALUE ...`). */
  | 'sh'
  /** A shell script after a leading `!`, otherwise a git command (alias.*). */
  | 'alias'
  /** `!script` runs a shell; an absolute path is a program; a bare name is `git credential-NAME`. */
  | 'helper'
  /** A boolean or a hook command (core.fsmonitor, pager.*). */
  | 'sh-unless-bool'
  /** A folder whose hooks run (core.hooksPath). */
  | 'hooks-dir';

/** git config keys whose value git runs (matched lowercased; `*` is one subsection). */
export const GIT_RUN_KEYS: [key: string, runs: GitValueRuns][] = [
  ['core.sshcommand', 'sh'],
  ['core.editor', 'sh'],
  ['core.pager', 'sh'],
  ['core.askpass', 'sh'],
  ['core.gitproxy', 'sh'],
  ['core.fsmonitor', 'sh-unless-bool'],
  ['core.hookspath', 'hooks-dir'],
  ['sequence.editor', 'sh'],
  ['diff.external', 'sh'],
  ['diff.*.textconv', 'sh'],
  ['diff.*.command', 'sh'],
  ['merge.*.driver', 'sh'],
  ['filter.*.clean', 'sh'],
  ['filter.*.smudge', 'sh'],
  ['filter.*.process', 'sh'],
  ['difftool.*.cmd', 'sh'],
  ['mergetool.*.cmd', 'sh'],
  ['browser.*.cmd', 'sh'],
  ['gpg.program', 'sh'],
  ['gpg.*.program', 'sh'],
  ['gpg.ssh.defaultkeycommand', 'sh'],
  ['uploadpack.packobjectshook', 'sh'],
  ['remote.*.uploadpack', 'sh'],
  ['remote.*.receivepack', 'sh'],
  ['sendemail.sendmailcmd', 'sh'],
  ['credential.helper', 'helper'],
  ['credential.*.helper', 'helper'],
  ['pager.*', 'sh-unless-bool'],
  ['alias.*', 'alias'],
];

/** Environment variables whose value git (or ssh under git) runs. */
export const GIT_RUN_ENV: Record<string, GitValueRuns> = {
  GIT_SSH_COMMAND: 'sh',
  GIT_SSH: 'sh',
  GIT_EDITOR: 'sh',
  GIT_SEQUENCE_EDITOR: 'sh',
  GIT_PAGER: 'sh',
  GIT_EXTERNAL_DIFF: 'sh',
  GIT_ASKPASS: 'sh',
  SSH_ASKPASS: 'sh',
  GIT_PROXY_COMMAND: 'sh',
  EDITOR: 'sh',
  VISUAL: 'sh',
  PAGER: 'sh',
};

/** Subcommand options whose value is a shell command (long names; any unambiguous prefix; short letters). */
export const GIT_RUN_OPTIONS: Record<string, { long: string[]; short?: string; gluedOnly?: string }> = {
  rebase: { long: ['--exec'], short: 'x' },
  difftool: { long: ['--extcmd'], short: 'x' },
  grep: { long: ['--open-files-in-pager'], gluedOnly: 'O' },
  push: { long: ['--receive-pack', '--exec'] },
  fetch: { long: ['--upload-pack'] },
  pull: { long: ['--upload-pack'] },
  clone: { long: ['--upload-pack'], short: 'u' },
  'ls-remote': { long: ['--upload-pack', '--exec'] },
  archive: { long: ['--exec'] },
  'filter-branch': { long: ['--env-filter', '--tree-filter', '--index-filter', '--parent-filter', '--msg-filter', '--commit-filter', '--tag-name-filter'] },
};

/** Subcommands whose operands are a command: argv (bisect run) or words joined for a shell (submodule foreach). */
export const GIT_RUN_OPERANDS: Record<string, { after: string[]; joined: boolean; flags: string[] }> = {
  'bisect run': { after: ['bisect', 'run'], joined: false, flags: [] },
  'submodule foreach': { after: ['submodule', 'foreach'], joined: true, flags: ['--recursive', '--quiet', '-q'] },
};

/** Hooks git runs itself (a file of this name written on the line runs when a git command follows). */
export const GIT_HOOKS = ['applypatch-msg', 'pre-applypatch', 'post-applypatch', 'pre-commit', 'pre-merge-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-rebase', 'post-checkout', 'post-merge', 'pre-push', 'pre-receive', 'update', 'post-receive', 'post-update', 'reference-transaction', 'push-to-checkout', 'pre-auto-gc', 'post-rewrite', 'sendemail-validate', 'fsmonitor-watchman', 'post-index-change'];

/** Editors whose ex commands run shell commands (`!cmd`, `system()`); the options that give ex commands. */
export const EX_EDITORS: Record<string, { cmd: string[]; clusterC: boolean; plus: boolean; stdin: 'always' | 'with-e' }> = {
  vim: { cmd: ['-c', '--cmd'], clusterC: true, plus: true, stdin: 'with-e' },
  vi: { cmd: ['-c', '--cmd'], clusterC: true, plus: true, stdin: 'with-e' },
  nvim: { cmd: ['-c', '--cmd'], clusterC: true, plus: true, stdin: 'with-e' },
  gvim: { cmd: ['-c', '--cmd'], clusterC: true, plus: true, stdin: 'with-e' },
  vimdiff: { cmd: ['-c', '--cmd'], clusterC: true, plus: true, stdin: 'with-e' },
  view: { cmd: ['-c', '--cmd'], clusterC: true, plus: true, stdin: 'with-e' },
  rvim: { cmd: [], clusterC: false, plus: false, stdin: 'with-e' },
  ex: { cmd: ['-c', '--cmd'], clusterC: true, plus: true, stdin: 'always' },
  ed: { cmd: [], clusterC: false, plus: false, stdin: 'always' },
  vis: { cmd: [], clusterC: false, plus: false, stdin: 'with-e' },
};

/** Ex commands that hand their argument to another language's interpreter (its one-liner form). */
export const EX_LANG: Record<string, string[]> = {
  py: ['python3', '-c'], py3: ['python3', '-c'], python: ['python3', '-c'], python3: ['python3', '-c'], pyx: ['python3', '-c'], pythonx: ['python3', '-c'],
  lua: ['lua', '-e'], perl: ['perl', '-e'], ruby: ['ruby', '-e'], rub: ['ruby', '-e'], tcl: ['tclsh'],
};

/** Debuggers: options whose value is a debugger command, and the debugger commands that run a shell. */
export const DEBUGGERS: Record<string, { cmd: string[]; file: string[]; shell: string[]; python: string[] }> = {
  gdb: { cmd: ['-ex', '--ex', '-eval-command', '--eval-command', '-iex', '--iex', '-init-eval-command', '--init-eval-command'], file: ['-x', '--x', '-command', '--command', '-ix', '--init-command'], shell: ['shell', '!', 'pipe', '|'], python: ['python', 'py', 'python-interactive', 'pi'] },
  'gdb-multiarch': { cmd: ['-ex', '--ex', '-eval-command', '--eval-command', '-iex', '--iex'], file: ['-x', '--x', '-command', '--command'], shell: ['shell', '!', 'pipe', '|'], python: ['python', 'py'] },
  cgdb: { cmd: ['-ex', '--ex', '-eval-command', '--eval-command'], file: ['-x', '--command'], shell: ['shell', '!'], python: ['python', 'py'] },
  lldb: { cmd: ['-o', '--one-line', '-O', '--one-line-before-file', '-k', '--one-line-on-crash'], file: ['-s', '--source', '-S', '--source-before-file'], shell: ['platform shell', 'shell'], python: ['script'] },
};

/**
 * Programs that run a command (or a program) given in an option, an environment variable or, for make, a
 * variable on its command line (`make SHELL=/tmp/sh`): pagers and viewers, editors tools open, the shell npm
 * runs scripts with, the remote shell scp and rsync start.
 */
export const COMMAND_OPTIONS: Record<string, { opts: string[]; env: string[]; words?: string[] }> = {
  man: { opts: ['-P', '--pager', '-H', '--html'], env: ['MANPAGER', 'PAGER', 'BROWSER'] },
  less: { opts: [], env: ['LESSOPEN', 'LESSCLOSE', 'VISUAL', 'EDITOR'] },
  more: { opts: [], env: ['VISUAL', 'EDITOR'] },
  git: { opts: [], env: [] },
  journalctl: { opts: [], env: ['SYSTEMD_PAGER'] },
  systemctl: { opts: [], env: ['SYSTEMD_PAGER', 'SYSTEMD_EDITOR', 'EDITOR', 'VISUAL'] },
  crontab: { opts: [], env: ['EDITOR', 'VISUAL'] },
  visudo: { opts: [], env: ['EDITOR', 'VISUAL', 'SUDO_EDITOR'] },
  sudoedit: { opts: [], env: ['EDITOR', 'VISUAL', 'SUDO_EDITOR'] },
  kubectl: { opts: [], env: ['KUBE_EDITOR', 'EDITOR'] },
  psql: { opts: [], env: ['PAGER', 'PSQL_PAGER', 'PSQL_EDITOR', 'EDITOR'] },
  mysql: { opts: ['--pager'], env: ['PAGER'] },
  gh: { opts: [], env: ['GH_EDITOR', 'GIT_EDITOR', 'VISUAL', 'EDITOR', 'GH_PAGER', 'PAGER', 'GH_BROWSER', 'BROWSER'] },
  glab: { opts: [], env: ['GLAB_EDITOR', 'VISUAL', 'EDITOR', 'GLAB_PAGER', 'PAGER', 'BROWSER'] },
  npm: { opts: ['--script-shell'], env: ['npm_config_script_shell', 'NPM_CONFIG_SCRIPT_SHELL'] },
  pnpm: { opts: ['--script-shell'], env: ['npm_config_script_shell', 'NPM_CONFIG_SCRIPT_SHELL'] },
  yarn: { opts: [], env: ['npm_config_script_shell'] },
  scp: { opts: ['-S'], env: [] },
  split: { opts: ['--filter'], env: [] },
  rsync: { opts: ['-e', '--rsh'], env: ['RSYNC_RSH'] },
  make: { opts: [], env: [], words: ['SHELL'] },
  gmake: { opts: [], env: [], words: ['SHELL'] },
  svn: { opts: ['--editor-cmd'], env: ['SVN_EDITOR', 'VISUAL', 'EDITOR'] },
  hg: { opts: [], env: ['HGEDITOR', 'VISUAL', 'EDITOR', 'PAGER'] },
};

/** Emacs Lisp functions run under `emacs --batch --eval`: what each one does with its arguments. */
export const ELISP_CALLS: Record<string, 'shell' | 'argv' | 'argv-after-3' | 'argv-after-2' | 'delete-dir' | 'delete-file' | 'read'> = {
  'shell-command': 'shell',
  'shell-command-to-string': 'shell',
  'async-shell-command': 'shell',
  'call-process-shell-command': 'shell',
  'process-lines': 'argv',
  'call-process': 'argv-after-3',
  'process-file': 'argv-after-3',
  'start-process': 'argv-after-2',
  'delete-directory': 'delete-dir',
  'delete-file': 'delete-file',
  'move-file-to-trash': 'delete-file',
  'insert-file-contents': 'read',
  'find-file': 'read',
};

/** Tcl commands (expect scripts) that run a program: `spawn`/`exec` take argv, `system` a shell text. */
export const TCL_RUNS: Record<string, 'argv' | 'joined'> = { spawn: 'argv', exec: 'argv', system: 'joined', open: 'argv' };

/** Recipe runners: the options that name the recipe file or give recipe text, and those that set the folder recipes run in (`make -C DIR`: the file is read there too). */
/** The recipe-file formats loom reads the commands of. */
export type RecipeFormat = 'make' | 'just' | 'task' | 'ninja';

export const RECIPE_RUNNERS: Record<string, { file: string[]; eval: string[]; chdir: string[]; format: RecipeFormat }> = {
  make: { file: ['-f', '--file', '--makefile'], eval: ['--eval', '-E'], chdir: ['-C', '--directory'], format: 'make' },
  gmake: { file: ['-f', '--file', '--makefile'], eval: ['--eval', '-E'], chdir: ['-C', '--directory'], format: 'make' },
  bmake: { file: ['-f'], eval: [], chdir: ['-C'], format: 'make' },
  just: { file: ['-f', '--justfile'], eval: [], chdir: ['-d', '--working-directory'], format: 'just' },
  task: { file: ['-t', '--taskfile'], eval: [], chdir: ['-d', '--dir'], format: 'task' },
  'go-task': { file: ['-t', '--taskfile'], eval: [], chdir: ['-d', '--dir'], format: 'task' },
  // build.ninja's rules: each `command =` runs through /bin/sh -c.
  ninja: { file: ['-f'], eval: [], chdir: ['-C'], format: 'ninja' },
  samu: { file: ['-f'], eval: [], chdir: ['-C'], format: 'ninja' },
};

/** ssh: short options that take a value, and those after which no command runs. */
export const SSH_GRAMMAR = { withArg: 'BbcDEeFIiJLlmOoPpQRSWw', noCommand: 'NGQVW', names: ['ssh', 'autossh', 'mosh'] };

/** Names of this machine: a command sent there runs here. */
export const LOCAL_HOSTS = ['localhost', '127.0.0.1', '::1', 'ip6-localhost', '0.0.0.0', '127.1', '0'];

/** Container runners: `run`/`exec` subcommands, and long options that take no value (all others take one). */
export const CONTAINER_RUNNERS = {
  names: ['docker', 'podman', 'nerdctl'],
  run: ['run', 'exec', 'container run', 'container exec', 'create'],
  shortWithArg: 'acehlmpuvw',
  longNoArg: ['--rm', '--privileged', '--init', '--read-only', '--tty', '--interactive', '--detach', '--no-healthcheck', '--oom-kill-disable', '--publish-all', '--help', '--quiet', '--replace', '--rmi', '--disable-content-trust', '--sig-proxy', '--no-hosts', '--http-proxy', '--tls-verify', '--privileged=true', '--interactive=true', '--tty=true'],
  volume: ['-v', '--volume'],
  mount: ['--mount'],
  workdir: ['-w', '--workdir'],
};

/** Cluster and VM exec commands: the argv after `--` runs on the target (judged as a script there). */
export const REMOTE_EXEC: Record<string, string[]> = {
  kubectl: ['exec', 'debug', 'run', 'attach'],
  oc: ['exec', 'debug', 'run', 'rsh'],
  'minikube ssh': [],
  'multipass exec': [],
  'lxc exec': [],
  'vagrant ssh': [],
  'gcloud compute ssh': [],
  'incus exec': [],
};

/**
 * Programs that send a shell command line to other machines (or this one, or a VM whose shared folder is the
 * project) in an option or an operand: `vagrant ssh -c CMD`, `ansible HOSTS -m shell -a CMD`, `salt '*' cmd.run CMD`,
 * `pssh -h hosts CMD`. The text is judged as the script it is; where it runs does not make a delete harmless.
 * `opts`: options whose value is the command; `when`: the argv (joined) must match (ansible's command modules);
 * `afterSub`: the operand after one of these is the command; `lastOperand`: the last operand is.
 * `absent`: ansible's file module with `state=absent` deletes its `path=` (judged as `rm -rf` of it).
 */
export const REMOTE_COMMANDS: Record<string, { opts?: string[]; when?: RegExp; afterSub?: string[]; lastOperand?: boolean; valueOpts?: string; absent?: boolean }[]> = {
  'vagrant ssh': [{ opts: ['-c', '--command'] }],
  'gcloud compute ssh': [{ opts: ['--command'] }],
  ansible: [
    { opts: ['-a', '--args'], when: /(?:^|\s)(?:-m|--module-name)(?:[ =]|(?=\w))(?:ansible\.builtin\.|ansible\.windows\.|ansible\.legacy\.)?(?:shell|command|raw|script|win_shell|win_command)(?:\s|$)/ },
    { opts: ['-a', '--args'], when: /(?:^|\s)(?:-m|--module-name)(?:[ =]|(?=\w))(?:ansible\.builtin\.)?file(?:\s|$)/, absent: true },
  ],
  salt: [{ afterSub: ['cmd.run', 'cmd.shell', 'cmd.run_all', 'cmd.run_stdout', 'cmd.run_bg', 'cmd.powershell'] }],
  'salt-ssh': [{ afterSub: ['cmd.run', 'cmd.shell', 'cmd.run_all', 'cmd.run_stdout'] }, { opts: ['-r', '--raw', '--raw-shell'] }],
  'salt-call': [{ afterSub: ['cmd.run', 'cmd.shell', 'cmd.run_all', 'cmd.run_stdout'] }],
  pssh: [{ lastOperand: true, valueOpts: 'hHlptoexXO' }],
  'parallel-ssh': [{ lastOperand: true, valueOpts: 'hHlptoexXO' }],
  pdsh: [{ lastOperand: true, valueOpts: 'wxlufRtgXNoM' }],
  clush: [{ lastOperand: true, valueOpts: 'wxgXlftuoRE' }],
  dsh: [{ lastOperand: true, valueOpts: 'mgfForo' }],
};

/** Options of `npm`/`pnpm` that set a package script (then runnable by name). */
export const SCRIPT_SETTERS: Record<string, string[][]> = {
  npm: [['pkg', 'set'], ['set-script']],
  pnpm: [['pkg', 'set']],
  yarn: [['pkg', 'set']],
  // composer config scripts.post-install-cmd 'CMD': run by the next composer install / update.
  composer: [['config']],
};
