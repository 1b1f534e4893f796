// The disk and system family: writers to a block device (dd of=, cp, tee,
// cat >, shred), erasers and partitioners (mkfs.*, wipefs, blkdiscard,
// cryptsetup luksFormat, hdparm --security-erase, sgdisk --zap-all, parted
// mklabel), chmod -R that opens a system tree to everyone or closes it,
// chown -R of a system tree, persistence (crontab -, systemctl enable,
// writes to ~/.bashrc through writesPath), power (shutdown, reboot: ask),
// broad kills, and privilege (sudo: ask).
import { posix } from 'node:path';
import { unwrapArgv } from '../wrappers';
import { classify, credentialFolderIn, deletesPath, isBlockDevice, resolveTarget, under, within } from '../path-rules';
import { workKind } from '../project-work';
import { SYSTEM_DIRS } from '../tables/paths';
import type { Rule, RuleContext } from '../rules';
import { DBUS_CLIENTS, DBUS_POWER_METHOD, DD_LIKE, DISK_ERASERS, DISK_ERASER_TRIGGERS, modeEffect, POWER_COMMANDS, POWER_SUBCOMMANDS, RUNTIME_NAMES, SCHEDULERS } from '../tables/devices';
import { hasShortFlag, operands, own } from './args';
import { chmodTargets } from './tamper';
import { isShellProgram, plainStoredCommand } from '../stored-commands';

const ERASER_SET = new Set(DISK_ERASERS);

function eraserName(name: string): string | undefined {
  if (ERASER_SET.has(name)) return name;
  if (!name.includes('.')) return undefined;
  const base = name.replace(/\.[\w]+$/, '');
  return base !== name && DISK_ERASERS.includes(base) ? base : undefined;
}

const blockDevices: Rule = (r) => {
  const { name, argv, analyzer: a, segment } = r;
  if (DD_LIKE.includes(name)) {
    // dcfldd also writes to every of= it is given (of=a of=b), and to vf= when it verifies.
    for (const of of argv.filter((x) => x.startsWith('of='))) if (isBlockDevice(of.slice(3))) a.hit('disk-destroy', 'deny', segment, `${name} writes to the device ${of.slice(3)}`);
    return;
  }
  const eraser = eraserName(name);
  if (eraser) {
    const trigger = own(DISK_ERASER_TRIGGERS, eraser);
    if (trigger && !argv.slice(1).some((x) => trigger.test(x))) return;
    if (argv.slice(1).some((x) => x === '--help' || x === '-h' || x === '--version' || x === '-V')) return;
    // mkfs / wipefs on an image file formats the file, not a disk.
    const targets = operands(argv).filter((x) => !/^(?:ext[234]|xfs|vfat|fat|btrfs|ntfs|swap|exfat|msdos|gpt)$/i.test(x));
    if (/^(?:mkfs|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|wipefs|blkdiscard|badblocks|zerofree)$/.test(eraser) && targets.length > 0 && targets.every((x) => !x.startsWith('/dev/') && !x.includes('\u0000'))) return;
    if ((eraser === 'fdisk' || eraser === 'sfdisk' || eraser === 'parted' || eraser === 'gdisk') && argv.some((x) => x === '-l' || x === '--list' || x === 'print' || x === '-d' && eraser === 'sfdisk')) return;
    a.hit('disk-destroy', 'deny', segment, `${name} erases, formats or repartitions a disk`);
    return;
  }
  // Any program given a block device to write: cp/tee/shred/pv/cat with -o, install, rsync.
  if (['cp', 'tee', 'shred', 'install', 'rsync', 'pv', 'ddrescue', 'dcfldd', 'mv', 'ln', 'truncate', 'fallocate', 'scrub', 'sponge'].includes(name)) {
    const ops = operands(argv);
    const targets = name === 'tee' || name === 'shred' || name === 'truncate' || name === 'fallocate' || name === 'scrub' || name === 'sponge' ? ops : ops.slice(-1);
    for (const t of targets) if (isBlockDevice(t)) a.hit('disk-destroy', 'deny', segment, `${name} writes to the device ${t}`);
  }
};

const WIDE = new Set(['root', 'system', 'home', 'above-project']);

const EFFECT_TEXT: Record<string, string> = {
  'world-writable': 'makes {} and everything under it world-writable',
  'no-access': 'takes every permission away from {} and everything under it',
  'owner-locked': 'locks its owner out of {} and everything under it (no read or search permission left)',
};

/** The project's root or one of its top-level source folders (tables/project.ts): a tree a recursive change of permissions spoils as a whole. */
function projectTree(abs: string, r: RuleContext): boolean {
  return abs === r.opts.projectDir || workKind(abs, r.opts.projectDir) === 'source-folder';
}

