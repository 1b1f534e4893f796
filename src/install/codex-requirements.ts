// Codex's organisation settings: requirements.toml in its system folder
// (/etc/codex on Linux and macOS, %ProgramData%\OpenAI\Codex on Windows).
// Hooks listed under [hooks] there are "managed": Codex runs them without
// the hook-trust step, and a user's [hooks.state] cannot disable them. A
// user can still switch every hook off with features.hooks = false (config,
// -c or --disable hooks), so loom also pins [features] hooks = true, which
// makes Codex refuse such a setting. (Checked against codex-cli 0.169.0; see
// docs/adoption.md.)
//
// The file is the organisation's own TOML, with comments, so loom does not
// rewrite it: it appends one marked block (and, when the file already has a
// [features] table, one marked line in it), and uninstall takes out exactly
// those lines. A file loom cannot extend safely is refused with one line.
import { join } from 'node:path';
import { SettingsError } from './merge';

export const BLOCK_BEGIN = '# >>> loom-governance managed hooks (loom install --harness codex --scope managed; loom uninstall removes this block) >>>';
export const BLOCK_END = '# <<< loom-governance managed hooks <<<';
/** The line loom adds inside an existing [features] table. */
export const FEATURE_LINE = 'hooks = true # loom-governance: a user cannot switch managed hooks off';

/** LOOM_MANAGED_SETTINGS_DIR replaces the system folder (tests, image builds). */
export function codexRequirementsFile(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.LOOM_MANAGED_SETTINGS_DIR) return join(env.LOOM_MANAGED_SETTINGS_DIR, 'requirements.toml');
  if (platform === 'win32') return join(env.ProgramData || 'C:\\ProgramData', 'OpenAI', 'Codex', 'requirements.toml');
  return '/etc/codex/requirements.toml';
}

// JSON's string escapes are a subset of TOML's basic-string escapes.
const tomlString = (s: string) => JSON.stringify(s);

export interface CodexHook {
  event: string;
  command: string;
  timeout: number;
}

interface Scan {
  /** Index of the `[features]` header line, if the file has one. */
  featuresHeader?: number;
  /** `hooks = ...` inside [features]: its value text. */
  featuresHooks?: string;
  /** Why loom cannot extend this file, if it cannot. */
  refuse?: string;
}

const HOOK_EVENT = /^(PreToolUse|PermissionRequest|PostToolUse|PreCompact|PostCompact|SessionStart|UserPromptSubmit|SubagentStart|SubagentStop|Stop|StopFailure)$/;

/**
 * A line scanner, enough to know where loom's lines can go: table headers,
 * keys, and multi-line strings skipped. Not a TOML parser; what it cannot
 * place is refused, never guessed.
 */
function scan(lines: string[], file: string): Scan {
  const out: Scan = {};
  let table = '';
  let inMulti: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (inMulti) {
      if (line.split(inMulti).length % 2 === 0) inMulti = undefined;
      continue;
    }
    for (const q of ['"""', "'''"]) if (line.split(q).length % 2 === 0) inMulti = q;
    const t = line.trim();
    if (t === '' || t.startsWith('#')) continue;
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(t);
    if (header) {
      table = header[1].replace(/\s*\.\s*/g, '.').replace(/"/g, '');
      if (table === 'features' && !t.startsWith('[[')) out.featuresHeader = i;
      continue;
    }
    const kv = /^([A-Za-z0-9_."' -]+?)\s*=\s*(.*)$/.exec(t);
    if (!kv) continue;
    const key = (table ? `${table}.` : '') + kv[1].replace(/\s*\.\s*/g, '.').replace(/"/g, '');
    const where = `${file}:${i + 1}`;
    if (key === 'features' || (key.startsWith('features.') && table !== 'features')) out.refuse ??= `${where}: features is set with a dotted key or inline table; write it as a [features] table so loom can add hooks = true`;
    else if (key === 'features.hooks') out.featuresHooks = kv[2].replace(/#.*$/, '').trim();
    else if (key === 'hooks') out.refuse ??= `${where}: hooks is an inline table; write it as [hooks] tables so loom can add its entries`;
    else if (key.startsWith('hooks.') && HOOK_EVENT.test(key.split('.')[1] ?? '') && key.split('.').length === 2) out.refuse ??= `${where}: ${key} is an inline array; write it as [[${key}]] tables so loom can add its entries`;
  }
  if (inMulti) out.refuse ??= `${file}: a multi-line string is not closed`;
  if (out.featuresHooks !== undefined && out.featuresHooks !== 'true') out.refuse ??= `${file}: [features] hooks = ${out.featuresHooks} switches every hook off; remove it first`;
  return out;
}

/** Whether the file pins [features] hooks = true (without it a user's features.hooks = false switches managed hooks off too). */
export function hooksFeaturePinned(text: string, file: string): boolean {
  return scan(text.split('\n'), file).featuresHooks === 'true';
}

/** The file's text with loom's lines taken out (the text loom found before it added them). */
export function removeLoomRequirements(text: string): { text: string; removed: number } {
  const lines = text.split('\n');
  const kept: string[] = [];
  let removed = 0;
  let inBlock = false;
  for (const line of lines) {
    if (line === BLOCK_BEGIN) {
      inBlock = true;
      removed++;
      continue;
    }
    if (inBlock) {
      if (line === BLOCK_END) inBlock = false;
      continue;
    }
    if (line === FEATURE_LINE) {
      removed++;
      continue;
    }
    kept.push(line);
  }
  return { text: kept.join('\n'), removed };
}

/** The file's text with loom's managed hooks in it (replacing an older loom block). Throws SettingsError when it cannot be extended safely. */
export function addLoomRequirements(text: string, hooks: CodexHook[], file: string): string {
  const lines = removeLoomRequirements(text).text.split('\n');
  const s = scan(lines, file);
  if (s.refuse) throw new SettingsError(s.refuse);
  if (s.featuresHeader !== undefined && s.featuresHooks === undefined) lines.splice(s.featuresHeader + 1, 0, FEATURE_LINE);
  const block = [BLOCK_BEGIN];
  if (s.featuresHeader === undefined) block.push('[features]', 'hooks = true');
  for (const h of hooks) block.push(`[[hooks.${h.event}]]`, `[[hooks.${h.event}.hooks]]`, 'type = "command"', `command = ${tomlString(h.command)}`, `timeout = ${h.timeout}`);
  block.push(BLOCK_END);
  // Before the final newline, if the file has one: taking the block out again gives back the exact bytes.
  const at = lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  lines.splice(at, 0, ...block);
  return lines.join('\n');
}
