// Where each harness reads the settings that wire (or unwire) its hooks,
// relative to the project and to the user's home. These are loom's to
// write, never the agent's: a write, edit, patch or delete landing in one
// is denied as modify-hook-settings. A folder entry covers everything in it.
// Each harness's `hooks/` folder is listed too: the scripts its settings run
// live there by convention, and emptying or un-executing one switches a hook off.
import type { HarnessName } from './types';

export const HOOK_SETTINGS_BY_HARNESS: Partial<Record<HarnessName, { project: string[]; home: string[] }>> = {
  claude: { project: ['.claude/settings.json', '.claude/settings.local.json', '.claude/hooks'], home: ['.claude/settings.json', '.claude/settings.local.json', '.claude/hooks'] },
  codex: { project: ['.codex/hooks.json', '.codex/config.toml', '.codex/hooks'], home: ['.codex/hooks.json', '.codex/config.toml', '.codex/hooks'] },
  gemini: { project: ['.gemini/settings.json', '.gemini/hooks'], home: ['.gemini/settings.json', '.gemini/hooks'] },
  cursor: { project: ['.cursor/hooks.json', '.cursor/hooks'], home: ['.cursor/hooks.json', '.cursor/hooks'] },
  opencode: { project: ['.opencode', 'opencode.json', 'opencode.jsonc'], home: ['.config/opencode'] },
  kilo: { project: ['.kilo', '.kilocode', 'kilo.json', 'kilo.jsonc'], home: ['.config/kilo', '.kilocode'] },
  copilot: { project: ['.github/hooks'], home: ['.copilot/hooks', '.copilot/config.json'] },
  qwen: { project: ['.qwen/settings.json', '.qwen/hooks'], home: ['.qwen/settings.json', '.qwen/hooks'] },
  droid: { project: ['.factory/settings.json', '.factory/settings.local.json', '.factory/hooks'], home: ['.factory/settings.json', '.factory/hooks'] },
  crush: { project: ['crush.json', '.crush.json'], home: ['.config/crush/crush.json', '.local/share/crush/crush.json'] },
};

/** Every settings path, project-relative and home-relative, each list without repeats. */
export const HOOK_SETTINGS_PROJECT: readonly string[] = [...new Set(Object.values(HOOK_SETTINGS_BY_HARNESS).flatMap((s) => s!.project))];
export const HOOK_SETTINGS_HOME: readonly string[] = [...new Set(Object.values(HOOK_SETTINGS_BY_HARNESS).flatMap((s) => s!.home))];
