// Where each harness keeps its hook settings and what loom adds there.
// Every command target installs the same command (./hook-command.ts):
// relative to the project in committed settings, failing closed when loom
// is missing.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EVENT_CONTRACTS } from '../contract/events';
import type { HarnessName } from '../contract/types';
import { codexRequirementsFile } from './codex-requirements';
import { hookCommand, PACKAGE_NAME, type RunnerLocation } from './hook-command';
import { claudeManagedSettingsFile, managedDir } from './managed-path';

export type InstallHarness = 'claude' | 'codex' | 'gemini' | 'cursor' | 'copilot' | 'qwen' | 'droid' | 'crush';
export type Scope = 'project' | 'user' | 'managed';

export interface Target {
  harness: InstallHarness;
  file: string;
  /** Events loom wires, in the harness's spelling. */
  events: string[];
  entry(event: string, where: RunnerLocation): Record<string, unknown>;
  /** Cursor keeps {version:1, hooks:{...}}; the others only {hooks:{...}}. */
  versioned: boolean;
  /** Claude/Codex/Gemini/Qwen/droid wrap commands in matcher groups; Cursor, Copilot and Crush list them directly. */
  grouped: boolean;
  /** Keys a new matcher group gets besides its hooks (a matcher where the harness wants one). */
  group?(event: string): Record<string, unknown>;
  /** Said after an install (a step the harness needs before the hooks run). */
  note?: string;
}

// Events that carry a tool call: where Qwen and droid match on the tool name.
const TOOL_EVENTS = new Set(['PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'PermissionDenied']);
const matchAllTools = (event: string) => (TOOL_EVENTS.has(event) ? { matcher: '*' } : {});

// Claude Code expects a WorktreeCreate hook to create the worktree itself;
// an audit hook there would break worktree creation, so loom leaves it out.
const SKIP: Partial<Record<InstallHarness, Set<string>>> = { claude: new Set(['WorktreeCreate']) };

let wanted: Set<string> | undefined;

/** Only events the registry has hooks for: every wired event costs the agent a process start. */
export function limitToEvents(canonical: Iterable<string>): void {
  wanted = new Set(canonical);
}

function eventsFor(h: HarnessName): string[] {
  const out: string[] = [];
  for (const c of EVENT_CONTRACTS) {
    if (wanted && !wanted.has(c.name)) continue;
    const n = c.names[h];
    for (const s of Array.isArray(n) ? n : n ? [n] : []) if (!SKIP[h as InstallHarness]?.has(s)) out.push(s);
  }
  return out;
}

/** Committed (project) settings find the runner under node_modules; user and managed ones name this machine's pack. */
export function runnerLocation(scope: Scope, packRunner: string, projectDir?: string): RunnerLocation {
  if (scope !== 'project') return { kind: 'absolute', runner: packRunner };
  return projectDir !== undefined && isLoomCheckout(projectDir) ? { kind: 'self' } : { kind: 'project' };
}

/** loom's own repository: its package.json names loom, so the hooks run the checkout's runner (there is no node_modules copy of loom). */
function isLoomCheckout(projectDir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(projectDir, 'package.json'), 'utf8')) as { name?: unknown }).name === PACKAGE_NAME;
  } catch {
    return false;
  }
}

/**
 * Managed (organisation) settings files, which a user's own settings cannot
 * switch off. LOOM_MANAGED_SETTINGS_DIR replaces the system folder (tests,
 * or a staging image).
 */
export function managedSettingsFile(harness: InstallHarness, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  const dir = (linux: string, mac: string, win: string) => managedDir(linux, mac, win, env, platform);
  switch (harness) {
    case 'claude':
      return claudeManagedSettingsFile(env, platform);
    case 'codex':
      // requirements.toml (TOML, written by ./codex-requirements.ts, not the JSON merger).
      return codexRequirementsFile(env, platform);
    case 'gemini':
      // Gemini CLI's system settings layer (it names its own override variable).
      return env.GEMINI_CLI_SYSTEM_SETTINGS_PATH || join(dir('/etc/gemini-cli', '/Library/Application Support/GeminiCli', 'C:\\ProgramData\\gemini-cli'), 'settings.json');
    default:
      return undefined;
  }
}

/** Claude Code http hooks pointed at `loom serve`; the token travels in a header from an allowed env var. */
export function claudeHttpEntry(baseUrl: string) {
  // onFailure "block" as for the command entries: a server that is down, refuses or times out blocks the call instead of letting it run.
  return (event: string) => ({ type: 'http', url: `${baseUrl.replace(/\/+$/, '')}/hooks/${event}`, headers: { Authorization: 'Bearer $LOOM_SERVE_TOKEN' }, allowedEnvVars: ['LOOM_SERVE_TOKEN'], timeout: 30, onFailure: 'block' });
}

