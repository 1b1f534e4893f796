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
import { SYSTEM_DAMAGE, type SystemDamage } from '../tables/system';
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
overwriters.names = ['mv', 'gmv', 'truncate', 'dd', 'cp', 'install', 'ln', 'tee', 'gio', '7z', '7za', '7zz', 'tar', 'gtar', 'bsdtar', 'zip'];

/**
 * A container run privileged (`docker run --privileged IMAGE`): whatever its image does, it can do to this
 * machine, every device and capability included (`container-host-access`, ask). A folder of the host mounted
 * into a container is judged by what runs there, through the mount (launchers.ts).
 */
/** Sockets that hand whoever holds them this machine's container engine: a container with one starts any other, mounts included. */
const ENGINE_SOCKETS = ['/var/run/docker.sock', '/run/docker.sock', '/run/podman/podman.sock', '/run/containerd/containerd.sock', '/var/run/containerd/containerd.sock', '/run/crio/crio.sock'];

/**
 * What a mount gives the container of this machine as a whole: its engine's socket. (A folder mounted, the root
 * folder included, is judged by what runs there, through the mount.)
 */
function hostMount(spec: string): string | undefined {
  // -v SRC:DST[:OPTS] or --mount type=bind,source=SRC,target=DST[,readonly]
  const kv = spec.includes('=') ? Object.fromEntries(spec.split(',').map((p) => [p.split('=')[0].trim().toLowerCase(), p.slice(p.indexOf('=') + 1)])) : undefined;
  const src = kv ? (kv.source ?? kv.src) : spec.split(':')[0];
  if (src === undefined) return undefined;
  const path = src.replace(/\/+$/, '') || '/';
  if (ENGINE_SOCKETS.includes(path)) return `mounts the container engine's socket (${path}): it can start any container, with this machine's root folder mounted`;
  return undefined;
}

const containerHostAccess: Rule = (r) => {
  const argv = r.argv;
  const run = argv.findIndex((a, i) => i > 0 && (a === 'run' || a === 'create'));
  if (run < 0 || argv.slice(1, run).some((a) => !a.startsWith('-') && a !== 'container')) return;
  let why: string | undefined;
  for (let k = run + 1; k < argv.length && !why; k++) {
    const a = argv[k];
    if (!a.startsWith('-')) break; // the image: options end
    if (a === '--privileged' || a === '--privileged=true') why = 'runs privileged (every device and capability of the host)';
    const mount = /^(?:-v|--volume|--mount)$/.test(a) ? argv[k + 1] : /^(?:-v|--volume|--mount)=(.*)$/s.exec(a)?.[1];
    if (mount !== undefined) why = hostMount(mount);
    // Options that take a value: skip it, so an image name is not mistaken for one.
    if (/^(?:-[vewpuhl]|--(?:volume|mount|env|workdir|publish|user|hostname|label|name|network|entrypoint))$/.test(a)) k++;
  }
  if (why) r.analyzer.hit('container-host-access', 'ask', r.segment, `${r.name} ${why}: its image acts on this machine with root's rights`);
};
containerHostAccess.names = ['docker', 'podman', 'nerdctl'];

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

export const SYSTEM_RULES: Rule[] = [damage, allVolumes, systemTrees, overwriters, containerHostAccess, engineApi];
