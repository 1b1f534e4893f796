// Windows paths onto the shared path rules: environment spellings expanded to
// the folders they name (%USERPROFILE%, $env:APPDATA, [Environment]::
// GetFolderPath(...), ~), C:\Users\<the user>\... mapped onto the POSIX home
// the path rules know (so a delete there is judged like rm -rf ~/...), the
// temp folder onto the temp folder, and what has no POSIX twin judged by its
// Windows shape: drive roots, the Windows folders, other users' profiles,
// registry hives.
import type { Analyzer } from '../analyze';
import { deletesPath } from '../path-rules';
import { WIN_ENV_FOLDERS, WIN_FOLDER_IDS, WIN_REG_MACHINE_HIVES, WIN_REG_SHARED_KEYS, WIN_SYSTEM_DIRS } from '../tables/windows';

export type WinClass = 'root' | 'system' | 'home' | 'posix' | 'registry' | 'other';

const userOf = (a: Analyzer) => a.opts.home.split('/').pop() ?? 'user';

/** The folder an environment variable names on a standard install, or undefined. */
export function envFolder(a: Analyzer, name: string): string | undefined {
  const t = WIN_ENV_FOLDERS[name.toLowerCase()];
  return t === undefined ? undefined : t.replace('{user}', userOf(a));
}

/** The folder [Environment]::GetFolderPath names (by its SpecialFolder name). */
export function specialFolder(a: Analyzer, id: string): string | undefined {
  const env = WIN_FOLDER_IDS[id.toLowerCase().replace(/^.*::/, '')];
  if (env === undefined) return undefined;
  const [v, rest] = env.split('|');
  const base = envFolder(a, v);
  return base === undefined ? undefined : base + (rest ? '\\' + rest : '');
}

/** A registry key (reg.exe `HKCU\...`, PowerShell `HKCU:\...`, `Registry::HKEY_...`): its hive and subkeys. */
export function registryKey(text: string): { hive: string; parts: string[] } | undefined {
  const m = /^(?:registry::|microsoft\.powershell\.core\\registry::)?(hklm|hkcu|hkcr|hku|hkcc|hkey_local_machine|hkey_current_user|hkey_classes_root|hkey_users|hkey_current_config):?(?:[\\/]|$)(.*)$/i.exec(text.trim());
  if (!m) return undefined;
  const long: Record<string, string> = { hkey_local_machine: 'hklm', hkey_current_user: 'hkcu', hkey_classes_root: 'hkcr', hkey_users: 'hku', hkey_current_config: 'hkcc' };
  const hive = long[m[1].toLowerCase()] ?? m[1].toLowerCase();
  return { hive, parts: m[2].split(/[\\/]+/).filter((p) => p !== '' && p !== '*') };
}

/** Whether deleting this key takes a whole hive branch (machine keys, or the user's Software / Classes ...). */
export function registryWipe(key: { hive: string; parts: string[] }): boolean {
  if (WIN_REG_MACHINE_HIVES.includes(key.hive)) return true;
  if (key.parts.length <= 1) return true;
  return key.parts.length === 2 && WIN_REG_SHARED_KEYS.includes(key.parts[1].toLowerCase());
}