export class ScopeError extends Error {}

export function target(harness: InstallHarness, scope: Scope, projectDir: string, env: NodeJS.ProcessEnv = process.env): Target {
  const home = env.HOME || homedir();
  const base = (dir: string, userDir: string, file: string) => {
    if (scope === 'managed') {
      const m = managedSettingsFile(harness, env);
      if (!m) throw new ScopeError(`--scope managed: ${harness} has no managed settings file loom knows of; use --scope user or project`);
      return m;
    }
    return scope === 'project' ? join(projectDir, dir, file) : join(userDir, file);
  };
  const command = (event: string, where: RunnerLocation) => ({ type: 'command', command: hookCommand(harness, event, where), timeout: 30 });
  switch (harness) {
    case 'claude':
      return {
        harness,
        file: base('.claude', env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'settings.json'),
        events: eventsFor('claude'),
        // onFailure "block": Claude Code's own fail-closed switch (a hook that cannot start, times out or exits
        // other than 0 or 2 counts as exit 2); versions that predate it ignore the field, and the command still exits 2.
        entry: (event, where) => ({ type: 'command', command: hookCommand(harness, event, where), timeout: 30, onFailure: 'block' }),
        versioned: false,
        grouped: true,
      };
    case 'codex':
      return {
        harness,
        file: base('.codex', env.CODEX_HOME || join(home, '.codex'), 'hooks.json'),
        events: eventsFor('codex'),
        entry: (event, where) => ({ type: 'command', command: hookCommand(harness, event, where), timeout: 30 }),
        versioned: false,
        grouped: true,
      };
    case 'gemini':
      return {
        harness,
        file: base('.gemini', join(env.GEMINI_CLI_HOME || home, '.gemini'), 'settings.json'),
        events: eventsFor('gemini'),
        // Gemini's timeout is in milliseconds.
        entry: (event, where) => ({ type: 'command', name: `loom-${event}`, command: hookCommand(harness, event, where), timeout: 30000 }),
        versioned: false,
        grouped: true,
      };
    case 'cursor':
      return {
        harness,
        file: base('.cursor', join(home, '.cursor'), 'hooks.json'),
        events: eventsFor('cursor'),
        entry: (event, where) => ({ command: hookCommand(harness, event, where) }),
        versioned: true,
        grouped: false,
      };
    case 'copilot':
      // PascalCase events: Claude-shaped payloads with Claude tool names.
      return {
        harness,
        file: base(join('.github', 'hooks'), join(env.COPILOT_HOME || join(home, '.copilot'), 'hooks'), 'loom.json'),
        events: eventsFor('copilot').filter((e) => /^[A-Z]/.test(e)),
        entry: (event, where) => ({ type: 'command', bash: hookCommand(harness, event, where), timeoutSec: 30 }),
        versioned: true,
        grouped: false,
        note:
          scope === 'project'
            ? 'Copilot CLI skips repository hooks in prompt mode (copilot -p) unless the folder is trusted: run it with --trust-folder, or set GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true (or COPILOT_ALLOW_ALL=true); interactive sessions ask to trust the folder. User hooks (--scope user) always load.'
            : undefined,
      };
    case 'qwen':
      // Qwen reads timeouts in seconds (values of 1000 and more as milliseconds).
      return { harness, file: base('.qwen', join(home, '.qwen'), 'settings.json'), events: eventsFor('qwen'), entry: command, versioned: false, grouped: true, group: matchAllTools };
    case 'droid':
      return { harness, file: base('.factory', join(home, '.factory'), 'settings.json'), events: eventsFor('droid'), entry: command, versioned: false, grouped: true, group: matchAllTools };
    case 'crush': {
      if (scope === 'managed') throw new ScopeError('--scope managed: crush has no managed settings file loom knows of; use --scope user or project');
      // Crush reads crush.json or .crush.json in the project; loom writes into the one that exists.
      const projectFile = existsSync(join(projectDir, '.crush.json')) && !existsSync(join(projectDir, 'crush.json')) ? join(projectDir, '.crush.json') : join(projectDir, 'crush.json');
      const userFile = env.CRUSH_GLOBAL_CONFIG ? join(env.CRUSH_GLOBAL_CONFIG, 'crush.json') : join(env.XDG_CONFIG_HOME || join(home, '.config'), 'crush', 'crush.json');
      return {
        harness,
        file: scope === 'project' ? projectFile : userFile,
        events: eventsFor('crush'),
        entry: (event, where) => ({ name: `loom-${event}`, command: hookCommand(harness, event, where), timeout: 30 }),
        versioned: false,
        grouped: false,
      };
    }
  }
}
