// Commands that run another command, as data: for each wrapper, its option
// grammar (which options take an argument, which option's argument is a
// shell script), how many operands come before the wrapped command, and how
// the wrapped command is given (as argv, as words joined into a shell
// script, as keys typed into a shell, as a script on stdin). The analyzer
// reads this table; docs/guard.md's wrapper table is generated from it
// (npm run docs, checked by test/guard-docs.test.ts).

export type Runs =
  /** The rest of the words are the wrapped command's argv. */
  | 'argv'
  /** The rest of the words are joined with spaces and run by a shell (watch, tmux new-session). */
  | 'joined'
  /** The rest are keys typed into a shell (tmux send-keys): joined as typed, Enter is a newline. */
  | 'keys'
  /** The first operand is a shell script (trap 'cmd' EXIT, sg group 'cmd'). */
  | 'code-operand'
  /** The script comes on stdin (at, batch) or from -f FILE. */
  | 'stdin'
  /** Every operand is a shell script of its own (concurrently "a" "b"). */
  | 'each-code'
  /** Nothing is run unless a code option is given (su without -c opens a shell). */
  | 'none';

export interface WrapperSpec {
  /** Command names (and, after a space, the subcommand words that must follow: "npm exec"). */
  names: string[];
  runs: Runs;
  /** Short options that take an argument (next word, or glued: -uroot). */
  shortArg?: string;
  /** Long options that take an argument (next word, or after `=`). */
  longArg?: string[];
  /** Long options that take two arguments (bwrap --bind SRC DEST). */
  longArg2?: string[];
  /** An operand before the command that is there only when it has this shape (runcon CONTEXT: has a colon). */
  optionalOperand?: string;
  /** Options whose argument is a shell script (su -c, script -c, flock -c). */
  codeShort?: string;
  codeLong?: string[];
  /** Options after which the rest of the words are the wrapped argv (nix develop -c, runuser -u is not one). */
  argvAfter?: string[];
  /** Options that mean nothing is run (command -v, sudo -l). */
  noRun?: string[];
  /** Operands before the wrapped command (timeout DURATION, chroot DIR, flock FILE). */
  operands?: number;
  /** A lone `-` is an option (su - USER: a login shell), not an operand. */
  dashOption?: boolean;
  /** Options may follow the operands (GNU argument permutation: flock FILE -c CMD, su USER -c CMD). */
  permute?: boolean;
  /** NAME=VALUE words before the command are environment settings (env, cross-env). */
  assignments?: boolean;
  /** The first word of the wrapped command is a package spec (npx rimraf@5): its version is dropped. */
  packageSpec?: boolean;
  /** Words put before the wrapped argv (capsh -- ARGS runs `bash ARGS`). */
  prefix?: string[];
  /** After the operands, any words left are the wrapped argv (BSD `script -q FILE CMD`); with none, `runs` decides. */
  argvAfterOperands?: boolean;
  /** Words before a later `--` are the wrapper's own (tool specs: `mise exec node@20 python@3 -- CMD`). */
  untilDashDash?: boolean;
  /**
   * Options whose argument is the program to run (`start-stop-daemon --exec PROG -- ARGS`, `flatpak run --command=PROG APP ARGS`);
   * its arguments are the words after `--`, or after the first operand.
   */
  programOption?: { opts: string[]; args: 'after-dashdash' | 'after-operand' };
  /** Options whose argument is the folder the wrapped command runs in (`env -C DIR`, `--chdir=DIR`): its relative paths are resolved there. */
  chdir?: string[];
  /** The wrapped command runs in the first operand (`chroot DIR CMD` starts in the new root). */
  chdirToOperand?: boolean;
  /** A prefix of the wrapped command's first word that names where it runs, not what (`hatch run ENV:CMD`). */
  envPrefix?: RegExp;
  /** An option and a command word after which the rest are keys typed into a shell (`screen -X stuff TEXT`). */
  keysCommand?: { option: string; command: string };
  doc: string;
}

