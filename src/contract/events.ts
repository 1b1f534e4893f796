// The contract table: for each canonical event, its spelling in every
// harness, whether a hook may block it, and what a hook may rewrite. Runner,
// adapters and docs read this table; nothing else hard-codes event facts.
import type { HarnessName } from './types';

export type RewriteTarget = 'input' | 'prompt' | 'toolOutput';

export interface EventContract {
  /** Canonical name (Claude Code's spelling, extended with seed 004's). */
  name: string;
  /** Spelling per harness; absent means the harness has no such event. */
  names: Partial<Record<HarnessName, string | string[]>>;
  /** A deny here stops the action (exit 2 / block JSON). */
  canBlock: boolean;
  /** The harness accepts an "ask the user" answer here. */
  canAsk: boolean;
  rewrites: RewriteTarget[];
  /** The harness accepts additional context for the model here. */
  context: boolean;
}

const E = (
  name: string,
  names: EventContract['names'],
  flags: Partial<Omit<EventContract, 'name' | 'names'>> = {},
): EventContract => ({
  name,
  names,
  canBlock: flags.canBlock ?? false,
  canAsk: flags.canAsk ?? false,
  rewrites: flags.rewrites ?? [],
  context: flags.context ?? false,
});

export const EVENT_CONTRACTS: readonly EventContract[] = [
  E('SessionStart', { claude: 'SessionStart', codex: 'SessionStart', gemini: 'SessionStart', cursor: 'sessionStart', 'docker-agent': 'session_start', enterprise: 'SessionStart' }, { context: true }),
  E('SessionEnd', { claude: 'SessionEnd', gemini: 'SessionEnd', cursor: 'sessionEnd', 'docker-agent': 'session_end' }),
  E('PreUserPromptSubmit', { enterprise: 'PreUserPromptSubmit' }, { canBlock: true, rewrites: ['prompt'] }),
  E('UserPromptSubmit', { claude: 'UserPromptSubmit', codex: 'UserPromptSubmit', gemini: 'BeforeAgent', cursor: 'beforeSubmitPrompt', 'docker-agent': 'user_prompt_submit', enterprise: 'UserPromptSubmit' }, { canBlock: true, context: true }),
  E('PreToolUse', { claude: 'PreToolUse', codex: 'PreToolUse', gemini: 'BeforeTool', cursor: ['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile'], 'docker-agent': 'pre_tool_use', enterprise: 'PreToolUse' }, { canBlock: true, canAsk: true, rewrites: ['input'], context: true }),
  E('PermissionRequest', { claude: 'PermissionRequest', codex: 'PermissionRequest', 'docker-agent': 'permission_request' }, { canBlock: true, rewrites: ['input'] }),
  E('PermissionDenied', { claude: 'PermissionDenied' }),
  E('PostToolUse', { claude: 'PostToolUse', codex: 'PostToolUse', gemini: 'AfterTool', cursor: ['postToolUse', 'afterShellExecution', 'afterMCPExecution'], 'docker-agent': 'post_tool_use', enterprise: 'PostToolUse' }, { rewrites: ['toolOutput'], context: true }),
  E('PostToolUseFailure', { claude: 'PostToolUseFailure' }, { context: true }),
  E('PostToolBatch', { claude: 'PostToolBatch' }, { canBlock: true, context: true }),
  E('Notification', { claude: 'Notification', gemini: 'Notification', 'docker-agent': 'notification', enterprise: 'Notification' }),
  E('SubagentStart', { claude: 'SubagentStart', codex: 'SubagentStart', cursor: 'subagentStart' }, { context: true }),
  E('SubagentStop', { claude: 'SubagentStop', codex: 'SubagentStop', cursor: 'subagentStop', 'docker-agent': 'subagent_stop' }, { canBlock: true, context: true }),
  E('TaskCreated', { claude: 'TaskCreated' }, { canBlock: true }),
  E('TaskCompleted', { claude: 'TaskCompleted' }, { canBlock: true }),
  E('Stop', { claude: 'Stop', codex: 'Stop', gemini: 'AfterAgent', cursor: 'stop', 'docker-agent': 'stop', enterprise: 'Stop' }, { canBlock: true, context: true }),
  E('StopFailure', { claude: 'StopFailure' }),
  E('TeammateIdle', { claude: 'TeammateIdle' }, { canBlock: true }),
  E('WorktreeCreate', { claude: 'WorktreeCreate', 'docker-agent': 'worktree_create' }, { canBlock: true }),
  E('WorktreeRemove', { claude: 'WorktreeRemove' }),
  E('PreCompact', { claude: 'PreCompact', codex: 'PreCompact', gemini: 'PreCompress', cursor: 'preCompact', 'docker-agent': 'pre_compact', enterprise: 'PreCompact' }, { canBlock: true }),
  E('PostCompact', { claude: 'PostCompact', codex: 'PostCompact', 'docker-agent': 'after_compaction', enterprise: 'PostCompact' }),
  E('FileChanged', { claude: 'FileChanged', cursor: 'afterFileEdit' }, { context: true }),
  E('ConfigChange', { claude: 'ConfigChange' }, { canBlock: true }),
  E('CwdChanged', { claude: 'CwdChanged' }),
  E('InstructionsLoaded', { claude: 'InstructionsLoaded' }),
  E('Setup', { claude: 'Setup' }),
  E('UserPromptExpansion', { claude: 'UserPromptExpansion' }, { canBlock: true, context: true }),
  E('Elicitation', { claude: 'Elicitation' }, { canBlock: true }),
  E('ElicitationResult', { claude: 'ElicitationResult' }, { canBlock: true }),
  E('PreModelSwitch', { claude: 'PreModelSwitch' }, { canBlock: true }),
  E('PostModelSwitch', { claude: 'PostModelSwitch' }),
  E('ConnectorAdded', { enterprise: 'ConnectorAdded' }, { canBlock: true }),
  E('ExpertSuiteAdded', { enterprise: 'ExpertSuiteAdded' }, { canBlock: true }),
  E('SkillAdded', { enterprise: 'SkillAdded' }, { canBlock: true }),
];