/** Owners no developer works as: `root`, `nobody` (and their ids), with or without a group. */
const LOCKOUT_OWNER = /^(?:root|0|nobody|65534|nogroup)(?::.*)?$|^:(?:root|0|nogroup)$/;

const permissions: Rule = (r) => {
  if (r.name !== 'chmod' && r.name !== 'chown' && r.name !== 'chgrp') return;
  if (r.name === 'chmod') {
    const t = chmodTargets(r.argv);
    if (!t.recursive) return;
    const effect = modeEffect(t.mode);
    if (!effect) return;
    for (const f of t.files) {
      const { abs } = resolveTarget(f.startsWith('~') ? r.opts.home + f.slice(1) : f, r.cwd);
      const cls = classify(abs, r.analyzer);
      // World-writable or closed anywhere in a system tree (/var/www, /usr/local/bin), not only at its top.
      const systemTree = cls === 'outside' && SYSTEM_DIRS.some((d) => within(abs, d)) && !within(abs, r.opts.home);
      const text = EFFECT_TEXT[effect].replace('{}', abs);
      // A credential folder opened to everyone (its owner closing it to themselves, `chmod -R 600 ~/.ssh`, is a slip they notice at once).
      if (WIDE.has(cls) || systemTree || (effect === 'world-writable' && credentialFolderIn(abs, r.analyzer) === abs)) r.analyzer.hit('chmod-recursive-world-writable', 'deny', r.segment, text);
      else if (projectTree(abs, r)) r.analyzer.hit('chmod-recursive-project', 'ask', r.segment, `${text}, the project's own tree`);
    }
    return;
  }
  if (!hasShortFlag(r.argv, 'R', ['--recursive'])) return;
  for (const f of operands(r.argv, 1, ['--from', '--reference']).slice(1)) {
    const { abs } = resolveTarget(f.startsWith('~') ? r.opts.home + f.slice(1) : f, r.cwd);
    if (WIDE.has(classify(abs, r.analyzer))) r.analyzer.hit('chown-recursive-system', 'deny', r.segment, `recursively changes the owner of ${abs}`);
    // The project handed to root or nobody: the developer (and the agent) can no longer change their own files.
    else if (projectTree(abs, r) && LOCKOUT_OWNER.test(operands(r.argv, 1, ['--from', '--reference'])[0] ?? '')) r.analyzer.hit('chmod-recursive-project', 'ask', r.segment, `recursively gives ${abs}, the project's own tree, to ${operands(r.argv, 1, ['--from', '--reference'])[0]}: its owner can no longer change it`);
    // Keys handed to another owner or group: the tools that check their permissions refuse them, and others may read them.
    else if (credentialFolderIn(abs, r.analyzer) === abs || within(abs, under(r.opts.home).ssh)) r.analyzer.hit('chown-credentials', 'ask', r.segment, `recursively changes the ${r.name === 'chgrp' ? 'group' : 'owner'} of the credentials in ${abs}`);
  }
};

/** setfacl -R granting write to every account (`-m o:rwx`), or chattr -R +i / +a on a wide tree or the project. */
const aclAndAttributes: Rule = (r) => {
  if (!hasShortFlag(r.argv, 'R', ['--recursive'])) return;
  const files: string[] = [];
  let effect: string | undefined;
  if (r.name === 'setfacl') {
    for (let k = 1; k < r.argv.length; k++) {
      const a = r.argv[k];
      const spec = a === '-m' || a === '--modify' || a === '-M' ? r.argv[++k] : a.startsWith('--modify=') ? a.slice(9) : /^-[A-Za-z]*m$/.test(a) ? r.argv[++k] : /^-[^-]/.test(a) || a.startsWith('--') ? undefined : (files.push(a), undefined);
      // o:rwx, other::rw-, d:o:w: every account may write (a named user or group may be the developer's own).
      for (const entry of (spec ?? '').split(',')) if (/^(?:d(?:efault)?:)?o(?:ther)?::?[rwxX-]*w/.test(entry)) effect = 'opens {} and everything under it for writing by every account (ACL)';
    }
  } else {
    const mode = r.argv.slice(1).find((a) => /^[+=][aAcCdDeFijmPsStTux]+$/.test(a));
    if (mode && /[ia]/.test(mode)) effect = `makes {} and everything under it ${mode.includes('i') ? 'immutable' : 'append-only'} (nothing can be changed or deleted until the attribute is removed as root)`;
    for (const a of r.argv.slice(1)) if (!a.startsWith('-') && a !== mode && !/^[+=-][a-zA-Z]+$/.test(a)) files.push(a);
  }
  if (!effect) return;
  for (const f of files) {
    const { abs } = resolveTarget(f.startsWith('~') ? r.opts.home + f.slice(1) : f, r.cwd);
    const cls = classify(abs, r.analyzer);
    const text = effect.replace('{}', abs);
    if (WIDE.has(cls) || credentialFolderIn(abs, r.analyzer) === abs) r.analyzer.hit('chmod-recursive-world-writable', 'deny', r.segment, text);
    else if (projectTree(abs, r)) r.analyzer.hit('chmod-recursive-project', 'ask', r.segment, `${text}, the project's own tree`);
  }
};
aclAndAttributes.names = ['setfacl', 'chattr'];