export const WRAPPERS: WrapperSpec[] = [
  { names: ['sudo'], runs: 'argv', shortArg: 'ugCpDrtTURh', longArg: ['--user', '--group', '--close-from', '--chdir', '--host', '--prompt', '--role', '--type', '--other-user', '--command-timeout', '--chroot'], noRun: ['-l', '--list', '-v', '--validate', '-k', '-K', '--remove-timestamp', '--reset-timestamp', '-e', '--edit', '-V', '--version'], chdir: ['-D', '--chdir'], doc: 'runs as another user' },
  { names: ['doas'], runs: 'argv', shortArg: 'uC', doc: 'runs as another user' },
  { names: ['pkexec'], runs: 'argv', longArg: ['--user'], doc: 'runs as another user' },
  { names: ['su'], runs: 'none', shortArg: 'sgGw', longArg: ['--shell', '--group', '--supp-group', '--whitelist-environment'], codeShort: 'c', codeLong: ['--command', '--session-command'], operands: 1, permute: true, dashOption: true, doc: '`su [-|-l] USER -c SCRIPT`' },
  { names: ['runuser'], runs: 'argv', shortArg: 'ugGsw', longArg: ['--user', '--group', '--supp-group', '--shell', '--whitelist-environment'], codeShort: 'c', codeLong: ['--command', '--session-command'], doc: '`runuser -u USER CMD` or `runuser -l USER -c SCRIPT`' },
  { names: ['sg'], runs: 'code-operand', operands: 1, permute: true, codeShort: 'c', doc: '`sg GROUP SCRIPT`' },
  { names: ['env'], runs: 'argv', shortArg: 'uCP', longArg: ['--unset', '--chdir', '--default-signal', '--ignore-signal', '--block-signal'], codeShort: 'S', codeLong: ['--split-string'], assignments: true, chdir: ['-C', '--chdir'], doc: 'NAME=VALUE settings, `-S`/`--split-string` STRING is split into a command' },
  { names: ['cross-env', 'cross-env-shell'], runs: 'argv', assignments: true, doc: 'NAME=VALUE settings then the command' },
  { names: ['nice'], runs: 'argv', shortArg: 'n', longArg: ['--adjustment'], doc: '`nice -n N`, `nice -10`' },
  // unbuffer's -p is a flag (read from a pipeline); listed before the group below, whose -p takes a value.
  { names: ['unbuffer'], runs: 'argv', doc: '`unbuffer [-p] CMD`' },
  // Rows with their own grammar, before the group below (the first row for a name wins): there -q, -p, -s take a value.
  { names: ['valgrind', 'firejail'], runs: 'argv', doc: 'options glued with `=` (`valgrind --tool=memcheck -q CMD`)' },
  { names: ['proxychains', 'proxychains4'], runs: 'argv', shortArg: 'f', doc: '`proxychains4 -q -f FILE CMD`' },
  { names: ['torsocks'], runs: 'argv', shortArg: 'uapP', longArg: ['--user', '--pass', '--address', '--port'], doc: '`torsocks [-u USER] CMD`' },
  { names: ['fakeroot'], runs: 'argv', shortArg: 'lis', longArg: ['--lib', '--faked'], doc: '`fakeroot [-i FILE] [-s FILE] -- CMD`' },
  { names: ['chronic', 'ifne', 'nohup'], runs: 'argv', doc: 'run CMD as given (their options are flags)' },
  // Rows with their own grammar, before the group below (the first row for a name wins).
  { names: ['chpst'], runs: 'argv', shortArg: 'uUbe/nlLmdopfcrt', doc: 'runit: `chpst -u USER [-e DIR] CMD` (each letter option takes a value)' },
  { names: ['setarch'], runs: 'argv', shortArg: '', operands: 1, permute: true, doc: '`setarch ARCH [-R -L ...] CMD` (its options are flags)' },
  { names: ['linux32', 'linux64', 'i386', 'x86_64'], runs: 'argv', doc: 'personality flags, then CMD' },
  { names: ['dtach'], runs: 'argv', shortArg: 'aAcnNer', doc: '`dtach -n SOCKET CMD` (the mode option takes the socket)' },
  { names: ['abduco'], runs: 'argv', shortArg: 'nNcAe', doc: '`abduco -n SESSION CMD`' },
  { names: ['zellij run', 'zellij r'], runs: 'argv', shortArg: 'dn', longArg: ['--cwd', '--direction', '--name', '--width', '--height', '--x', '--y'], chdir: ['--cwd'], doc: '`zellij run [-f] [--cwd D] -- CMD`' },
  { names: ['capsh'], runs: 'argv', prefix: ['bash'], doc: '`capsh --caps=... -- ARGS` runs `bash ARGS`' },
  { names: ['mise exec', 'mise x', 'rtx exec', 'rtx x', 'asdf exec', 'pkgx', 'volta run', 'fnm exec', 'nvm exec', 'proto run', 'pixi exec'], runs: 'argv', shortArg: 'CcE', longArg: ['--cd', '--env', '--jobs', '--node', '--npm', '--using', '--with'], untilDashDash: true, chdir: ['-C', '--cd'], doc: 'tool versions, then `--` and the command (`mise exec node@20 -- CMD`)' },
  { names: ['arch'], runs: 'argv', doc: 'macOS: `arch -x86_64 CMD` (its options are flags)' },
  { names: ['sandbox-exec'], runs: 'argv', shortArg: 'fpnD', doc: 'macOS: `sandbox-exec -n PROFILE CMD`' },
  { names: ['launchctl asuser', 'launchctl bsexec'], runs: 'argv', operands: 1, doc: 'macOS: `launchctl asuser UID CMD`' },
  { names: ['pee'], runs: 'each-code', doc: 'moreutils: every operand is a shell command fed the same stdin' },
  { names: ['gdb', 'gdb-multiarch', 'cgdb', 'lldb'], runs: 'none', argvAfter: ['--args', '--'], doc: '`gdb -batch -ex run --args CMD`: the program to debug (and run)' },
  { names: ['xterm', 'uxterm', 'konsole', 'alacritty', 'kitty', 'foot', 'wezterm start', 'terminator', 'xfce4-terminal', 'urxvt', 'st'], runs: 'none', argvAfter: ['-e', '-x', '--'], doc: 'terminal emulators: `xterm -e CMD`' },
  { names: ['gnome-terminal', 'mate-terminal', 'tilix'], runs: 'none', argvAfter: ['--', '-x', '--execute'], codeShort: 'e', codeLong: ['--command'], doc: '`gnome-terminal -- CMD` or `-e SCRIPT`' },
  { names: ['sem'], runs: 'argv', shortArg: 'jP', longArg: ['--jobs', '--id', '--semaphorename', '--semaphoretimeout', '--st', '--timeout'], doc: "GNU parallel's semaphore: `sem -j N CMD`" },
  { names: ['timelimit'], runs: 'argv', shortArg: 'tTsS', doc: '`timelimit -t SECS CMD`' },
  { names: ['taskpolicy'], runs: 'argv', shortArg: 'ctlgpb', doc: 'macOS: `taskpolicy -c LEVEL CMD`' },
  { names: ['devcontainer exec'], runs: 'argv', longArg: ['--workspace-folder', '--container-id', '--id-label', '--config', '--override-config', '--remote-env', '--docker-path', '--docker-compose-path', '--log-level', '--log-format', '--terminal-columns', '--terminal-rows', '--user-data-folder', '--default-user-env-probe', '--container-data-folder', '--container-system-data-folder'], chdir: ['--workspace-folder'], doc: 'a dev container with the workspace mounted: `devcontainer exec --workspace-folder . CMD` runs in the project' },
  { names: ['distrobox enter', 'distrobox-enter'], runs: 'none', argvAfter: ['--', '-e', '--exec'], doc: 'a container that shares the home folder: `distrobox enter NAME -- CMD`' },
  // From inside a toolbox or distrobox container, the command runs on the host.
  { names: ['distrobox-host-exec', 'host-spawn'], runs: 'argv', longArg: ['--yes'], doc: 'from inside a container, run the command on the host: `distrobox-host-exec CMD`' },
  { names: ['toolbox run'], runs: 'argv', shortArg: 'cdr', longArg: ['--container', '--distro', '--release'], doc: 'a container that shares the home folder: `toolbox run [-c NAME] CMD`' },
  { names: ['start-stop-daemon'], runs: 'none', programOption: { opts: ['--exec', '-x', '--startas', '-a'], args: 'after-dashdash' }, doc: '`start-stop-daemon --start --exec PROG -- ARGS`' },
  { names: ['flatpak run'], runs: 'none', longArg: ['--branch', '--arch', '--cwd', '--filesystem', '--env', '--runtime', '--runtime-version'], programOption: { opts: ['--command'], args: 'after-operand' }, doc: '`flatpak run --command=PROG APP ARGS`' },
  { names: ['pueue add'], runs: 'joined', shortArg: 'wgldap', longArg: ['--working-directory', '--group', '--label', '--delay', '--after', '--priority'], chdir: ['-w', '--working-directory'], doc: 'the words are joined and run by a shell (`pueue add -- CMD`)' },
  { names: ['reflex'], runs: 'argv', untilDashDash: true, shortArg: 'rRgGcd', longArg: ['--regex', '--inverse-regex', '--glob', '--inverse-glob', '--config', '--decoration'], doc: 'runs CMD on each change: `reflex -r RE -- CMD`' },
  { names: ['nohup', 'unbuffer', 'catchsegv', 'fakeroot', 'torsocks', 'tsocks', 'proxychains', 'proxychains4', 'with-contenv', 'chronic', 'ifne', 'linux32', 'linux64', 'setarch', 'sem', 'run-one', 'run-this-one', 'keep-one-running', 'nocache', 'eatmydata', 'dumb-init', 'catatonit', 'dbus-launch', 'dbus-run-session', 'flatpak-spawn', 'tini', 'firejail', 'valgrind', 'nq', 'fq', 'pv-run', 'vglrun', 'optirun', 'primusrun', 'prime-run', 'gamemoderun', 'mangohud', 'trickle', 'aa-exec', 'sudo-rs', 'run0', 'please', 'gksudo', 'kdesu', 'lxsudo', 'rlwrap', 'ts-node-dev'], runs: 'argv', shortArg: 'fRgpPdubwCDeFHlOqsSz', longArg: ['--reuid', '--regid', '--groups', '--config-file', '--dbus-daemon', '--user', '--profile', '--group', '--setenv', '--property', '--description', '--slice', '--chdir', '--nice', '--machine'], chdir: ['--chdir'], doc: 'run the command as given' },
  { names: ['setpriv'], runs: 'argv', longArg: ['--groups', '--inh-caps', '--ambient-caps', '--bounding-set', '--ruid', '--euid', '--rgid', '--egid', '--reuid', '--regid', '--securebits', '--pdeathsig', '--selinux-label', '--apparmor-profile', '--landlock-access', '--landlock-rule', '--seccomp-filter'], doc: '`setpriv --nnp --pdeathsig SIG -- CMD`' },
  { names: ['nix-shell'], runs: 'none', permute: true, shortArg: 'pIAE', longArg: ['--packages', '--attr', '--arg', '--argstr', '--expr', '--include', '--keep'], codeLong: ['--run', '--command'], doc: '`nix-shell [FILE] --run SCRIPT` (or `--command SCRIPT`)' },
  { names: ['nix develop', 'nix shell'], runs: 'none', permute: true, shortArg: 'pIAEfo', longArg: ['--packages', '--attr', '--arg', '--argstr', '--expr', '--include', '--file', '--override-input', '--profile', '--phase', '--keep', '--unset', '--system', '--option'], argvAfter: ['-c', '--command'], doc: 'installables first, then `--command CMD` / `-c CMD`' },
  { names: ['guix shell', 'guix environment'], runs: 'none', argvAfter: ['--'], doc: '`guix shell PACKAGES -- CMD`' },
  { names: ['hatch run'], runs: 'argv', envPrefix: /^[\w.-]{1,64}:(?=[^\s:/])/, doc: '`hatch run [ENV:]CMD`: the environment prefix names where it runs' },
  { names: ['asdf env'], runs: 'argv', operands: 1, doc: '`asdf env TOOL CMD`' },
  { names: ['flox activate'], runs: 'none', shortArg: 'dr', longArg: ['--dir', '--remote'], codeShort: 'c', codeLong: ['--command'], argvAfter: ['--'], chdir: ['-d', '--dir'], doc: '`flox activate -c SCRIPT` or `-- CMD`' },
  { names: ['tmux display-popup', 'tmux popup'], runs: 'joined', shortArg: 'bcdehstSTwxy', chdir: ['-d'], doc: 'the words are joined into the popup\'s shell command (`-E`: close when it ends)' },
  { names: ['screen'], runs: 'argv', shortArg: 'SceEhpstTrx', keysCommand: { option: '-X', command: 'stuff' }, doc: '`screen -dmS NAME CMD`; `screen -S NAME -X stuff TEXT` types TEXT into the session\'s shell' },
  { names: ['numactl'], runs: 'argv', shortArg: 'iNmpCPw', longArg: ['--membind', '--cpunodebind', '--physcpubind', '--interleave', '--preferred', '--preferred-many', '--weighted-interleave'], doc: '`numactl -C 0-3 CMD`' },
  { names: ['cgexec'], runs: 'argv', shortArg: 'g', doc: '`cgexec -g CONTROLLERS:PATH CMD`' },
  { names: ['prlimit'], runs: 'argv', shortArg: 'po', longArg: ['--pid', '--output'], doc: '`prlimit --nofile=N CMD` (resource limits are glued or after `=`)' },
  { names: ['xvfb-run'], runs: 'argv', shortArg: 'efnpsw', longArg: ['--error-file', '--auth-file', '--server-num', '--xauth-protocol', '--server-args', '--wait'], doc: '`xvfb-run -a -s ARGS CMD`' },
  { names: ['proot', 'udocker run'], runs: 'argv', shortArg: 'rbmwkqRSiv', longArg: ['--rootfs', '--bind', '--mount', '--cwd', '--kernel-release', '--qemu', '--change-id', '--verbose'], chdir: ['-w', '--cwd'], doc: '`proot -r ROOT -b PATH CMD`' },
  { names: ['bwrap'], runs: 'argv', longArg: ['--chdir', '--unsetenv', '--uid', '--gid', '--hostname', '--dev', '--proc', '--tmpfs', '--dir', '--remount-ro', '--lock-file', '--sync-fd', '--info-fd', '--json-status-fd', '--block-fd', '--userns-block-fd', '--seccomp', '--add-seccomp-fd', '--userns', '--userns2', '--pidns', '--exec-label', '--file-label', '--args', '--cap-add', '--cap-drop', '--perms', '--size', '--argv0', '--mqueue', '--overlay-src', '--tmp-overlay', '--ro-overlay', '--level-prefix'], longArg2: ['--bind', '--bind-try', '--dev-bind', '--dev-bind-try', '--ro-bind', '--ro-bind-try', '--symlink', '--setenv', '--chmod', '--file', '--bind-data', '--ro-bind-data', '--overlay', '--bind-fd', '--ro-bind-fd'], chdir: ['--chdir'], doc: '`bwrap --bind SRC DEST ... CMD` (some options take two arguments)' },
  { names: ['cpulimit'], runs: 'argv', shortArg: 'lpePs', longArg: ['--limit', '--pid', '--exe', '--path', '--signal'], noRun: ['-p', '--pid', '-e', '--exe', '-P', '--path'], doc: '`cpulimit -l N -- CMD`' },
  { names: ['systemd-inhibit'], runs: 'argv', longArg: ['--what', '--who', '--why', '--mode'], doc: '`systemd-inhibit --why=X CMD`' },
  { names: ['gtimeout'], runs: 'argv', shortArg: 'sk', longArg: ['--signal', '--kill-after'], operands: 1, doc: 'GNU timeout on macOS: `gtimeout DURATION CMD`' },
  { names: ['perf record', 'perf stat', 'perf trace', 'perf mem record', 'perf c2c record', 'perf lock record', 'perf sched record', 'perf kmem record', 'perf kvm record', 'perf script record', 'perf ftrace'], runs: 'argv', shortArg: 'eoFptcCmuGrIjxDkLT', longArg: ['--event', '--output', '--freq', '--pid', '--tid', '--count', '--cpu', '--mmap-pages', '--uid', '--cgroup', '--repeat', '--interval-print', '--call-graph', '--delay', '--field-separator', '--clockid', '--branch-filter', '--filter', '--post', '--pre'], doc: '`perf record -g -o F -- CMD`' },
  { names: ['tsp', 'task-spooler'], runs: 'argv', shortArg: 'LDNWEgS', doc: 'task spooler queues CMD' },
  { names: ['retry'], runs: 'argv', shortArg: 'tdmxw', longArg: ['--times', '--delay', '--until', '--while', '--backoff', '--max-time', '--tries', '--sleep'], doc: '`retry -t N -- CMD`' },
  { names: ['with-lock-ex', 'lckdo', 'with-lock', 'setlock', 'chpst', 'setuidgid', 'envuidgid', 'softlimit', 'envdir', 'gosu', 'su-exec', 's6-setuidgid', 'ip netns exec', 'ip vrf exec', 'machinectl shell', 'direnv exec'], runs: 'argv', shortArg: 'uUbempodfacrtw', operands: 1, doc: 'one operand (a lock file, a user, a folder, a namespace), then CMD' },
  { names: ['daemonize'], runs: 'argv', shortArg: 'ceoplumE', chdir: ['-c'], doc: '`daemonize -c DIR PATH ARGS`' },
  { names: ['runcon'], runs: 'argv', shortArg: 'urtl', optionalOperand: ':', doc: '`runcon CONTEXT CMD` or `runcon -t TYPE CMD`' },
  { names: ['sandbox'], runs: 'argv', shortArg: 'lHTIWwtRs', doc: 'SELinux sandbox, then CMD' },
  { names: ['schroot', 'dchroot'], runs: 'argv', shortArg: 'cudn', longArg: ['--chroot', '--user', '--directory', '--session-name', '--option'], chdir: ['-d', '--directory'], doc: '`schroot -c CHROOT -- CMD`' },
  { names: ['systemd-nspawn'], runs: 'argv', shortArg: 'DMuiEpSZL', longArg: ['--directory', '--machine', '--user', '--image', '--setenv', '--bind', '--bind-ro', '--port', '--chdir', '--slice', '--property', '--template', '--uuid', '--network-veth-extra', '--overlay', '--tmpfs'], doc: 'runs CMD in a container of a folder (the folder\'s real files)' },
  { names: ['lxc-attach'], runs: 'argv', shortArg: 'nsavugfolP', longArg: ['--name', '--namespaces', '--arch', '--set-var', '--uid', '--gid', '--rcfile', '--logfile', '--logpriority', '--lxcpath', '--context'], doc: '`lxc-attach -n NAME -- CMD`' },
  { names: ['sshpass'], runs: 'argv', shortArg: 'pfdP', doc: '`sshpass -p PW CMD`' },
  { names: ['newgrp'], runs: 'stdin', dashOption: true, doc: 'a new shell reads its commands from stdin' },
  { names: ['time'], runs: 'argv', shortArg: 'fo', longArg: ['--format', '--output'], doc: '`time -p`, GNU `time -f FMT -o FILE`' },
  { names: ['timeout'], runs: 'argv', shortArg: 'sk', longArg: ['--signal', '--kill-after'], operands: 1, doc: '`timeout [-s SIG] [-k T] DURATION CMD`' },
  { names: ['command'], runs: 'argv', noRun: ['-v', '-V'], doc: '`command -p CMD` (`-v`/`-V` only look it up)' },
  { names: ['builtin'], runs: 'argv', doc: 'a shell builtin by name (`builtin cd /`)' },
  { names: ['exec'], runs: 'argv', shortArg: 'a', doc: '`exec -a NAME -c -l CMD`' },
  { names: ['stdbuf'], runs: 'argv', shortArg: 'ioe', longArg: ['--input', '--output', '--error'], doc: '`stdbuf -oL CMD`' },
  { names: ['ionice'], runs: 'argv', shortArg: 'cnpPu', longArg: ['--class', '--classdata', '--pid', '--pgid', '--uid'], doc: '`ionice -c3 CMD`' },
  { names: ['chrt'], runs: 'argv', shortArg: 'TPD', longArg: ['--sched-runtime', '--sched-period', '--sched-deadline'], operands: 1, doc: '`chrt -r PRIO CMD`' },
  { names: ['taskset'], runs: 'argv', operands: 1, noRun: ['-p', '--pid'], doc: '`taskset [-c] MASK CMD`' },
  { names: ['setsid'], runs: 'argv', doc: '`setsid -f CMD`' },
  { names: ['chroot'], runs: 'argv', longArg: ['--userspec', '--groups'], operands: 1, chdirToOperand: true, doc: '`chroot DIR CMD` (the command starts in the new root)' },
  { names: ['unshare'], runs: 'argv', shortArg: 'SGRw', longArg: ['--map-user', '--map-group', '--map-users', '--map-groups', '--setgroups', '--propagation', '--root', '--wd', '--setuid', '--setgid', '--kill-child'], chdir: ['-w', '--wd'], doc: 'new namespaces, then the command' },
  { names: ['nsenter'], runs: 'argv', shortArg: 'tSG', longArg: ['--target', '--setuid', '--setgid'], doc: 'enters namespaces, then the command' },
  { names: ['lockf'], runs: 'argv', shortArg: 't', operands: 1, doc: '`lockf [-kns] [-t SECONDS] FILE CMD` (BSD)' },
  { names: ['flock'], runs: 'argv', shortArg: 'wE', longArg: ['--timeout', '--wait', '--conflict-exit-code'], codeShort: 'c', codeLong: ['--command'], operands: 1, permute: true, doc: '`flock [-w T] FILE CMD` or `flock FILE -c SCRIPT`' },
  { names: ['caffeinate'], runs: 'argv', shortArg: 'tw', doc: 'macOS: keeps awake while CMD runs' },
  { names: ['watch'], runs: 'joined', shortArg: 'nq', longArg: ['--interval', '--equexit'], argvAfter: ['-x', '--exec'], doc: 'the words are joined and run by `sh -c` (`-x`: as argv)' },
  { names: ['strace'], runs: 'argv', shortArg: 'eoOpPsSuEXIab', longArg: ['--output', '--trace', '--signal', '--attach', '--user', '--env', '--string-limit', '--trace-path'], doc: 'traces CMD' },
  { names: ['ltrace'], runs: 'argv', shortArg: 'eoupnsaADFlx', longArg: ['--output', '--library'], doc: 'traces CMD' },
  { names: ['faketime'], runs: 'argv', shortArg: 'm', operands: 1, doc: '`faketime SPEC CMD`' },
  { names: ['xargs'], runs: 'argv', shortArg: 'ILnPsadE', longArg: ['--max-args', '--max-lines', '--max-procs', '--max-chars', '--arg-file', '--delimiter', '--process-slot-var'], doc: 'the command gets stdin items as arguments' },
  { names: ['concurrently'], runs: 'each-code', shortArg: 'nscpkl', longArg: ['--names', '--name-separator', '--prefix', '--prefix-colors', '--prefix-length', '--timestamp-format', '--success', '--kill-signal', '--max-processes', '--restart-tries', '--restart-after', '--handle-input', '--default-input-target', '--passthrough-arguments', '--cwd'], chdir: ['--cwd'], doc: 'every operand is a shell command of its own (`concurrently "a" "b"`)' },
  { names: ['watchexec'], runs: 'joined', shortArg: 'ewifds', longArg: ['--exts', '--watch', '--ignore', '--filter', '--debounce', '--signal', '--shell', '--workdir', '--on-busy-update', '--stop-signal', '--stop-timeout', '--delay-run', '--poll', '--project-origin', '--env', '--emit-events-to', '--ignore-file', '--filter-file', '--fs-events', '--completions'], chdir: ['--workdir'], doc: 'the words after the options are joined and run by a shell' },
  { names: ['entr'], runs: 'argv', codeShort: 's', doc: '`entr CMD` (argv) or `entr -s SCRIPT`' },
  { names: ['nodemon'], runs: 'none', shortArg: 'wediV', longArg: ['--watch', '--ext', '--ignore', '--delay', '--signal', '--config', '--exitcrash'], codeShort: 'x', codeLong: ['--exec'], doc: '`nodemon --exec SCRIPT` (without it, a Node script file)' },
  { names: ['parallel'], runs: 'joined', shortArg: 'jPSaIdEnNCLl', longArg: ['--jobs', '--sshlogin', '--arg-file', '--delimiter', '--colsep', '--max-args', '--joblog', '--results', '--tmpdir', '--workdir', '--halt', '--halt-on-error', '--timeout', '--delay', '--memfree', '--load', '--nice', '--retries', '--tag-string', '--tagstring', '--env', '--basefile', '--bf', '--return', '--transferfile', '--tf', '--sshloginfile', '--slf', '--max-replace-args', '--block', '--block-size', '--recstart', '--recend', '--header', '--termseq', '--sqlmaster', '--sqlworker', '--limit', '--rpl', '--semaphorename', '--id', '--ssh', '--sshdelay', '--arg-sep', '--arg-file-sep', '--res', '--compress-program', '--decompress-program', '--max-procs', '--eof', '--replace', '--extensionreplace', '--basenamereplace', '--dirnamereplace', '--basenameextensionreplace', '--seqreplace', '--wd', '--ctag', '--ctagstring'], chdir: ['--workdir', '--wd'], doc: 'GNU parallel: the words (up to `:::`) are joined and run by a shell per input' },
  { names: ['busybox', 'toybox', 'shx'], runs: 'argv', doc: 'the first word is the applet (`busybox rm -rf`, `npx shx rm -rf`)' },
  { names: ['npx', 'pnpx', 'npm exec', 'npm x', 'bunx', 'bun x', 'pnpm dlx', 'pnpm exec', 'yarn dlx', 'yarn exec', 'pnpm x'], runs: 'argv', shortArg: 'Cp', longArg: ['--prefix', '--dir', '--cwd', '--package', '--workspace', '--registry', '--cache'], codeShort: 'c', codeLong: ['--call'], packageSpec: true, chdir: ['--prefix', '-C', '--dir', '--cwd'], doc: 'package runners: the first word is a package (version dropped): `npx rimraf ~` is `rimraf ~`' },
  { names: ['npm run env', 'npm run-script env', 'npm rum env', 'npm urn env'], runs: 'argv', longArg: ['--prefix', '--workspace', '-w'], doc: "npm's built-in `env` script: with arguments it runs them (`npm run env -- CMD` is `env CMD`)" },
  { names: ['deno task'], runs: 'none', shortArg: 'c', longArg: ['--config', '--cwd', '--filter', '-f'], codeLong: ['--eval'], doc: '`deno task --eval SCRIPT` runs the script in deno\'s shell (a task by name is the project\'s deno.json)' },
  { names: ['yarn run', 'composer exec'], runs: 'argv', doc: 'a package binary by name (`yarn run rimraf ~` runs node_modules/.bin/rimraf when no script has that name)' },
  { names: ['uv run', 'uvx', 'uv tool run', 'rye run'], runs: 'argv', shortArg: 'pw', longArg: ['--with', '--with-editable', '--with-requirements', '--python', '--project', '--directory', '--env-file', '--extra', '--group', '--only-group', '--package', '--index', '--default-index', '--index-url', '--extra-index-url', '--find-links', '--config-file', '--cache-dir', '--from'], chdir: ['--directory'], doc: 'runs CMD in the project environment' },
  { names: ['poetry run', 'pipenv run', 'pdm run', 'pixi run', 'devbox run', 'mise exec', 'mise x', 'asdf exec', 'rtx exec', 'dotenvx run', 'doppler run', 'op run', 'infisical run', 'bundle exec', 'pipx run', 'conda run', 'mamba run', 'micromamba run', 'nix run'], runs: 'argv', shortArg: 'npfeC', longArg: ['--name', '--prefix', '--cwd', '--spec', '--env-file', '--project', '--config', '--environment', '--directory', '--env', '--tool'], codeLong: ['--command'], argvAfter: ['-c', '--command'], chdir: ['-C', '--cwd', '--directory'], doc: 'project environments: the rest is the command (`nix develop -c CMD`, `doppler run --command SCRIPT`)' },
  { names: ['aws-vault exec'], runs: 'argv', shortArg: 'd', longArg: ['--duration', '--region'], operands: 1, doc: '`aws-vault exec PROFILE -- CMD`' },
  { names: ['sops exec-env', 'sops exec-file'], runs: 'code-operand', operands: 1, doc: '`sops exec-env FILE SCRIPT`' },
  { names: ['dotenv', 'env-cmd'], runs: 'argv', shortArg: 'ecvf', longArg: ['--file', '--environments'], doc: 'loads an env file, then CMD' },
  { names: ['systemd-run'], runs: 'argv', shortArg: 'upEMH', longArg: ['--unit', '--property', '--setenv', '--machine', '--host', '--description', '--slice', '--uid', '--gid', '--nice', '--working-directory', '--service-type', '--on-active', '--on-boot', '--on-startup', '--on-unit-active', '--on-unit-inactive', '--on-calendar', '--timer-property', '--path-property', '--socket-property'], chdir: ['--working-directory'], doc: 'runs CMD as a transient unit' },
  { names: ['tmux new-session', 'tmux new', 'tmux new-window', 'tmux neww', 'tmux split-window', 'tmux splitw', 'tmux respawn-pane', 'tmux respawnp', 'tmux respawn-window', 'tmux respawnw', 'tmux run-shell', 'tmux run'], runs: 'joined', shortArg: 'ceFfnstxylpT', chdir: ['-c'], doc: 'the words are joined into a shell command for the new pane' },
  { names: ['tmux send-keys', 'tmux send'], runs: 'keys', shortArg: 'tN', doc: 'keys typed into the pane\'s shell (`Enter`/`C-m` end a line)' },
  { names: ['script'], runs: 'stdin', shortArg: 'EIOBTmFt', longArg: ['--echo', '--log-in', '--log-out', '--log-io', '--log-timing', '--logging-format', '--output-limit'], codeShort: 'c', codeLong: ['--command'], operands: 1, argvAfterOperands: true, permute: true, doc: '`script -qc SCRIPT FILE` (util-linux reads options after FILE too: `script -q FILE -c SCRIPT`); BSD `script -q FILE CMD`; with neither, its shell reads stdin' },
  { names: ['at', 'batch'], runs: 'stdin', shortArg: 'qtf', doc: 'the script comes on stdin (or `-f FILE`)' },
  { names: ['trap'], runs: 'code-operand', noRun: ['-l', '-p'], doc: '`trap SCRIPT SIGNAL...`: the script runs on the signal' },
  { names: ['mapfile', 'readarray'], runs: 'none', shortArg: 'dnOsuc', codeShort: 'C', doc: '`mapfile -C CALLBACK -c N ARRAY`: the callback runs every N lines read' },
  { names: ['complete', 'compgen'], runs: 'none', shortArg: 'oAGWFPSX', codeShort: 'C', doc: '`complete -C COMMAND NAME`: the command runs to list completions (`compgen -C` at once)' },
  { names: ['ssh-agent'], runs: 'argv', shortArg: 'aEPt', doc: '`ssh-agent CMD`' },
];

