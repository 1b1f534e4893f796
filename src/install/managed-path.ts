// Where Claude Code reads its managed (organisation) settings file. Kept in
// a module of its own, with no imports beyond node:path, because the hook
// path reads it too (../runner/managed-yield.ts) and must stay small.
import { join } from 'node:path';

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