const power: Rule = (r) => {
  if (POWER_COMMANDS.includes(r.name)) {
    if (r.argv.some((x) => x === '--help' || x === '-c' && r.name === 'shutdown')) return;
    r.analyzer.hit('shutdown', 'ask', r.segment, `${r.name} stops or restarts the machine`);
    return;
  }
  if (DBUS_CLIENTS.includes(r.name)) {
    const method = r.argv.slice(1).find((x) => DBUS_POWER_METHOD.test(x));
    if (method) r.analyzer.hit('shutdown', 'ask', r.segment, `${r.name} calls ${method}, which stops or restarts the machine`);
    return;
  }
  const subs = own(POWER_SUBCOMMANDS, r.name);
  if (subs && operands(r.argv).some((x) => subs.includes(x)) && (r.name !== 'init' && r.name !== 'telinit' || subs.includes(operands(r.argv)[0] ?? ''))) r.analyzer.hit('shutdown', 'ask', r.segment, `${r.name} ${operands(r.argv)[0]} stops, restarts or isolates the machine`);
};

/** npm lifecycle scripts (run by every later install or publish) and npm config keys that name a program npm runs. */
const NPM_LIFECYCLE = /^(?:pre|post)?(?:install|prepare|uninstall|publish|prepublish|prepublishOnly|pack|version|ci|shrinkwrap|rebuild)$/;
/** package.json keys of hook managers whose values are commands run at each commit (simple-git-hooks, husky 4, pre-commit, lint-staged). */
const HOOK_MANAGER_KEYS = /^(?:simple-git-hooks|husky\.hooks|gitHooks|pre-commit|lint-staged)(?:\.|$)/;
const NPM_COMMAND_KEYS = /^(?:script-shell|shell|node-options|git|editor|browser|viewer|prefix|globalconfig|userconfig|init-module|onload-script)$/;

/** Setting what a package manager runs on its own later (a lifecycle script, its script shell): persistence. */
const packageHooks: Rule = (r) => {
  const ops = r.argv.slice(1).filter((a) => !a.startsWith('-'));
  if (ops[0] === 'pkg' && ops[1] === 'set') {
    for (const kv of ops.slice(2)) {
      const m = /^([^=]+)=([\s\S]*)$/.exec(kv);
      if (!m) continue;
      const [, key, value] = m;
      const hook = /^scripts\.([^.]+)$/.exec(key)?.[1];
      // A lifecycle script runs at every later install or publish; a hook manager's entry at every commit.
      const later = hook && NPM_LIFECYCLE.test(hook) ? `every later ${hook.replace(/^(?:pre|post)/, '')}` : HOOK_MANAGER_KEYS.test(key) ? 'every later commit' : undefined;
      if (!later) continue;
      r.analyzer.analyzeSource(value, r.depth + 1, `${r.via} > ${key}`, r.cwd);
      if (!plainStoredCommand(value)) r.analyzer.hit('persistence', 'ask', r.segment, `${r.name} pkg set ${key}: the command runs on its own at ${later}`);
    }
  } else if (ops[0] === 'config' && ops[1] === 'set' && NPM_COMMAND_KEYS.test((ops[2] ?? '').replace(/=.*$/, ''))) {
    const key = ops[2].replace(/=.*$/, '');
    const value = ops[2].includes('=') ? ops[2].slice(ops[2].indexOf('=') + 1) : ops[3] ?? '';
    // The script shell set to a shell (Git Bash on Windows, zsh) is a preference.
    if (/^(?:script-)?shell$/.test(key) && isShellProgram(value)) return;
    r.analyzer.hit('persistence', 'ask', r.segment, `${r.name} config set ${key} changes the program ${r.name} runs from now on`);
  }
};
packageHooks.names = ['npm', 'pnpm', 'yarn', 'bun'];