const INDEX: Map<string, { sub: string[]; spec: WrapperSpec }[]> = new Map();
for (const spec of WRAPPERS) {
  for (const full of spec.names) {
    const [name, ...sub] = full.split(' ');
    const list = INDEX.get(name) ?? [];
    list.push({ sub, spec });
    INDEX.set(name, list);
  }
}

export function isWrapperName(name: string): boolean {
  return INDEX.has(name);
}

export type Unwrapped =
  | { kind: 'argv'; start: number; spec: WrapperSpec; how: string; program?: string }
  | { kind: 'joined'; start: number; end?: number; spec: WrapperSpec; how: string }
  | { kind: 'keys'; start: number; spec: WrapperSpec; how: string }
  | { kind: 'each'; start: number; spec: WrapperSpec; how: string }
  | { kind: 'code'; code: string; rest: number; spec: WrapperSpec; how: string }
  | { kind: 'stdin'; file?: string; spec: WrapperSpec; how: string }
  | { kind: 'none' };

/**
 * Where the wrapped command starts in argv (argv[0] is the wrapper's name,
 * already unquoted). Follows the wrapper's option grammar from the table.
 */
export function unwrapArgv(name: string, argv: string[]): Unwrapped {
  const entries = INDEX.get(name);
  if (!entries) return { kind: 'none' };
  let entry: { sub: string[]; spec: WrapperSpec } | undefined;
  let k = 1;
  for (const e of entries) {
    if (e.sub.length === 0) {
      entry ??= e;
      continue;
    }
    // The subcommand may come after global options (tmux -S sock new-session, pnpm --filter x exec).
    let j = 1;
    // A lone short letter takes a value (pnpm -C DIR exec), and so does a long option the row lists (npm --prefix DIR exec).
    while (j < argv.length && argv[j].startsWith('-') && j < 6) j += !argv[j].includes('=') && (/^-[A-Za-z]$/.test(argv[j]) || e.spec.longArg?.includes(argv[j])) ? 2 : 1;
    for (const from of [1, j]) {
      if (e.sub.every((s, i) => argv[from + i] === s)) {
        entry = e;
        k = from + e.sub.length;
        break;
      }
    }
    if (entry === e) break;
  }
  if (!entry) return { kind: 'none' };
  // runuser without -u USER takes su's grammar (runuser -l USER -c SCRIPT).
  const spec = name === 'runuser' && !argv.some((a) => a === '-u' || a.startsWith('--user')) ? INDEX.get('su')![0].spec : entry.spec;
  const how = [name, ...entry.sub].join(' ');
  let operands = spec.operands ?? 0;
  let file: string | undefined;
  if (spec.untilDashDash) {
    const dd = argv.indexOf('--', k);
    if (dd > 0) return dd + 1 < argv.length ? { kind: 'argv', start: dd + 1, spec, how } : { kind: 'none' };
  }
  if (spec.programOption) {
    const found = programOf(spec, argv, k);
    if (found) return { kind: 'argv', start: found.args, spec, how, program: found.program };
  }
  if (spec.runs === 'none' && spec.argvAfter) {
    // gdb -batch -ex run --args CMD: the option may come after operands and option values the grammar does not list.
    const at = argv.findIndex((a, i) => i >= k && spec.argvAfter!.includes(a));
    if (at > 0) return at + 1 < argv.length ? { kind: 'argv', start: at + 1, spec, how } : { kind: 'none' };
  }
  while (k < argv.length) {
    const a = argv[k];
    if (a === '--') {
      k++;
      if (operands > 0 && !spec.permute) {
        k += operands;
        operands = 0;
      }
      break;
    }
    if (spec.noRun?.includes(a)) return { kind: 'none' };
    if (spec.keysCommand && a === spec.keysCommand.option && argv[k + 1] === spec.keysCommand.command) return k + 2 < argv.length ? { kind: 'keys', start: k + 2, spec, how } : { kind: 'none' };
    if (a === '-' && spec.dashOption) {
      k++;
      continue;
    }
    if (spec.argvAfter?.includes(a)) return { kind: 'argv', start: k + 1, spec, how };
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const opt = eq < 0 ? a : a.slice(0, eq);
      if (spec.codeLong?.includes(opt)) return { kind: 'code', code: eq < 0 ? (argv[k + 1] ?? '') : a.slice(eq + 1), rest: eq < 0 ? k + 2 : k + 1, spec, how };
      if (spec.argvAfter?.includes(opt)) return { kind: 'argv', start: k + 1, spec, how };
      k += spec.longArg2?.includes(opt) ? (eq < 0 ? 3 : 2) : spec.longArg?.includes(opt) && eq < 0 ? 2 : 1;
      continue;
    }
    if (a.startsWith('-') && a.length > 1 && !(spec.assignments && a === '-')) {
      // A cluster of short options: -qc SCRIPT, -uroot, -n10.
      let consumedNext = false;
      for (let j = 1; j < a.length; j++) {
        const ch = a[j];
        if (spec.codeShort?.includes(ch)) {
          const glued = a.slice(j + 1);
          return { kind: 'code', code: glued !== '' ? glued : (argv[k + 1] ?? ''), rest: glued !== '' ? k + 1 : k + 2, spec, how };
        }
        if (spec.shortArg?.includes(ch)) {
          if (spec.runs === 'stdin' && ch === 'f') file = a.slice(j + 1) || argv[k + 1];
          if (j === a.length - 1) consumedNext = true;
          break;
        }
      }
      k += consumedNext ? 2 : 1;
      continue;
    }
    // env takes any word with `=` before the command as a setting (`env 'BASH_FUNC_ls%%=() { ...; }' bash`).
    if (spec.assignments && a.indexOf('=') > 0) {
      k++;
      continue;
    }
    if (spec.optionalOperand && new RegExp(spec.optionalOperand).test(a) && k + 1 < argv.length) {
      k++;
      break;
    }
    if (operands > 0) {
      operands--;
      k++;
      if (!spec.permute) {
        k += Math.min(operands, argv.length);
        operands = 0;
        break;
      }
      continue;
    }
    // Operands among the options (`nix-shell shell.nix --run SCRIPT`): the code option may still come.
    if (spec.permute && spec.runs === 'none') {
      k++;
      continue;
    }
    break;
  }
  k += operands > 0 && !spec.permute ? operands : 0;
  // `aws-vault exec PROFILE -- CMD`: the `--` after the operands ends the wrapper's words.
  if (argv[k] === '--' && spec.runs === 'argv') k++;
  if (spec.argvAfterOperands && k < argv.length) return { kind: 'argv', start: k, spec, how };
  switch (spec.runs) {
    case 'argv':
      return k < argv.length ? { kind: 'argv', start: k, spec, how } : { kind: 'none' };
    case 'joined':
      return k < argv.length ? { kind: 'joined', start: k, spec, how } : { kind: 'none' };
    case 'keys':
      return k < argv.length ? { kind: 'keys', start: k, spec, how } : { kind: 'none' };
    case 'each-code':
      return k < argv.length ? { kind: 'each', start: k, spec, how } : { kind: 'none' };
    case 'code-operand':
      return k < argv.length ? { kind: 'code', code: argv[k], rest: k + 1, spec, how } : { kind: 'none' };
    case 'stdin':
      return { kind: 'stdin', file, spec, how };
    case 'none':
      return { kind: 'none' };
  }
}

