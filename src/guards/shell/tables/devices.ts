// Disks and the system: which device paths are whole disks or partitions,
// which programs erase them, which modes open a tree to everyone, which
// commands stop the machine. Tables only.

/** Block devices (a write to one destroys a filesystem). `/dev/null`, `/dev/zero`, ttys and fds are not here. */
export const BLOCK_DEVICE = /^\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|loop\d|sr\d|disk\d|rdisk\d|disk\/|mapper\/|nbd\d|zd\d|zvol\/|bcache\d|root$|rootfs$)/;

/** Device names a glob in a device path is tried against (`/dev/s[d]a`, `/dev/nvme?n1`: a glob that can name a disk is that disk). */
export const BLOCK_DEVICE_SAMPLES = ['/dev/sda', '/dev/sdb', '/dev/sda1', '/dev/hda', '/dev/vda', '/dev/vda1', '/dev/xvda', '/dev/nvme0n1', '/dev/nvme0n1p1', '/dev/mmcblk0', '/dev/mmcblk0p1', '/dev/md0', '/dev/dm-0', '/dev/loop0', '/dev/disk0', '/dev/rdisk0', '/dev/mapper/root', '/dev/root'];

/** Programs that copy a device by `if=` / `of=` operands, as dd does. */
export const DD_LIKE = ['dd', 'dcfldd', 'dc3dd'];

/** Programs that erase, format or repartition a device whatever their options. */
export const DISK_ERASERS = ['mkfs', 'mke2fs', 'mkswap', 'mkdosfs', 'mkntfs', 'mkexfatfs', 'wipefs', 'blkdiscard', 'sgdisk', 'sfdisk', 'fdisk', 'gdisk', 'cfdisk', 'parted', 'zpool', 'badblocks', 'nvme', 'hdparm', 'cryptsetup', 'diskutil', 'format', 'mdadm', 'pvcreate', 'vgremove', 'lvremove', 'dmsetup', 'flashrom', 'zerofree', 'scrub', 'sg_format', 'debugfs', 'xfs_db'];

/** Per eraser: the arguments that make it destructive (otherwise it only reads). Missing = always destructive. */
export const DISK_ERASER_TRIGGERS: Record<string, RegExp> = {
  wipefs: /^(?:-a|--all|-o|--offset|-[a-zA-Z]*a[a-zA-Z]*)$/,
  fdisk: /^\/dev\//,
  gdisk: /^\/dev\//,
  cfdisk: /^\/dev\//,
  sfdisk: /^\/dev\//,
  parted: /^(?:mklabel|mkpart|rm|resizepart|mktable|mkpartfs|-s|--script)$/,
  sgdisk: /^(?:-Z|--zap-all|-o|--clear|-z|--zap|-d|--delete|-n|--new)$/,
  zpool: /^(?:destroy|labelclear|create)$/,
  badblocks: /^-[a-zA-Z]*w/,
  nvme: /^(?:format|sanitize|delete-ns)$/,
  hdparm: /^--(?:security-erase|security-erase-enhanced|trim-sector-ranges|write-sector|make-bad-sector|fwdownload|dco-restore)/,
  cryptsetup: /^(?:luksFormat|erase|luksErase|format|reencrypt|luksKillSlot|luksRemoveKey)$/,
  diskutil: /^(?:eraseDisk|eraseVolume|zeroDisk|randomDisk|partitionDisk|secureErase|reformat|eraseCD|apfs)$/,
  format: /^[A-Za-z]:$/,
  mdadm: /^(?:--zero-superblock|--create|-C)$/,
  dmsetup: /^(?:remove_all|wipe_table)$/,
  // Filesystem debuggers write to the device only when told to (debugfs -w, xfs_db -x): then any block or inode.
  debugfs: /^-[a-zA-Z]*w[a-zA-Z]*$/,
  xfs_db: /^-[a-zA-Z]*x[a-zA-Z]*$/,
};

/** Whether a chmod mode sets the setuid or setgid bit (`4755`, `u+s`, `g=s`): the file then runs with its owner's rights. */
export function setsIdBits(mode: string): boolean {
  if (/^[0-7]{4}$/.test(mode)) return (parseInt(mode[0], 8) & 6) !== 0;
  return mode.split(',').some((clause) => /^[ugoa]*[+=][rwxXt]*s/.test(clause));
}

/** Whether a chmod mode leaves the owner without execute (`644`, `-x`, `a-x`, `u=rw`): a program is then no longer one. */
export function removesExecute(mode: string): boolean {
  if (/^[0-7]{3,4}$/.test(mode)) return !(parseInt(mode.slice(-3)[0], 8) & 1);
  return mode.split(',').some((clause) => {
    const c = /^([ugoa]*)([-=])([rwxXst]*)$/.exec(clause);
    return c !== null && !/^[go]+$/.test(c[1]) && (c[2] === '-' ? c[3].includes('x') : !/[xX]/.test(c[3]));
  });
}

/**
 * What a chmod mode does to everyone: opens write to all (`777`, `1777`,
 * `o+w`, `go+w`, `a=rwx`, `+w`), closes everything (`000`, `a-rwx`, `a=`),
 * or locks the owner out of a tree (`0444`, `0200`, `u-rwx`, `a-r`, `u-w`).
 */