const schedulers: Rule = (r) => {
  const trigger = own(SCHEDULERS, r.name);
  if (!trigger) return;
  const args = r.argv.slice(1);
  if (r.name === 'crontab') {
    if (args.some((x) => x === '-l' || x === '--help')) return;
    if (args.length === 0 && !r.cmd.heredoc && r.cmd.stage === 0 && !r.cmd.redirects.some((x) => x.op === '<' || x.op === '<<<')) return;
  }
  if ((r.name === 'systemctl' || r.name === 'loginctl') && !operands(r.argv).some((x) => trigger.test(x))) return;
  if (r.name === 'ssh-copy-id' && args.some((x) => x === '-h' || x === '-?' || x === '--help')) return;
  if (r.name === 'launchctl' && !trigger.test(args[0] ?? '')) return;
  if (r.name === 'schtasks' && !args.some((x) => trigger.test(x))) return;
  // macOS `defaults write com.apple.loginwindow LoginHook SCRIPT`: the script runs at every login, as root.
  if (r.name === 'defaults' && !(args[0] === 'write' && args.some((x) => trigger.test(x)))) return;
  // A transient timer (`systemd-run --on-calendar=hourly CMD`) runs CMD again and again until the next boot.
  if (r.name === 'systemd-run' && !args.some((x) => trigger.test(x))) return;
  r.analyzer.hit('persistence', 'ask', r.segment, `${r.name} schedules a command to run later or at start-up`);
};

/** kill's targets after its signal: `-9 -1`, `-s KILL -- -1`, `1`. */
function killTargets(argv: string[]): string[] {
  let k = 1;
  if (argv[k] === '-s' || argv[k] === '-n' || argv[k] === '--signal') k += 2;
  else if (argv[k] !== undefined && /^-(?:\d+|[A-Z][A-Z0-9+-]*|s[A-Z]+)$/.test(argv[k]) && argv.length > 2) k++;
  if (argv[k] === '--') k++;
  return argv.slice(k);
}

/** ps options that pick processes by name, pid, parent, group or terminal (a filter); -u/-U/-e/-A/a/x do not narrow to one program. */
const PS_SELECTORS = /^(?:-[A-Za-z]*[Cpqgst]|--(?:pid|ppid|quick-pid|sid|tty|group|Group|command)\b|p\d|q\d)/;

/**
 * Whether a substitution's script prints the pids of every process (or every
 * process of a user): `ps aux | awk '{print $2}'`, `ps -e -o pid=`,
 * `pgrep -u $USER`. A stage that filters by name (grep, an awk or sed
 * pattern, pgrep PATTERN, ps -C/-p) makes it a targeted kill.
 */
