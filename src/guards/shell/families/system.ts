// The system family: switching off what keeps the machine reachable and safe
// (firewall, network, swap, remounts, accounts and privileges, security
// modules and the services behind them, container volumes with data), from
// the table in tables/system.ts; recursive permission changes over system
// folders; and files destroyed by being overwritten rather than deleted
// (truncated, emptied, replaced by /dev/null or random bytes, a symlink laid
// over them), judged like a delete of that file.
import { posix } from 'node:path';
import type { Rule, RuleContext } from '../rules';
import { classify, deletesPath, destroysFile, isSystemFile, resolveTarget, within } from '../path-rules';
import { CONTAINER_RUNNERS } from '../tables/launchers';
import { CONTAINER_HOST_ACCESS, SYSTEM_DAMAGE, type SystemDamage } from '../tables/system';
import { modeEffect, removesExecute, setsIdBits } from '../tables/devices';
import { operands } from './args';

const BY_NAME = new Map<string, SystemDamage[]>();
for (const d of SYSTEM_DAMAGE) for (const n of d.names) BY_NAME.set(n, [...(BY_NAME.get(n) ?? []), d]);

const HELP = /^(?:--help|-h|--version|-V|help)$/;

function matches(d: SystemDamage, args: string[]): boolean {
  if (d.sub && !d.sub.test(operands(['x', ...args])[0] ?? '')) return false;
  if (d.all && !d.all.every((p) => args.some((x) => p.test(x)))) return false;
  if (d.any && !args.some((x) => d.any!.test(x))) return false;
  return true;
}

const damage: Rule = (r) => {
  const list = BY_NAME.get(r.name);
  if (!list) return;
  const args = r.argv.slice(1);
  if (args.some((x) => HELP.test(x))) return;
  for (const d of list) {
    if (!matches(d, args)) continue;
    r.analyzer.hit(d.rule, 'deny', r.segment, `${r.name} ${d.what}`);
    return;
  }
};
damage.names = [...BY_NAME.keys()];

/** `docker volume rm $(docker volume ls -q)`: every volume, whatever its name. */
const allVolumes: Rule = (r) => {
  const args = r.argv.slice(1);
  if (!(args.includes('volume') && args.some((x) => x === 'rm' || x === 'remove'))) return;
  const listed = r.words.slice(1).flatMap((w) => w.subs ?? []).find((s) => /\bvolume\s+ls\b/.test(s.src) && !/--filter|-f\s/.test(s.src) && !/\|\s*grep\b/.test(s.src));
  if (listed) r.analyzer.hit('container-data-loss', 'deny', r.segment, `${r.name} deletes every volume, with its data`);
};
allVolumes.names = ['docker', 'podman'];

const WIDE = new Set(['root', 'system']);

/** Folders of the operating system's programs, libraries and configuration: a file there keeps its mode. */
const SYSTEM_FILE_TREES = ['/bin', '/sbin', '/usr', '/lib', '/lib32', '/lib64', '/libx32', '/etc', '/boot'];

/** chmod's own options (the rest of what starts with `-` is a mode: `chmod -x FILE`). */
const CHMOD_OPTION = /^-(?:[Rcfv]+|-[a-z-]+(?:=.*)?)$/;

/**
 * chmod of a file of the operating system: setuid or setgid on a program, or its execute bit taken away (a folder
 * of programs: bin, sbin, libexec), or any system file made writable by every user.
 */
function systemFileModes(r: RuleContext): void {
  if (r.argv.some((a) => a.startsWith('--reference'))) return;
  const words = r.argv.slice(1).filter((a) => !CHMOD_OPTION.test(a) || /^-[rwxXst]+$/.test(a));
  const mode = words[0];
  if (mode === undefined) return;
  // The mode grammar is tables/devices.ts's (modeEffect, setsIdBits, removesExecute).
  const damage = setsIdBits(mode)
    ? { id: 'privilege-grant' as const, why: "sets the setuid or setgid bit: the program then runs with its owner's rights (root) for anyone", on: 'program' }
    : modeEffect(mode) === 'world-writable'
      ? { id: 'chmod-recursive-system' as const, why: 'makes it writable by every user', on: 'system' }
      : removesExecute(mode)
        ? { id: 'chmod-recursive-system' as const, why: 'takes away its execute permission', on: 'program' }
        : undefined;
  if (!damage) return;
  for (const f of words.slice(1)) {
    if (f === '--') continue;
    const { abs, globbed } = resolveTarget(f, r.cwd);
    const system = SYSTEM_FILE_TREES.some((t) => abs === t || abs.startsWith(t + '/'));
    // A glob names files of the folder it stands in (`/usr/bin/*`): programs when that folder holds them.
    const program = (system || abs.startsWith('/opt/')) && (globbed ? /\/(?:s?bin|libexec)$/ : /\/(?:s?bin|libexec)\/[^/]+$/).test(abs);
    if (damage.on === 'system' ? system : program) {
      r.analyzer.hit(damage.id, 'deny', r.segment, `chmod ${mode} ${abs} ${damage.why}`);
      return;
    }
  }
}