/** The program an option names (`--exec PROG`, `--command=PROG`, `-xPROG`) and where its arguments start (argv.length: none). */
function programOf(spec: WrapperSpec, argv: string[], from: number): { program: string; args: number } | undefined {
  const po = spec.programOption!;
  let program: string | undefined;
  let firstOperand = -1;
  for (let k = from; k < argv.length; k++) {
    const a = argv[k];
    if (a === '--') break;
    const eq = a.indexOf('=');
    const opt = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    if (po.opts.includes(opt)) {
      // --startas wins over --exec: it is what start-stop-daemon runs.
      const value = a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : argv[++k];
      if (value !== undefined && (program === undefined || opt === '--startas' || opt === '-a')) program = value;
      continue;
    }
    const glued = po.opts.find((o) => o.length === 2 && a.startsWith(o) && a.length > 2);
    if (glued) {
      program ??= a.slice(2);
      continue;
    }
    if (a.startsWith('-')) {
      if (spec.longArg?.includes(a)) k++;
      continue;
    }
    if (firstOperand < 0) firstOperand = k;
  }
  if (program === undefined) return undefined;
  if (po.args === 'after-dashdash') {
    const dd = argv.indexOf('--', from);
    return { program, args: dd < 0 ? argv.length : dd + 1 };
  }
  return { program, args: firstOperand < 0 ? argv.length : firstOperand + 1 };
}