// Harnesses that spell events the Claude Code way: which canonical events
// each one fires (checked against each CLI's docs and real runs). OpenCode
// and Kilo Code reach loom through loom's plugin, which sends these names.
const CLAUDE_SPELLED: Partial<Record<HarnessName, string[]>> = {
  opencode: ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'PostCompact', 'FileChanged'],
  kilo: ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'PostCompact', 'FileChanged'],
  qwen: ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PermissionRequest', 'PermissionDenied', 'PostToolUse', 'PostToolUseFailure', 'PostToolBatch', 'Notification', 'SubagentStart', 'SubagentStop', 'Stop', 'StopFailure', 'PreCompact', 'PostCompact', 'InstructionsLoaded', 'UserPromptExpansion'],
  droid: ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Notification', 'SubagentStop', 'Stop', 'PreCompact'],
  copilot: ['SessionStart', 'SessionEnd', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'],
  crush: ['PreToolUse', 'PreCompact'],
};
// Copilot CLI's second dialect: camelCase event names (chosen per event in
// its hook file) get camelCase payloads.
const COPILOT_CAMEL: Record<string, string> = { SessionStart: 'sessionStart', SessionEnd: 'sessionEnd', UserPromptSubmit: 'userPromptSubmitted', PreToolUse: 'preToolUse', PostToolUse: 'postToolUse', Stop: 'agentStop', SubagentStop: 'subagentStop' };
for (const c of EVENT_CONTRACTS) {
  for (const [h, events] of Object.entries(CLAUDE_SPELLED)) if (events.includes(c.name)) c.names[h as HarnessName] = c.name;
  if (COPILOT_CAMEL[c.name]) c.names.copilot = c.names.copilot ? [c.names.copilot as string, COPILOT_CAMEL[c.name]] : COPILOT_CAMEL[c.name];
}

const byAnyName = new Map<string, EventContract>();
for (const c of EVENT_CONTRACTS) {
  byAnyName.set(c.name, c);
  for (const n of Object.values(c.names)) {
    for (const s of Array.isArray(n) ? n : [n]) if (s && !byAnyName.has(s)) byAnyName.set(s, c);
  }
}

/** The contract for an event spelled in any harness's dialect, if known. */
export function contractFor(eventName: string): EventContract | undefined {
  return byAnyName.get(eventName);
}

export function isKnownEvent(eventName: string): boolean {
  return byAnyName.has(eventName);
}

/** Canonical name for a harness spelling; unknown spellings pass through unchanged. */
export function canonicalEventName(eventName: string): string {
  return byAnyName.get(eventName)?.name ?? eventName;
}
