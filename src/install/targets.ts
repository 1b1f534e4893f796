// Where each harness keeps its hook settings and what loom adds there.
// Commands carry no shell syntax beyond one quoted path, so cmd.exe,
// PowerShell and sh all run them the same way.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { EVENT_CONTRACTS } from '../contract/events';
import type { HarnessName } from '../contract/types';

export type InstallHarness = 'claude' | 'codex' | 'gemini' | 'cursor';
export type Scope = 'project' | 'user';

export interface Target {
  harness: InstallHarness;
  file: string;
  /** Events loom wires, in the harness's spelling. */
  events: string[];
  entry(event: string, runner: string): Record<string, unknown>;
  /** Cursor keeps {version:1, hooks:{...}}; the others only {hooks:{...}}. */
  versioned: boolean;
  /** Claude/Codex/Gemini wrap commands in matcher groups; Cursor lists them directly. */
  grouped: boolean;
}

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

export function runnerCommand(runner: string, event: string, harness: InstallHarness): string {
  return `node "${runner}" --event ${event} --harness ${harness}`;
}

/** Claude Code http hooks pointed at `loom serve`; the token travels in a header from an allowed env var. */
export function claudeHttpEntry(baseUrl: string) {
  return (event: string) => ({ type: 'http', url: `${baseUrl.replace(/\/+$/, '')}/hooks/${event}`, headers: { Authorization: 'Bearer $LOOM_SERVE_TOKEN' }, allowedEnvVars: ['LOOM_SERVE_TOKEN'], timeout: 30 });
}

export function target(harness: InstallHarness, scope: Scope, projectDir: string, env: NodeJS.ProcessEnv = process.env): Target {
  const home = env.HOME || homedir();
  const base = (dir: string, userDir: string, file: string) => (scope === 'project' ? join(projectDir, dir, file) : join(userDir, file));
  switch (harness) {
    case 'claude':
      return {
        harness,
        file: base('.claude', env.CLAUDE_CONFIG_DIR || join(home, '.claude'), 'settings.json'),
        events: eventsFor('claude'),
        entry: (event, runner) => ({ type: 'command', command: runnerCommand(runner, event, harness), timeout: 30 }),
        versioned: false,
        grouped: true,
      };
    case 'codex':
      return {
        harness,
        file: base('.codex', env.CODEX_HOME || join(home, '.codex'), 'hooks.json'),
        events: eventsFor('codex'),
        entry: (event, runner) => ({ type: 'command', command: runnerCommand(runner, event, harness), timeout: 30 }),
        versioned: false,
        grouped: true,
      };
    case 'gemini':
      return {
        harness,
        file: base('.gemini', join(env.GEMINI_CLI_HOME || home, '.gemini'), 'settings.json'),
        events: eventsFor('gemini'),
        // Gemini's timeout is in milliseconds.
        entry: (event, runner) => ({ type: 'command', name: `loom-${event}`, command: runnerCommand(runner, event, harness), timeout: 30000 }),
        versioned: false,
        grouped: true,
      };
    case 'cursor':
      return {
        harness,
        file: base('.cursor', join(home, '.cursor'), 'hooks.json'),
        events: eventsFor('cursor'),
        entry: (event, runner) => ({ command: runnerCommand(runner, event, harness) }),
        versioned: true,
        grouped: false,
      };
  }
}