/**
 * The folder the wrapped command runs in: the last of the row's `chdir`
 * options among the wrapper's own words (`env -C /`, `--chdir=/`, `-C/`),
 * resolved from `cwd`; `cwd` when there is none or it is only known at run time.
 */
export function wrappedCwd(spec: WrapperSpec, own: string[], cwd: string, home: string, resolve: (from: string, to: string) => string): string {
  if (spec.chdirToOperand) {
    // The first word that is no option nor an option's value.
    for (let k = 0; k < own.length; k++) {
      const a = own[k];
      if (a === '--') continue;
      if (a.startsWith('-')) {
        if (!a.includes('=') && spec.longArg?.includes(a)) k++;
        continue;
      }
      return a.includes('\u0000') ? cwd : resolve(cwd, a === '~' || a.startsWith('~/') ? home + a.slice(1) : a);
    }
    return cwd;
  }
  if (!spec.chdir) return cwd;
  let dir: string | undefined;
  for (let k = 0; k < own.length; k++) {
    const a = own[k];
    for (const o of spec.chdir) {
      if (a === o) dir = own[++k];
      else if (o.startsWith('--') && a.startsWith(o + '=')) dir = a.slice(o.length + 1);
      else if (!o.startsWith('--') && a.length > 2 && a.startsWith(o)) dir = a.slice(2);
      else continue;
      break;
    }
  }
  if (dir === undefined || dir === '' || dir.includes('\u0000')) return cwd;
  return resolve(cwd, dir === '~' || dir.startsWith('~/') ? home + dir.slice(1) : dir);
}

