// Commands that switch off what keeps the machine reachable and safe: the
// firewall, the network, swap, mounted system folders, user accounts and
// their privileges, the security modules and the services that provide them,
// and container volumes holding data. Tables only: families/system.ts judges
// them, docs/guard.md lists them.

/** Services whose stop, disable or mask takes away remote access or protection. */
export const PROTECTIVE_SERVICES = /^(?:sshd?|openssh(?:-server)?|firewalld|ufw|iptables|ip6tables|nftables|netfilter-persistent|apparmor|auditd|selinux|fail2ban|crowdsec|systemd-journald|rsyslog|syslog|syslog-ng|NetworkManager|networking|network|systemd-networkd|systemd-resolved|wpa_supplicant|clamav-daemon|falcon-sensor|osqueryd|wazuh-agent|ossec)(?:\.service|\.socket)?$/;

/** Groups that carry administrator rights: adding a user to one is a privilege grant. */
export const ADMIN_GROUPS = /(?:^|,)(?:sudo|wheel|root|admin|adm|docker|lxd|disk|shadow)(?:,|$)/;

export interface SystemDamage {
  /** Program names. */
  names: string[];
  /** The first operand (subcommand) must be one of these. */
  sub?: RegExp;
  /** Every pattern must match some argument after the name. */
  all?: RegExp[];
  /** At least one argument must match (when given). */
  any?: RegExp;
  rule: string;
  what: string;
}

export const SYSTEM_DAMAGE: SystemDamage[] = [
  { names: ['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft', 'ip6tables-legacy', 'ip6tables-nft', 'ebtables', 'arptables'], any: /^(?:-F|--flush|-X|--delete-chain|-[A-Za-z]*F)$/, rule: 'firewall-off', what: 'flushes the firewall rules' },
  { names: ['iptables', 'ip6tables', 'iptables-legacy', 'iptables-nft'], all: [/^(?:-P|--policy)$/, /^(?:DROP|REJECT)$/], rule: 'network-down', what: 'sets a firewall chain to drop everything, cutting the machine off' },
  { names: ['nft'], all: [/^(?:flush|delete)$/, /^(?:ruleset|table)$/], rule: 'firewall-off', what: 'flushes or deletes the firewall rule set' },
  { names: ['ufw'], sub: /^(?:disable|reset)$/, rule: 'firewall-off', what: 'turns the firewall off' },
  { names: ['firewall-cmd'], any: /^--panic-on$/, rule: 'network-down', what: 'drops all network traffic' },
  { names: ['netsh'], all: [/^advfirewall$/i, /^off$/i], rule: 'firewall-off', what: 'turns the Windows firewall off' },
  { names: ['systemctl'], all: [/^(?:stop|disable|mask|kill|isolate)$/, PROTECTIVE_SERVICES], rule: 'security-service-off', what: 'stops a service that provides remote access, the firewall, logging or protection' },
  { names: ['service'], all: [PROTECTIVE_SERVICES, /^stop$/], rule: 'security-service-off', what: 'stops a service that provides remote access, the firewall, logging or protection' },
  { names: ['update-rc.d', 'chkconfig'], all: [PROTECTIVE_SERVICES, /^(?:disable|remove|off)$/], rule: 'security-service-off', what: 'disables a service that provides remote access, the firewall, logging or protection' },
  { names: ['ip'], all: [/^(?:l|li|lin|link)$/, /^down$/], rule: 'network-down', what: 'takes a network interface down' },
  { names: ['ip'], all: [/^(?:a|ad|add|addr|address|r|ro|rou|route|n|neigh)$/, /^(?:flush|del|delete)$/], rule: 'network-down', what: 'removes the machine\'s addresses or routes' },
  { names: ['ifconfig'], any: /^down$/, rule: 'network-down', what: 'takes a network interface down' },
  { names: ['ifdown'], rule: 'network-down', what: 'takes a network interface down' },
  { names: ['nmcli'], all: [/^(?:n|networking|r|radio)$/, /^off$/], rule: 'network-down', what: 'turns networking off' },
  { names: ['swapoff'], any: /^(?:-a|--all|\/)/, rule: 'swap-off', what: 'turns swap off, which can make the machine run out of memory' },
  { names: ['mount'], all: [/(?:^|,)remount(?:,|$)/, /(?:^|,)ro(?:,|$)/], rule: 'remount-readonly', what: 'remounts a filesystem read-only' },
  { names: ['setenforce'], any: /^(?:0|[Pp]ermissive)$/, rule: 'security-module-off', what: 'switches SELinux enforcement off' },
  { names: ['aa-disable', 'aa-teardown', 'aa-complain'], rule: 'security-module-off', what: 'switches AppArmor protection off' },
  { names: ['auditctl'], any: /^(?:-D|-e)$/, rule: 'security-module-off', what: 'deletes or disables the audit rules' },
  { names: ['userdel', 'deluser', 'delgroup', 'groupdel'], rule: 'user-accounts', what: 'deletes a user account or group' },
  { names: ['passwd'], any: /^(?:-d|--delete|-[a-zA-Z]*d[a-zA-Z]*)$/, rule: 'user-accounts', what: 'removes a password, so the account needs none' },
  { names: ['usermod'], any: /^(?:-p|--password|-o|--non-unique|-u|--uid)$/, rule: 'user-accounts', what: 'changes a user\'s password or identity' },
  { names: ['usermod', 'gpasswd', 'adduser', 'addgroup'], any: ADMIN_GROUPS, rule: 'privilege-grant', what: 'adds a user to an administrator group' },
  { names: ['chpasswd', 'newusers'], rule: 'user-accounts', what: 'sets account passwords in bulk' },
  { names: ['docker', 'podman'], all: [/^system$/, /^prune$/, /^--volumes$/], rule: 'container-data-loss', what: 'deletes every unused volume, with its data' },
  { names: ['docker', 'podman'], all: [/^volume$/, /^prune$/, /^(?:-a|--all|-[a-zA-Z]*a[a-zA-Z]*)$/], rule: 'container-data-loss', what: 'deletes every volume not in use, named ones included, with their data' },
  { names: ['sysctl'], any: /^(?:kernel\.randomize_va_space=0|kernel\.yama\.ptrace_scope=0|net\.ipv4\.ip_forward=1)$/, rule: 'security-module-off', what: 'weakens a kernel protection' },
];