/** umount of / or a system folder; chmod/setfacl/chattr -R over a system folder whatever the mode. */
const systemTrees: Rule = (r) => {
  const { name, argv } = r;
  if (name === 'umount') {
    for (const t of operands(argv)) {
      const { abs } = resolveTarget(t, r.cwd);
      if (WIDE.has(classify(abs, r.analyzer)) && !abs.startsWith('/mnt/') && !abs.startsWith('/media/')) r.analyzer.hit('unmount-system', 'deny', r.segment, `umount takes ${abs} away from the running system`);
    }
    return;
  }
  const recursive = argv.slice(1).some((x) => x === '-R' || x === '--recursive' || /^-[a-zA-Z]*R[a-zA-Z]*$/.test(x));
  if (!recursive) {
    if (name === 'chmod') systemFileModes(r);
    return;
  }
  const ops = operands(argv, 1, ['-m', '-M', '-x', '-X', '--modify', '--set', '--set-file', '--remove', '--reference', '--modify-file', '--remove-file']);
  const files = name === 'setfacl' || name === 'chattr' ? ops : ops.slice(1);
  for (const f of files) {
    const { abs } = resolveTarget(f.startsWith('~') ? r.opts.home + f.slice(1) : f, r.cwd);
    if (WIDE.has(classify(abs, r.analyzer))) r.analyzer.hit('chmod-recursive-system', 'deny', r.segment, `${name} -R changes the permissions of every file under ${abs}, a folder of the operating system`);
  }
};
systemTrees.names = ['umount', 'chmod', 'setfacl', 'chattr'];

const NOTHING = /^\/dev\/(?:null|zero|u?random|full)$/;

function destroyed(r: RuleContext, path: string, verb: string): void {
  destroysFile(r.analyzer, path, r.cwd, r.segment, { verb, home: true });
}

/** A size that leaves nothing or less than before: `-s 0`, `-s -10`, `-s <5K`, `--size=0`. */
function shrinks(size: string | undefined): boolean {
  return size !== undefined && (/^0+[KMGTPEZY]?i?B?$/i.test(size) || /^[-<\/%]/.test(size));
}