export function listsEveryProcess(src: string): boolean {
  const stages = src.split(/\|(?!\|)/).map((x) => x.trim());
  const first = stages[0].split(/\s+/);
  if (first[0] === 'pgrep') {
    const pats = operands(first, 1, ['-u', '-U', '-g', '-G', '-s', '-t', '-P', '--signal', '-F']).map((p) => p.replace(/^['"]|['"]$/g, ''));
    return pats.length === 0 ? first.some((x) => /^-[a-zA-Z]*u$|^-U$|^--(?:e?uid)/.test(x)) : pats.some((p) => MATCHES_ALL.test(p));
  }
  if (first[0] !== 'ps') return false;
  if (first.slice(1).some((x) => PS_SELECTORS.test(x))) return false;
  for (const st of stages.slice(1)) {
    const w = st.split(/\s+/);
    const prog = w[0];
    if (/^(?:grep|egrep|fgrep|rg)$/.test(prog) && !w.includes('-v')) return false;
    // awk '/node/ {print $2}', awk '$11 ~ "x"', awk '$1 == "x"': a pattern on the line narrows it
    if (/awk$/.test(prog) && /\/[^/]+\/|~|==/.test(st)) return false;
    if (prog === 'sed' && /\/[^/]+\/\s*[pd]/.test(st)) return false;
    if (prog === 'head' || prog === 'fzf') return false;
  }
  return true;
}

const MATCHES_ALL = /^(?:\.|\.\*|\.\+|\^|\$|\^\.\*|\.\*\$|\*|)$/;

const kills: Rule = (r) => {
  const { name, argv } = r;
  if (name === 'killall5') {
    r.analyzer.hit('kill-all', 'deny', r.segment, 'killall5 signals every process on the machine');
    return;
  }
  if (name === 'kill') {
    if (argv.includes('-l') || argv.includes('-L')) return;
    const t = killTargets(argv);
    const listed = r.words.slice(1).flatMap((w) => w.subs ?? []).find((sub) => listsEveryProcess(sub.src));
    if (listed) r.analyzer.hit('kill-all', 'deny', r.segment, `kill of every process listed by \`${listed.src.trim().slice(0, 60)}\`, the agent and the machine's services included`);
    else if (t.some((x) => x === '-1' || x === '1')) r.analyzer.hit('kill-all', 'deny', r.segment, 'kill -1 signals every process you own; kill 1 signals init');
    else if (t.some((x) => x === '0' || x === '-0')) r.analyzer.hit('kill-broad', 'ask', r.segment, 'kill 0 signals the whole process group, the agent included');
    return;
  }
  if (name === 'skill') {
    // skill [signal] -u USER kills every process of USER unless a command, tty or pid narrows it.
    const narrowed = argv.some((x, i) => i > 0 && (/^-[ctp]$/.test(x) || (!x.startsWith('-') && !/^-[u]$/.test(argv[i - 1]))));
    if (argv.some((x) => x === '-u' || x === '--user') && !narrowed) r.analyzer.hit('kill-all', 'deny', r.segment, 'skill kills every process of a user');
    return;
  }
  // fuser -k -m PATH kills every process using the file system PATH is on; fuser -k of / or the home folder, every process there.
  if (name === 'fuser' && argv.some((x) => /^-[a-zA-Z]*k/.test(x) || x === '--kill')) {
    const mount = argv.some((x) => /^-[a-zA-Z]*[mM]/.test(x) || x === '--mount' || x === '--ismountpoint');
    const wide = operands(argv, 1, ['-n', '--namespace']).some((p) => p === '/' || p === '~' || p === r.analyzer.opts.home || /^\/(?:home|usr|var|etc|tmp)\/?$/.test(p));
    if (mount || wide) r.analyzer.hit('kill-broad', 'ask', r.segment, 'fuser -k kills every process using that file system or folder, the agent included');
    return;
  }
  if (name === 'pkill' || name === 'killall') {
    // -v / --inverse picks every process that does NOT match: all of them but a few.
    if (name === 'pkill' && argv.some((x) => x === '--inverse' || /^-[a-zA-Z]*v[a-zA-Z]*$/.test(x))) {
      r.analyzer.hit('kill-all', 'deny', r.segment, 'pkill -v kills every process that does not match the pattern');
      return;
    }
    const patterns = operands(argv, 1, ['-u', '-U', '-g', '-G', '-s', '-t', '-P', '--signal', '-F', '--older-than', '--younger-than', '-o', '-y']).filter((p) => !/^\d+$/.test(p));
    const byUser = argv.some((x) => x === '-u' || x === '-U' || x === '--user' || x.startsWith('--uid') || x.startsWith('--euid') || /^-[a-zA-Z0-9]*u$/.test(x));
    if ((byUser && patterns.length === 0) || patterns.some((p) => MATCHES_ALL.test(p))) {
      r.analyzer.hit('kill-all', 'deny', r.segment, `${name} kills every process ${byUser ? 'of a user' : 'on the machine'}`);
      return;
    }
    // -P PPID, -g PGRP narrow the set to one family of processes (pkill -P $$: this shell's children), unless it is init's or the kernel's.
    // (-t TTY and -s SID are whole login sessions: still broad.)
    const selectors = argv.flatMap((x, i) => (/^-[Pg]$/.test(x) || /^--(?:parent|pgroup)$/.test(x) ? [argv[i + 1] ?? ''] : /^--(?:parent|pgroup)=/.test(x) ? [x.slice(x.indexOf('=') + 1)] : []));
    const narrowed = selectors.length > 0 && selectors.every((v) => v !== '' && !/(?:^|,)[01](?:,|$)/.test(v));
    const broad = (patterns.length === 0 && !narrowed) || patterns.some((p) => p.split(/\\?\|/).some((alt) => RUNTIME_NAMES.test(alt.trim())));
    if (broad) r.analyzer.hit('kill-broad', 'ask', r.segment, `${name} ${patterns.join(' ')} kills every matching process on the machine, not one process`);
  }
};

/**
 * Programs that only read the system's state: under sudo they need no question
 * (the wrapped command is still judged by every rule: `sudo cat /etc/shadow` is a secret read).
 * `prog` alone: any use; `prog sub`: that subcommand (first operand); `prog -x`: with that option.
 */
export const SUDO_READ_ONLY = [
  'dmesg', 'journalctl', 'lsof', 'ss', 'netstat', 'lsblk', 'blkid', 'du', 'df', 'ls', 'ps', 'top', 'htop', 'iotop', 'iftop', 'nethogs', 'whoami', 'id', 'lshw', 'dmidecode', 'nvidia-smi', 'iptables-save', 'ip6tables-save', 'stat', 'tail', 'head', 'less', 'more', 'cat', 'zcat', 'bat', 'grep', 'egrep', 'fgrep', 'zgrep', 'rg', 'wc', 'lspci', 'lsusb', 'uptime', 'free', 'file', 'tree', 'md5sum', 'sha1sum', 'sha256sum', 'sha512sum', 'lscpu', 'lsmod', 'modinfo', 'findmnt', 'getent', 'getfacl', 'lsattr', 'last', 'lastb', 'lastlog', 'who', 'w', 'pvs', 'vgs', 'lvs', 'pvdisplay', 'vgdisplay', 'lvdisplay', 'xfs_info', 'ausearch', 'aureport', 'vmstat', 'iostat', 'mpstat', 'pidstat', 'sensors', 'hostnamectl', 'timedatectl', 'loginctl', 'printenv', 'test', 'true', 'echo', 'pwd', 'readlink', 'realpath', 'cmp', 'diff', 'du', 'ncdu', 'nproc', 'uname', 'arch',
  'systemctl status', 'systemctl is-active', 'systemctl is-enabled', 'systemctl is-failed', 'systemctl list-units', 'systemctl list-unit-files', 'systemctl list-timers', 'systemctl list-sockets', 'systemctl list-dependencies', 'systemctl show', 'systemctl cat', 'service status',
  'docker ps', 'docker logs', 'docker inspect', 'docker images', 'docker stats', 'docker info', 'docker version', 'docker top', 'docker port', 'docker events', 'docker history', 'podman ps', 'podman logs', 'podman inspect', 'podman images', 'crictl ps', 'crictl logs', 'crictl inspect', 'crictl images',
  'apt list', 'apt show', 'apt policy', 'apt search', 'apt-cache', 'dpkg -l', 'dpkg -L', 'dpkg -s', 'dpkg --list', 'dpkg --status', 'dpkg --listfiles', 'rpm -q', 'rpm -qa', 'rpm -qi', 'rpm -ql', 'dnf list', 'dnf info', 'yum list', 'yum info', 'snap list', 'flatpak list',
  'ip addr', 'ip a', 'ip route', 'ip r', 'ip link', 'ip neigh', 'ip -br', 'iptables -L', 'iptables -S', 'iptables -nL', 'iptables -nvL', 'iptables -vnL', 'iptables -Ln', 'ip6tables -L', 'ip6tables -S', 'nft list', 'ufw status', 'firewall-cmd --list-all', 'firewall-cmd --state', 'wg show', 'tcpdump -D',
  'crontab -l', 'shutdown -c', 'fdisk -l', 'sfdisk -l', 'parted -l', 'smartctl -a', 'smartctl -i', 'smartctl -H', 'smartctl -x', 'hdparm -I', 'mdadm --detail', 'zpool status', 'zpool list', 'zfs list', 'btrfs filesystem', 'kubectl get', 'kubectl describe', 'kubectl logs', 'nginx -t', 'nginx -T', 'apachectl -t', 'apachectl configtest', 'sshd -t', 'sshd -T', 'visudo -c', 'named-checkconf', 'sysctl -a', 'sysctl -n', 'mount -l', 'swapon --show', 'swapon -s', 'lvm lvs', 'cryptsetup status', 'fail2ban-client status', 'certbot certificates', 'exportfs -v', 'netplan get', 'resolvectl status', 'networkctl status', 'networkctl list', 'nmcli device', 'nmcli connection', 'bpftool prog',
];

/**
 * Routine administration under sudo: installing packages, restarting or reloading a named service, a global tool
 * install. No question for sudo itself; every rule still judges the command (a delete, a write to a protected file).
 * Stopping, disabling or masking a service still asks.
 */
export const SUDO_ROUTINE = [
  'apt install', 'apt-get install', 'apt update', 'apt-get update', 'apt upgrade', 'apt-get upgrade', 'apt-get build-dep', 'apt-get source', 'aptitude install', 'dnf install', 'dnf makecache', 'dnf upgrade', 'yum install', 'yum makecache', 'microdnf install', 'zypper install', 'zypper in', 'zypper refresh', 'apk add', 'apk update', 'pacman -S', 'pacman -Sy', 'pacman -Syu', 'emerge', 'xbps-install', 'snap install', 'snap refresh', 'flatpak install', 'port install', 'pkg install', 'dpkg -i', 'rpm -i', 'rpm -U',
  'npm install', 'npm i', 'npm ci', 'pnpm add', 'yarn global', 'pip install', 'pip3 install', 'gem install', 'cargo install', 'corepack enable',
  'systemctl restart', 'systemctl reload', 'systemctl start', 'systemctl enable', 'systemctl daemon-reload', 'systemctl try-restart', 'systemctl reload-or-restart', 'service restart', 'service reload', 'service start', 'nginx -s', 'apachectl graceful', 'apachectl restart',
  'mkdir', 'chown', 'usermod -aG', 'usermod -a', 'update-ca-certificates', 'ldconfig', 'locale-gen', 'update-alternatives', 'sysctl -p', 'timedatectl set-timezone', 'hostnamectl set-hostname', 'certbot renew', 'certbot certonly', 'docker compose', 'docker-compose', 'docker run', 'docker build', 'docker pull', 'docker exec', 'docker start', 'docker restart', 'nixos-rebuild build', 'nixos-rebuild test',
];
/** Services whose restart cuts the machine off (restarting them is not routine). */
const CRITICAL_UNITS = /^(?:ssh|sshd|networking|network|NetworkManager|systemd-networkd|firewalld|ufw|iptables|nftables|docker\.socket|systemd-logind|dbus|getty.*)(?:\.service)?$/;
const ROUTINE = new Set(SUDO_ROUTINE);
/** Whether argv (after sudo's own options) is routine administration (SUDO_ROUTINE). */
export function routineUnderSudo(argv: string[], tmp: string): boolean {
  const name = posix.basename(argv[0] ?? '');
  const ops = argv.slice(1).filter((x) => !x.startsWith('-'));
  const sub = ops[0];
  const hit = ROUTINE.has(name) || (sub !== undefined && ROUTINE.has(`${name} ${sub}`)) || argv.slice(1).some((x) => x.startsWith('-') && ROUTINE.has(`${name} ${x}`));
  if (name === 'service') return ops.length >= 2 && ROUTINE.has(`service ${ops[1]}`) && !CRITICAL_UNITS.test(ops[0]);
  if (!hit) {
    // rm of paths that are all in the temp folder.
    if (name === 'rm' && ops.length > 0) return ops.every((p) => p === tmp || p.startsWith(tmp.endsWith('/') ? tmp : tmp + '/') || p.startsWith('/tmp/') || p.startsWith('/var/tmp/'));
    return false;
  }
  if (name === 'systemctl') return ops.slice(1).every((u) => !CRITICAL_UNITS.test(u));
  // chown -R of relative paths inside the project to an ordinary user (after a container wrote files as root).
  if (name === 'chown' && argv.some((x) => /^-[a-zA-Z]*R|^--recursive$/.test(x))) return ops.length >= 2 && !/^(?:root|0)?(?::(?:root|0))?$/.test(ops[0]) && ops.slice(1).every((p) => !p.startsWith('/') && !p.startsWith('~') && !p.split('/').includes('..') && p !== '.' && p !== './' && !p.includes('\u0000'));
  if (name === 'chown') return !argv.some((x) => /^-[a-zA-Z]*R|^--recursive$/.test(x)) && ops.length >= 2 && !/^(?:root|0)?(?::(?:root|0))?$/.test(ops[0]) && ops.slice(1).every((p) => p.split('/').filter(Boolean).length >= 2);
  if (name === 'mkdir') return true;
  return true;
}

/** Whether sudo -u USER (or runuser -u, su USER) runs as an ordinary user: giving up privileges, not taking them. */
function asOrdinaryUser(name: string, argv: string[]): boolean {
  let user: string | undefined;
  for (let k = 1; k < argv.length; k++) {
    const a = argv[k];
    if ((a === '-u' || a === '--user') && k + 1 < argv.length) user = argv[k + 1];
    else if (a.startsWith('--user=')) user = a.slice(7);
    else if (/^-u./.test(a)) user = a.slice(2);
  }
  if (name === 'su') {
    const ops = argv.slice(1).filter((x, i, all) => !x.startsWith('-') && !['-c', '--command', '-s', '--shell', '-g', '-G'].includes(all[i - 1] ?? ''));
    user = ops[0];
  }
  return user !== undefined && !/^(?:root|0|#0|toor|admin|administrator)$/.test(user);
}

const READ_ONLY = new Set(SUDO_READ_ONLY);
/** Whether argv (after sudo's own options) only reads the system's state. */
export function readOnlyUnderSudo(argv: string[]): boolean {
  const name = posix.basename(argv[0] ?? '');
  if (READ_ONLY.has(name)) return true;
  // A disk tool without the words that make it write (wipefs without -a, parted ... print, cryptsetup luksDump, nvme list) only reports.
  const eraser = eraserName(name);
  const trigger = eraser ? own(DISK_ERASER_TRIGGERS, eraser) : undefined;
  if (trigger && !argv.slice(1).some((x) => trigger.test(x)) && eraser !== 'fdisk' && eraser !== 'gdisk' && eraser !== 'cfdisk' && eraser !== 'sfdisk') return true;
  if (eraser === 'parted' && argv.slice(1).some((x) => x === 'print' || x === '-l' || x === '--list') && !argv.slice(1).some((x) => /^(?:mklabel|mkpart|rm|resizepart|mktable|mkpartfs|rescue|name|set|toggle)$/.test(x))) return true;
  // dd with no of= writes to its stdout: a read of the device.
  if (DD_LIKE.includes(name)) return !argv.some((x) => x.startsWith('of=') || x.startsWith('vf='));
  if (name === 'blockdev') return argv.slice(1).every((x) => /^--(?:get\w*|report)$|^\/dev\//.test(x) || x === '-v' || x === '-q');
  if (name === 'losetup') return !argv.some((x) => /^-[a-zA-Z]*[dD]|^--detach/.test(x));
  if (name === 'find') return !argv.some((x) => /^-(?:delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)$/.test(x));
  const sub = argv.slice(1).find((x) => !x.startsWith('-'));
  if (sub !== undefined && READ_ONLY.has(`${name} ${sub}`)) return true;
  // `systemctl --no-pager status x`, `dpkg -l`, `iptables -L -n`: an option that makes the program a reader.
  return argv.slice(1).some((x) => x.startsWith('-') && READ_ONLY.has(`${name} ${x}`)) && !(name === 'sysctl' && argv.some((x) => x === '-w' || x.includes('=')));
}

const privilege: Rule = (r) => {
  if (r.name === 'sudo' || r.name === 'doas' || r.name === 'su' || r.name === 'pkexec' || r.name === 'runuser') {
    if (r.name === 'sudo' && r.argv.slice(1).every((x) => /^-(?:[lvkKV]|-list|-validate|-version|-reset-timestamp|-remove-timestamp)$/.test(x))) return;
    // Reading the system's state with privileges (dmesg, journalctl, systemctl status ...) changes nothing: not worth a
    // question. A policy that denies sudo outright still denies these.
    if ((r.name === 'sudo' || r.name === 'doas' || r.name === 'pkexec' || r.name === 'runuser') && (r.opts.policy.rules.sudo ?? 'ask') === 'ask') {
      const u = unwrapArgv(r.name, r.argv);
      const writes = r.cmd.redirects.some((x) => x.op !== '<' && x.op !== '<<<' && x.target.text !== '/dev/null' && !/^&?[12]$/.test(x.target.text));
      if (u.kind === 'argv' && (readOnlyUnderSudo(r.argv.slice(u.start)) || routineUnderSudo(r.argv.slice(u.start), r.opts.tmp)) && !writes) return;
    }
    // Running as an ordinary user (sudo -u postgres, runuser -u dev, su dev -c) gives up privileges: the command itself is judged.
    if ((r.opts.policy.rules.sudo ?? 'ask') === 'ask' && asOrdinaryUser(r.name, r.argv)) return;
    r.analyzer.hit('sudo', 'ask', r.segment, `runs with elevated privileges (${r.name})`);
  }
};

permissions.names = ['chmod', 'chown', 'chgrp'];
power.names = [...POWER_COMMANDS, ...Object.keys(POWER_SUBCOMMANDS), ...DBUS_CLIENTS];
schedulers.names = Object.keys(SCHEDULERS);
kills.names = ['kill', 'killall5', 'pkill', 'killall', 'skill', 'fuser'];
privilege.names = ['sudo', 'doas', 'su', 'pkexec', 'runuser'];

/**
 * A file system mounted over a folder hides what the folder holds for as long as it stays (`mount -t
 * tmpfs none .loom`, `mount --bind /tmp/e .claude`): for the guard, the folder is gone. The mount point
 * is --target's value or the last of two operands (one operand is a mount from fstab).
 */
const MOUNT_WITH_ARG = ['-t', '--types', '-o', '--options', '-O', '--test-opts', '-L', '--label', '-U', '--uuid', '-N', '--namespace', '--source', '--target', '--target-prefix', '-T', '--fstab', '--map-users', '--map-groups'];
const mounts: Rule = (r) => {
  const target = r.argv.find((_, k) => k > 0 && r.argv[k - 1] === '--target') ?? r.argv.find((x) => x.startsWith('--target='))?.slice('--target='.length);
  const ops = operands(r.argv, 1, MOUNT_WITH_ARG);
  const point = target ?? (ops.length >= 2 ? ops[ops.length - 1] : undefined);
  if (point === undefined) return;
  // Only what the guard protects is hidden: the project's folders, the home folder itself and its hook settings, /, the system's folders.
  const { home, projectDir } = r.opts;
  const abs = posix.resolve(r.cwd, point.replace(/^~(?=\/|$)/, home));
  const guarded = within(abs, projectDir) || abs === home || abs === '/' || SYSTEM_DIRS.includes(abs) || under(home).hookSettings.some((f) => within(abs, f) || within(f, abs));
  if (guarded) deletesPath(r.analyzer, point, r.cwd, r.segment, { recursive: true, verb: 'mounts a file system over (hides)' });
};
mounts.names = ['mount', 'bindfs'];

export const DISK_RULES: Rule[] = [blockDevices, permissions, aclAndAttributes, power, schedulers, packageHooks, kills, privilege, mounts];