/** System files whose content is the machine's identity and access: any write to one is a deny, an append included (but /etc/hosts may be appended to). */
export const CRITICAL_SYSTEM_FILES = ['/etc/passwd', '/etc/shadow', '/etc/group', '/etc/gshadow', '/etc/sudoers', '/etc/sudoers.d', '/etc/hosts', '/etc/resolv.conf', '/etc/fstab', '/etc/ssh', '/etc/pam.d', '/etc/security', '/etc/nsswitch.conf', '/etc/ld.so.preload', '/etc/ld.so.conf', '/etc/ld.so.conf.d', '/boot', '/etc/selinux', '/etc/apparmor.d', '/etc/login.defs', '/etc/shells',
  // The kernel's own settings and memory: core_pattern and modprobe run a program as root, /dev/mem is the RAM.
  '/proc/sys/kernel', '/proc/sys/fs/binfmt_misc', '/sys/kernel', '/dev/mem', '/dev/kmem', '/dev/port'];
/** A cgroup's release agent (any cgroup mount): the kernel runs the program it names as root, on the host. */
export const CRITICAL_SYSTEM_BASENAMES = ['release_agent'];
/** Of those, the ones an append to is ordinary work. */
export const APPENDABLE_SYSTEM_FILES = ['/etc/hosts'];

/** Shell and tool history files (relative to home): deleting or emptying them hides what was done. */
export const HISTORY_FILES = ['.bash_history', '.zsh_history', '.zhistory', '.history', '.sh_history', '.local/share/fish/fish_history', '.python_history', '.node_repl_history', '.psql_history', '.mysql_history', '.sqlite_history', '.lesshst', '.viminfo', '.irb_history', '.rediscli_history'];

/**
 * What hands a container (or a command) this machine rather than its own sandbox: each is
 * `container-host-access` (ask). A folder of the host mounted read-write is judged by what runs
 * there (launchers.ts), except these roots: whatever the image does with them, it does as root here.
 */
export const CONTAINER_HOST_ACCESS = {
  /** Capabilities that reach past the container: mounts, modules, other processes' memory, raw devices, any file. */
  capabilities: /^(?:CAP_)?(?:ALL|SYS_ADMIN|SYS_MODULE|SYS_PTRACE|SYS_RAWIO|SYS_BOOT|DAC_READ_SEARCH|BPF|MAC_ADMIN|MAC_OVERRIDE)$/i,
  /** Namespaces shared with the host (`--pid=host`); the network is left out: `--network host` is a development habit. */
  hostNamespaces: ['--pid', '--ipc', '--userns'],
  /** `--security-opt` values that switch the sandbox off. */
  unconfined: /^(?:(?:seccomp|apparmor)[=:]unconfined|label[=:](?:disable|type:spc_t)|systempaths=unconfined|no-new-privileges[=:]false)$/i,
  /** Devices that are this machine's disks or memory. */
  devices: /^\/dev\/(?:sd[a-z]|nvme\d|vd[a-z]|xvd[a-z]|hd[a-z]|mmcblk\d|md\d|dm-\d|mapper\/|disk\/|mem$|kmem$|port$|loop-control$)/,
  /** Host folders whose writable mount is root over the machine. */
  roots: ['/', '/etc', '/root', '/boot', '/usr', '/bin', '/sbin', '/lib', '/lib64', '/var', '/var/lib', '/dev', '/proc', '/sys', '/run', '/home'],
  /** Kubernetes pod fields that do the same (`kubectl run --overrides`, `kubectl debug node/`). */
  podFields: /"?(?:hostPID|hostIPC|hostNetwork|privileged|allowPrivilegeEscalation)"?\s*:\s*true|"?hostPath"?\s*:\s*\{\s*"?path"?\s*:\s*"?\/(?:[",}]|etc|root|var\/run\/docker\.sock|proc|sys|dev)/,
};