/** Keys typed by tmux send-keys: key names that end a line become newlines. */
export function keysToText(keys: string[]): string {
  let out = '';
  for (const key of keys) {
    if (/^(?:Enter|C-m|C-M|KPEnter|C-j|\^M|\^J)$/.test(key)) out += '\n';
    else if (/^(?:Space)$/.test(key)) out += ' ';
    else if (/^(?:Tab|C-i)$/.test(key)) out += '\t';
    else if (/^(?:C-c|C-d|C-z|Escape|Up|Down|Left|Right|BSpace)$/.test(key)) out += '\n';
    else out += key;
  }
  return out;
}

/** Packages whose command deletes its operands recursively (what a package runner would run). */
export const DELETING_PACKAGES: Record<string, string[]> = {
  rimraf: ['rm', '-rf'],
  'del-cli': ['rm', '-rf'],
  del: ['rm', '-rf'],
  rmrf: ['rm', '-rf'],
  'rm-rf': ['rm', '-rf'],
  'trash-cli': ['rm', '-rf'],
  premove: ['rm', '-rf'],
  'fs-extra-cli': ['rm', '-rf'],
};

/** `rimraf@5.0.1`, `@scope/pkg@1` -> the command name the package provides. */
export function packageCommand(spec: string): string {
  let s = spec;
  if (s.startsWith('@')) s = s.slice(s.indexOf('/') + 1);
  const at = s.indexOf('@');
  return at > 0 ? s.slice(0, at) : s;
}