export function modeEffect(mode: string): 'world-writable' | 'no-access' | 'owner-locked' | undefined {
  if (/^[0-7]{1,4}$/.test(mode)) {
    const n = parseInt(mode, 8) & 0o777;
    if (n & 0o002) return 'world-writable';
    if (n === 0) return 'no-access';
    // Applied to a tree, files without the owner's r or w cannot be read or changed by their owner (x alone is a file's business: `find -type f -exec chmod 644`).
    if (!(n & 0o400) || !(n & 0o200)) return 'owner-locked';
    return undefined;
  }
  // Whether the clauses leave the owner without read or write (unknown until a clause names it).
  let ownerLost = false;
  // Whether each class (user, group, others) ends with no permission at all: `u=,g=,o=` closes as `000` does.
  const closed: Record<string, boolean> = { u: false, g: false, o: false };
  for (const clause of mode.split(',')) {
    const m = /^([ugoa]*)((?:[-+=][rwxXstugo]*)+)$/.exec(clause);
    if (!m) continue;
    const who = m[1] === '' ? 'a' : m[1];
    const classes = who.includes('a') ? ['u', 'g', 'o'] : [...new Set(who)];
    for (const op of m[2].match(/[-+=][rwxXstugo]*/g) ?? []) {
      const perms = op.slice(1);
      // `+w` with no who is masked by the umask (022): only an explicit o or a opens the tree to everyone.
      // `o=u`, `o+u`: the others get what the owner has, writing included.
      if ((op[0] === '+' || op[0] === '=') && (perms.includes('w') || perms.includes('u')) && m[1] !== '' && (who.includes('o') || who.includes('a'))) return 'world-writable';
      const removesAll = (op[0] === '=' && perms === '') || (op[0] === '-' && perms.includes('r') && perms.includes('w') && perms.includes('x'));
      for (const c of classes) {
        if (removesAll) closed[c] = true;
        else if (op[0] !== '-' && perms !== '') closed[c] = false;
      }
      // `u-r`, `u-w`, `a-rwx`, `-r`, `u=x`: the owner loses reading or writing (a `-` with no who is not masked by the umask).
      if (classes.includes('u')) {
        if ((op[0] === '-' && /[rw]/.test(perms)) || (op[0] === '=' && !(perms.includes('r') && perms.includes('w')))) ownerLost = true;
        else if ((op[0] === '+' || op[0] === '=') && perms.includes('r') && perms.includes('w')) ownerLost = false;
      }
    }
  }
  if (closed.u && closed.g && closed.o) return 'no-access';
  return ownerLost ? 'owner-locked' : undefined;
}

/** Commands that stop or restart the machine (ask). */
export const POWER_COMMANDS = ['shutdown', 'reboot', 'halt', 'poweroff', 'kexec'];
export const POWER_SUBCOMMANDS: Record<string, string[]> = { systemctl: ['poweroff', 'reboot', 'halt', 'kexec', 'suspend', 'hibernate', 'rescue', 'emergency', 'default', 'isolate', 'soft-reboot'], init: ['0', '6', '1', 's', 'S'], telinit: ['0', '6', '1', 's', 'S'], loginctl: ['poweroff', 'reboot', 'terminate-user', 'kill-user'] };

/** D-Bus clients, and the login manager's methods that stop or restart the machine (`busctl call ... PowerOff`). */
export const DBUS_CLIENTS = ['dbus-send', 'busctl', 'gdbus', 'qdbus', 'qdbus6', 'dbus'];
export const DBUS_POWER_METHOD = /(?:^|\.)(?:PowerOff|Reboot|Halt|KExec|SoftReboot|PowerOffWithFlags|RebootWithFlags|HaltWithFlags)$/;

/** Scheduling a command to run later or at login (persistence, ask). */
// `at` and `batch` run a job once, later: not persistence (the job's script is judged as any script is).
export const SCHEDULERS: Record<string, RegExp> = { 'ssh-copy-id': /./, loginctl: /^enable-linger$/, crontab: /^(?:-$|[^-])|^-r$/, systemctl: /^(?:enable|link|preset|set-default|edit)$/, launchctl: /^(?:load|bootstrap|submit|enable)$/, schtasks: /^\/create$/i, defaults: /^(?:LoginHook|LogoutHook)$/, 'systemd-run': /^--on-(?:calendar|boot|startup|unit-active|unit-inactive)(?:=|$)/ };

/** loom's own processes by name or command line (its server or daemon): stopping them switches the guard off. */
// Any non-word character may follow: a pattern (`loom.*daemon`, `loom*`), a unit (`loom-governance.service`).
export const LOOM_PROCESS = /(?:^|[\/\s'"*-])loom(?:-governance)?(?![A-Za-z0-9_])/;

/** Bare runtime names: pkill -f node kills every Node process on the machine, not the dev server. */
export const RUNTIME_NAMES = /^(?:claude|codex|gemini|cursor|cursor-agent|opencode|copilot|qwen|droid|crush|kilo|aider|goose|node|nodejs|python[0-9.]*|java|ruby|perl|php|bash|sh|zsh|fish|npm|npx|yarn|pnpm|bun|deno|go|next|chrome|chromium|firefox|docker|dockerd|code|electron|ssh|sshd|postgres|mysqld|redis-server|systemd|init|launchd|sudo|login|Xorg|\.|\.\*)$/;