/** Files overwritten rather than deleted: each is judged like a delete of its content. */
const overwriters: Rule = (r) => {
  const { name, argv } = r;
  const args = argv.slice(1);
  if (name === 'truncate') {
    let size: string | undefined;
    args.forEach((x, i) => {
      if (x === '-s' || x === '--size') size = args[i + 1];
      else if (x.startsWith('--size=')) size = x.slice(7);
      else if (/^-s./.test(x)) size = x.slice(2);
    });
    if (shrinks(size)) for (const f of operands(argv, 1, ['-s', '--size', '-r', '--reference'])) destroyed(r, f, 'truncates');
    return;
  }
  if (name === 'dd') {
    const from = args.find((x) => x.startsWith('if='))?.slice(3);
    const of = args.find((x) => x.startsWith('of='))?.slice(3);
    if (of && from !== undefined && NOTHING.test(from)) destroyed(r, of, `overwrites with ${from}`);
    return;
  }
  // tee reading nothing (`tee f < /dev/null`) empties every file it is given.
  if (name === 'tee') {
    const empty = r.cmd.redirects.some((rd) => rd.op === '<' && NOTHING.test(rd.target.text)) || (r.stdin?.kind === 'static' && r.stdin.text === '');
    if (empty && !args.some((x) => /^-[a-zA-Z]*a/.test(x) || x === '--append')) for (const f of operands(argv)) destroyed(r, f, 'tee of nothing empties');
    return;
  }
  if (name === 'cp' || name === 'install') {
    const ops = operands(argv, 1, ['-m', '--mode', '-o', '--owner', '-g', '--group', '-S', '--suffix', '-t', '--target-directory']);
    if (ops.length >= 2 && ops.slice(0, -1).some((s) => NOTHING.test(s))) destroyed(r, ops[ops.length - 1], `overwrites with ${ops[0]}`);
    return;
  }
  if (name === 'ln') {
    const force = args.some((x) => x === '--force' || /^-[a-zA-Z]*f/.test(x));
    const ops = operands(argv, 1, ['-t', '--target-directory', '-S', '--suffix']);
    const dest = ops[ops.length - 1];
    // The link's own path, not where an earlier link on the line points: a link inside the project replaces a project file.
    if (force && ops.length >= 2 && !within(resolveTarget(dest.startsWith('~') ? r.opts.home + dest.slice(1) : dest, r.cwd).abs, r.opts.projectDir)) destroyed(r, dest, `replaces with a link to ${ops[0]}`);
    return;
  }
  if (name === 'mv' || name === 'gmv') {
    // Moving a file or folder of the operating system away breaks what needs it (`mv /usr/bin /usr/bin.old`).
    const ops = operands(argv, 1, ['-t', '--target-directory', '-S', '--suffix']);
    for (const s of ops.slice(0, -1)) {
      const { abs } = resolveTarget(s, r.cwd);
      if (isSystemFile(abs, r.analyzer)) r.analyzer.hit('destroy-outside-project', 'deny', r.segment, `mv moves ${abs}, a file of the operating system, away`);
    }
    return;
  }
  if (name === 'gio' && (args[0] === 'trash' || args[0] === 'remove')) {
    for (const f of operands(argv, 2)) deletesPath(r.analyzer, f, r.cwd, r.segment, { recursive: true });
    return;
  }
  // KDE's client: `kioclient5 move SRC... trash:/` trashes, `kioclient5 remove URL` deletes.
  if (/^kioclient[56]?$/.test(name) && (args[0] === 'move' || args[0] === 'mv' || args[0] === 'remove' || args[0] === 'rm')) {
    const ops = operands(argv, 2);
    const trashed = args[0] === 'remove' || args[0] === 'rm' ? ops : /^trash:\/?/.test(ops[ops.length - 1] ?? '') ? ops.slice(0, -1) : [];
    for (const f of trashed) deletesPath(r.analyzer, f.replace(/^file:\/\//, ''), r.cwd, r.segment, { recursive: true });
    return;
  }
  if ((name === '7z' || name === '7za' || name === '7zz') && args.includes('-sdel')) {
    for (const f of operands(argv, 2).slice(1)) deletesPath(r.analyzer, f, r.cwd, r.segment, { recursive: true });
    return;
  }
  // zip -m / --move deletes each file once it is in the archive (-r: whole folders).
  if (name === 'zip' && args.some((x) => x === '--move' || /^-[a-zA-Z0-9]*m/.test(x))) {
    const recursive = args.some((x) => x === '--recurse-paths' || /^-[a-zA-Z0-9]*[rR]/.test(x));
    for (const f of operands(argv, 1, ['-b', '-n', '-t', '-tt', '-x', '-i', '-P', '-Z', '-s', '-O', '--out']).slice(1)) deletesPath(r.analyzer, f, r.cwd, r.segment, { recursive });
    return;
  }
  if ((name === 'tar' || name === 'gtar' || name === 'bsdtar') && args.includes('--remove-files')) {
    const c = args.findIndex((x) => x === '-C' || x === '--directory');
    const base = c >= 0 && args[c + 1] ? posix.resolve(r.cwd, args[c + 1]) : r.cwd;
    const files: string[] = [];
    for (let k = 0; k < args.length; k++) {
      const x = args[k];
      if (x === '-C' || x === '--directory' || x === '-f' || x === '--file' || x === '-T' || x === '--files-from' || x === '-X' || x === '--exclude-from' || x === '--exclude' || x === '-b' || x === '-H' || x === '--format') k++;
      else if (/^-[a-zA-Z]*f$/.test(x) || (k === 0 && /^[a-zA-Z]*f$/.test(x))) k++;
      else if (!x.startsWith('-') && !(k === 0 && /^[a-zA-Z]+$/.test(x))) files.push(x);
    }
    for (const f of files) deletesPath(r.analyzer, f.startsWith('~') ? f : posix.resolve(base, f), r.cwd, r.segment, { recursive: true });
  }
};
overwriters.names = ['mv', 'gmv', 'truncate', 'dd', 'cp', 'install', 'ln', 'tee', 'gio', 'kioclient', 'kioclient5', 'kioclient6', '7z', '7za', '7zz', 'tar', 'gtar', 'bsdtar', 'zip'];

/**
 * A container given this machine instead of a sandbox (`container-host-access`, ask): run privileged,
 * with a capability that reaches past it, the host's process namespace, its sandbox switched off, the
 * machine's disks, the engine's socket, or one of the machine's root folders mounted writable. Other
 * folders of the host mounted into a container are judged by what runs there, through the mount
 * (launchers.ts). Options are read with the runners' grammar (CONTAINER_RUNNERS).
 */
const ENGINE_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/podman/podman.sock', '/run/containerd/containerd.sock', '/var/run/containerd/containerd.sock', '/run/crio/crio.sock'];

/** What a mount gives the container of this machine as a whole: its engine's socket, or a root folder writable. */
function hostMount(spec: string, mountSyntax: boolean): string | undefined {
  // -v SRC:DST[:OPTS] or --mount type=bind,source=SRC,target=DST[,readonly]
  const kv = mountSyntax ? Object.fromEntries(spec.split(',').map((p) => [p.split('=')[0].trim().toLowerCase(), p.slice(p.indexOf('=') + 1)])) : undefined;
  const parts = spec.split(':');
  const src = kv ? (kv.source ?? kv.src) : parts.length >= 2 ? parts[0] : undefined;
  if (src === undefined) return undefined;
  const path = posix.normalize(src).replace(/(.)\/+$/, '$1');
  if (ENGINE_SOCKETS.includes(path)) return `mounts the container engine's socket (${path}): it can start any container, with this machine's root folder mounted`;
  const readOnly = kv ? 'readonly' in kv || 'ro' in kv || kv.readonly === 'true' : /(?:^|,)ro(?:,|$)/.test(parts[2] ?? '');
  if (!readOnly && CONTAINER_HOST_ACCESS.roots.includes(path)) return `mounts this machine's ${path === '/' ? 'root folder' : path} writable`;
  return undefined;
}

/** Why one option of `run` / `create` / `exec` hands the container this machine, if it does. */
function hostOption(opt: string, val: string | undefined): string | undefined {
  const t = CONTAINER_HOST_ACCESS;
  if (opt === '--privileged' && (val === undefined || val === 'true')) return 'runs privileged (every device and capability of the host)';
  if (val === undefined) return undefined;
  if (opt === '--cap-add' && val.split(',').some((c) => t.capabilities.test(c.trim()))) return `adds the capability ${val}, which reaches past the container`;
  if (t.hostNamespaces.includes(opt) && val === 'host') return `shares the host's ${opt.slice(2)} namespace`;
  if (opt === '--security-opt' && t.unconfined.test(val)) return `switches the container's sandbox off (${val})`;
  if (opt === '--device' && t.devices.test(val.split(':')[0])) return `hands it this machine's device ${val.split(':')[0]}`;
  if (CONTAINER_RUNNERS.volume.includes(opt) || CONTAINER_RUNNERS.mount.includes(opt)) return hostMount(val, CONTAINER_RUNNERS.mount.includes(opt));
  return undefined;
}

const containerHostAccess: Rule = (r) => {
  const argv = r.argv;
  let k = 1;
  // global options (docker --context x, podman --remote)
  while (k < argv.length && argv[k].startsWith('-')) k += argv[k].includes('=') || /^--(?:debug|remote)$/.test(argv[k]) ? 1 : 2;
  let sub = argv[k];
  if (sub === 'container') sub = `container ${argv[++k]}`;
  if (!CONTAINER_RUNNERS.run.includes(sub ?? '')) return;
  let why: string | undefined;
  for (k++; k < argv.length && !why; k++) {
    const a = argv[k];
    if (!a.startsWith('-') || a === '-' || a === '--') break; // the image: options end
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const opt = eq > 0 ? a.slice(0, eq) : a;
      const noArg = CONTAINER_RUNNERS.longNoArg.includes(opt);
      why = hostOption(opt, eq > 0 ? a.slice(eq + 1) : noArg ? undefined : argv[++k]);
      continue;
    }
    for (let i = 1; i < a.length; i++) {
      if (!CONTAINER_RUNNERS.shortWithArg.includes(a[i])) continue;
      const val = i < a.length - 1 ? a.slice(i + 1) : argv[++k];
      if (a[i] === 'v') why = hostOption('-v', val);
      break;
    }
  }
  if (why) r.analyzer.hit('container-host-access', 'ask', r.segment, `${r.name} ${sub} ${why}: its image acts on this machine with root's rights`);
};
containerHostAccess.names = CONTAINER_RUNNERS.names;

/** Pod fields that hand a Kubernetes pod its node (`kubectl run --overrides`), and `kubectl debug node/...`, which mounts the node's root folder. */
const podHostAccess: Rule = (r) => {
  const args = r.argv.slice(1);
  const sub = args.find((a) => !a.startsWith('-'));
  let why: string | undefined;
  if (sub === 'debug' && args.some((a) => /^(?:node|nodes|no)\//.test(a))) why = "debugs a node: its pod gets the node's root folder and namespaces";
  else if (sub === 'run' || sub === 'debug') {
    if (args.some((a) => a === '--privileged' || a === '--privileged=true')) why = 'runs a privileged pod';
    const at = args.findIndex((a) => a === '--overrides' || a.startsWith('--overrides='));
    const json = at < 0 ? undefined : args[at].includes('=') ? args[at].slice(args[at].indexOf('=') + 1) : args[at + 1];
    if (json && CONTAINER_HOST_ACCESS.podFields.test(json)) why = "runs a pod given its node's processes, network, devices or root folder";
    if (args.some((a) => /^--profile(?:=|$)/.test(a)) && args.some((a) => a === 'sysadmin' || a === '--profile=sysadmin')) why = 'debugs with the sysadmin profile (privileged)';
  }
  if (why) r.analyzer.hit('container-host-access', 'ask', r.segment, `${r.name} ${why}: what runs there runs on the node as root`);
};
podHostAccess.names = ['kubectl', 'oc'];

/** Entering init's namespaces (`nsenter -t 1 -m`) or changing root to another process's root (`chroot /proc/1/root`): from a container, that is the host. */
const hostNamespaceEntry: Rule = (r) => {
  const args = r.argv.slice(1);
  let why: string | undefined;
  if (r.name === 'nsenter') {
    for (let k = 0; k < args.length; k++) {
      const a = args[k];
      const target = a === '-t' || a === '--target' ? args[k + 1] : /^--target=(.*)$/.exec(a)?.[1] ?? /^-[a-zA-Z]*t(\d+)$/.exec(a)?.[1];
      if (target === '1') why = "enters the namespaces of process 1 (this machine's init)";
      if (!a.startsWith('-')) break;
    }
  } else {
    const root = args.find((a) => !a.startsWith('-'));
    if (root && /^\/proc\/(?!self\/|thread-self\/)[^/]+\/root\/*$/.test(posix.normalize(root) + '/')) why = `changes root to another process's root folder (${root})`;
  }
  if (why) r.analyzer.hit('container-host-access', 'ask', r.segment, `${r.name} ${why}: what runs there runs on the host as root`);
};
hostNamespaceEntry.names = ['nsenter', 'chroot'];

/** The engine's API over its socket (`curl --unix-socket /var/run/docker.sock -X POST .../containers/create`): a request that changes something starts or changes containers as root. */
const engineApi: Rule = (r) => {
  const argv = r.argv;
  const at = argv.findIndex((a) => a === '--unix-socket' || a.startsWith('--unix-socket=') || a === '--abstract-unix-socket');
  if (at < 0) return;
  const socket = argv[at].includes('=') ? argv[at].slice(argv[at].indexOf('=') + 1) : argv[at + 1] ?? '';
  if (!ENGINE_SOCKETS.includes(socket.replace(/\/+$/, ''))) return;
  const method = argv.findIndex((a) => a === '-X' || a === '--request');
  const writes = (method >= 0 && !/^(?:GET|HEAD)$/i.test(argv[method + 1] ?? '')) || argv.some((a) => /^(?:-d|--data(?:-raw|-binary|-urlencode)?|-F|--form|-T|--upload-file|--json)(?:=|$)/.test(a) || /^-X(?!GET|HEAD)[A-Z]+$/.test(a));
  if (writes) r.analyzer.hit('container-host-access', 'ask', r.segment, `${r.name} sends a request that changes containers to the container engine's socket (${socket}): it can start one with this machine's root folder mounted`);
};
engineApi.names = ['curl'];

export const SYSTEM_RULES: Rule[] = [damage, allVolumes, systemTrees, overwriters, containerHostAccess, podHostAccess, hostNamespaceEntry, engineApi];
