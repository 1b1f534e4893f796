// Where Claude Code reads its managed (organisation) settings file. Kept in
// a module of its own, with no imports beyond node:path and node:fs (which
// the hook path loads anyway), because the hook path reads it too
// (../runner/managed-yield.ts) and must stay small.
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The folder of the machine's managed settings: LOOM_MANAGED_SETTINGS_DIR replaces the system folder (tests, or a staging image). */
export function managedDir(linux: string, mac: string, win: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return env.LOOM_MANAGED_SETTINGS_DIR || (platform === 'darwin' ? mac : platform === 'win32' ? win : linux);
}

export function claudeManagedSettingsFile(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  return join(managedDir('/etc/claude-code', '/Library/Application Support/ClaudeCode', 'C:\\Program Files\\ClaudeCode', env, platform), 'managed-settings.json');
}

/**
 * The environment assignment a managed hook command starts with: it tells
 * the runner it runs from the managed settings, so a project or user copy of
 * loom's hooks for the same event can yield to it (one record per event).
 * An environment variable rather than a flag: a global loom older than the
 * one that wrote the command ignores it instead of refusing an unknown flag.
 */
export const MANAGED_MARK = 'LOOM_HOOK_SCOPE=managed';

/**
 * Why a managed file cannot be taken as the organisation's word (undefined when it can): on POSIX it and
 * its folder must be root's and writable by no one else. A file a developer (or their agent) can edit says
 * nothing an administrator decided, so loom neither yields to it nor calls it firm.
 */
export function notAdminOnly(file: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'win32') return undefined;
  for (const p of [file, dirname(file)]) {
    let st;
    try {
      st = statSync(p);
    } catch {
      return `${p} cannot be read`;
    }
    if (st.uid !== 0) return `${p} is owned by uid ${st.uid}, not root: its owner can edit it`;
    if (st.mode & 0o022) return `${p} is writable by group or others (mode ${(st.mode & 0o777).toString(8)})`;
  }
  return undefined;
}