/** Markdown table of the wrappers, for docs/guard.md. */
export function wrapperTableMarkdown(): string {
  const rows = ['| wrapper | the wrapped command is | options taking an argument | script options | operands first |', '|---|---|---|---|---|'];
  const RUNS: Record<Runs, string> = { argv: 'its argv', joined: 'the words joined, run by a shell', keys: 'keys typed into a shell', 'code-operand': 'the first operand, a script', 'each-code': 'every operand, each a script', stdin: 'a script on stdin or `-f FILE`', none: 'none unless a script option' };
  for (const s of WRAPPERS) {
    const opts = [...(s.shortArg ?? '')].map((c) => `-${c}`).concat(s.longArg ?? []);
    const code = [...(s.codeShort ?? '')].map((c) => `-${c}`).concat(s.codeLong ?? []).concat((s.argvAfter ?? []).map((o) => `${o} (then argv)`));
    rows.push(`| ${s.names.map((n) => `\`${n}\``).join(', ')} | ${RUNS[s.runs]}${s.assignments ? ' (after NAME=VALUE)' : ''}${s.packageSpec ? ' (package spec)' : ''}${s.chdir ? `, in the folder given to ${s.chdir.map((o) => `\`${o}\``).join(' ')}` : ''} | ${opts.map((o) => `\`${o}\``).join(' ') || '—'} | ${code.map((o) => `\`${o}\``).join(' ') || '—'} | ${s.operands ?? 0}${s.permute ? ' (options may follow)' : ''} |`);
  }
  return rows.join('\n');
}

export const WRAPPERS_START = '<!-- wrappers:begin (generated by npm run docs from src/guards/shell/wrappers.ts) -->';
export const WRAPPERS_END = '<!-- wrappers:end -->';

/** docs/guard.md with its wrapper table regenerated (npm run docs; test/guard-docs.test.ts checks it is current). */
export function replaceWrapperTable(doc: string): string {
  const a = doc.indexOf(WRAPPERS_START);
  const b = doc.indexOf(WRAPPERS_END);
  if (a < 0 || b < a) throw new Error('docs/guard.md has no wrappers markers');
  return doc.slice(0, a + WRAPPERS_START.length) + '\n' + wrapperTableMarkdown() + '\n' + doc.slice(b);
}