/** A Windows path's shape, or its POSIX equivalent for the shared rules. */
export function winPath(a: Analyzer, raw: string): { cls: WinClass; posix?: string } {
  let text = raw.replace(/^['"]|['"]$/g, '').trim();
  if (registryKey(text)) return { cls: 'registry' };
  // \\?\C:\ (long path), \\.\C:\ (device path) and \\host\c$\ (admin share) are C:\.
  text = text.replace(/^\\\\[?.]\\(?=[a-z]:)/i, '').replace(/^\\\\[^\\/]+\\([a-z])\$(?=[\\/]|$)/i, '$1:');
  if (text === '~' || /^~[\\/]/.test(text)) text = envFolder(a, 'userprofile') + text.slice(1);
  const lower = text.toLowerCase();
  const drive = /^[a-z]:(?:[\\/]|$)/i.exec(lower);
  if (drive || lower === '\\' || lower === '/' || lower === '\\*' || lower === '/*') {
    // `..` climbs: C:\Users\dev\..\* is C:\Users\*.
    const parts: string[] = [];
    for (const p of text.slice(drive ? drive[0].length : 0).split(/[\\/]+/)) {
      if (p === '..') parts.pop();
      else if (p !== '' && p !== '.') parts.push(p);
    }
    // Trailing `*` / `*.*` is the folder's content: the folder is what is judged.
    const low = parts.map((p) => p.toLowerCase());
    while (low.length && /^\*(?:\.\*)?$/.test(low[low.length - 1])) low.pop();
    if (low.length === 0) return { cls: 'root' };
    const user = userOf(a).toLowerCase();
    if (low[0] === 'users' && low[1] === user) {
      // The temp folder is the temp folder; the rest of the profile is the home the POSIX rules know.
      if (low[2] === 'appdata' && low[3] === 'local' && low[4] === 'temp') return { cls: 'posix', posix: [a.opts.tmp, ...parts.slice(5)].join('/') };
      return { cls: 'posix', posix: [a.opts.home, ...parts.slice(2)].join('/') };
    }
    // Another user's profile, or a folder of it (C:\Users\bob\Documents), is that user's data.
    if (low[0] === 'users' && (low.length === 2 || low.length === 3) && !['public', 'default'].includes(low[1])) return { cls: 'home' };
    if (WIN_SYSTEM_DIRS.includes(low.join('\\')) || (low[0] === 'windows' && low[1] !== 'temp')) return { cls: 'system' };
    return { cls: 'other' };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('$') || text.startsWith('%') || text.startsWith('!') || text.startsWith('@')) return { cls: 'other' };
  return { cls: 'posix', posix: text.replace(/\\/g, '/') };
}

/** The POSIX path the shared rules judge, when the Windows path has one. */
export function mapped(a: Analyzer, target: string): string | undefined {
  const w = winPath(a, target);
  return w.cls === 'posix' ? w.posix : undefined;
}

/** A relative path after `cd /d C:\x` is under that folder. */
export function underCwd(target: string, winCwd?: string): string {
  if (!winCwd || /^(?:[a-z]:|[\\/]|\$|%|~|hk)/i.test(target)) return target;
  return winCwd.replace(/[\\/]+$/, '') + '\\' + target;
}

/** Whether a folder is wide (a root, a system folder, a profile, home, or anywhere outside the project and temp). */
export function wideFolder(a: Analyzer, target: string, winCwd?: string): boolean {
  const w = winPath(a, underCwd(target, winCwd));
  if (w.cls === 'root' || w.cls === 'system' || w.cls === 'home') return true;
  if (w.cls !== 'posix' || w.posix === undefined) return false;
  const p = w.posix.replace(/\/\*?$/, '');
  const inside = (dir: string) => p === dir || p.startsWith(dir + '/');
  if (!p.startsWith('/')) return !inside('.') && (p === '..' || p.startsWith('../'));
  return !inside(a.opts.projectDir) && !inside(a.opts.tmp);
}

export function judgeDelete(a: Analyzer, target: string, recursive: boolean, cwd: string, segment: string, winCwd?: string, filtered = false): void {
  target = underCwd(target, winCwd);
  const w = winPath(a, target);
  if (w.cls === 'posix' && w.posix !== undefined) {
    deletesPath(a, filtered ? w.posix.replace(/\/?$/, '/*') : w.posix, cwd, segment, { recursive, filtered });
    return;
  }
  if (!recursive) return;
  if (w.cls === 'registry') {
    const key = registryKey(target)!;
    if (registryWipe(key)) a.hit('windows-system-change', 'deny', segment, `deletes the registry branch ${target} and every key under it`);
    return;
  }
  if (w.cls === 'root' || w.cls === 'system') a.hit('rm-recursive-root', 'deny', segment, `recursively deletes ${target}${w.cls === 'root' ? ' (a drive root)' : ' (a Windows system folder)'}`);
  else if (w.cls === 'home') a.hit('rm-recursive-home', 'deny', segment, `recursively deletes ${target}, a user profile or a folder of one`);
}
