// Picks the adapter for an invocation: --harness / LOOM_HARNESS when given,
// otherwise detection from the payload (rules in docs/harnesses.md, in this order):
//   1. event spelled the docker-agent way (snake_case, e.g. pre_tool_use)  -> docker-agent
//   2. Copilot CLI's camelCase dialect: `toolName` / `toolArgs`, or
//      `sessionId` with a numeric `timestamp`, or a Copilot-only event       -> copilot
//   3. event spelled the Cursor way (camelCase, e.g. beforeShellExecution),
//      or conversation_id / workspace_roots present                          -> cursor
//   4. `event` without `hook_event_name` (Crush's payload)                  -> crush
//   5. `permission_mode` with an ISO `timestamp`, or `tool_call_id`         -> qwen
//   6. droid's own tool names (Execute, Create), or a transcript under .factory/ -> droid
//   7. a Gemini-only event (BeforeTool, AfterTool, BeforeAgent, AfterAgent,
//      PreCompress)                                                          -> gemini
//   8. an ISO `timestamp` without `transcript_path` (Gemini always sends
//      one), or on an event Gemini spells otherwise: Copilot's PascalCase    -> copilot
//   9. any other `timestamp` field (Gemini stamps every payload)            -> gemini
//  10. a seed-004-only event (PreUserPromptSubmit, ConnectorAdded,
//      ExpertSuiteAdded, SkillAdded), or `isFirstTurn`, or both `event` and
//      `hook_event_name`                                                     -> enterprise
//  11. `turn_id`, or a transcript under .codex/                              -> codex
//  12. anything else                                                         -> claude
import { EVENT_CONTRACTS } from '../contract/events';
import type { HarnessName } from '../contract/types';
import type { ProtocolAdapter } from './adapter';
import { claudeAdapter } from './claude';
import { codexAdapter } from './codex';
import { cursorAdapter } from './cursor';
import { dockerAgentAdapter } from './docker-agent';
import { enterpriseAdapter } from './enterprise';
import { geminiAdapter } from './gemini';
import { copilotAdapter } from './copilot';
import { crushAdapter } from './crush';
import { droidAdapter, kiloAdapter, opencodeAdapter, qwenAdapter } from './claude-family';

export const ADAPTERS: Record<HarnessName, ProtocolAdapter> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  cursor: cursorAdapter,
  'docker-agent': dockerAgentAdapter,
  enterprise: enterpriseAdapter,
  opencode: opencodeAdapter,
  kilo: kiloAdapter,
  copilot: copilotAdapter,
  qwen: qwenAdapter,
  droid: droidAdapter,
  crush: crushAdapter,
};

export const HARNESS_NAMES: readonly string[] = [...Object.keys(ADAPTERS), 'auto'];

function spellings(h: HarnessName): Set<string> {
  const out = new Set<string>();
  for (const c of EVENT_CONTRACTS) {
    const n = c.names[h];
    for (const s of Array.isArray(n) ? n : n ? [n] : []) out.add(s);
  }
  return out;
}
const DOCKER = spellings('docker-agent');
const CURSOR = spellings('cursor');
const GEMINI_ONLY = new Set(['BeforeTool', 'AfterTool', 'BeforeAgent', 'AfterAgent', 'PreCompress']);
const COPILOT_ONLY = new Set(['userPromptSubmitted', 'errorOccurred', 'agentStop']);
// Events Gemini spells its own way: with a timestamp, these are Copilot's PascalCase dialect.
const GEMINI_SPELLS_OTHERWISE = new Set(['PreToolUse', 'PostToolUse', 'UserPromptSubmit', 'Stop']);
const DROID_TOOLS = new Set(['Execute', 'Create']);
const ENTERPRISE_ONLY = new Set(['PreUserPromptSubmit', 'ConnectorAdded', 'ExpertSuiteAdded', 'SkillAdded']);

export function detectHarness(payload: Record<string, unknown>, eventHint?: string): HarnessName {
  const ev = typeof payload.hook_event_name === 'string' ? payload.hook_event_name : eventHint ?? '';
  if (DOCKER.has(ev) || /^[a-z]+(?:_[a-z]+)+$/.test(ev)) return 'docker-agent';
  if (COPILOT_ONLY.has(ev) || 'toolArgs' in payload || 'toolName' in payload || (typeof payload.sessionId === 'string' && typeof payload.timestamp === 'number')) return 'copilot';
  if (CURSOR.has(ev) || 'conversation_id' in payload || 'workspace_roots' in payload) return 'cursor';
  if (typeof payload.event === 'string' && !('hook_event_name' in payload) && !ENTERPRISE_ONLY.has(payload.event)) return 'crush';
  if ('tool_call_id' in payload || ('permission_mode' in payload && typeof payload.timestamp === 'string')) return 'qwen';
  if ((typeof payload.tool_name === 'string' && DROID_TOOLS.has(payload.tool_name)) || (typeof payload.transcript_path === 'string' && payload.transcript_path.includes('/.factory/'))) return 'droid';
  if (GEMINI_ONLY.has(ev)) return 'gemini';
  if (typeof payload.timestamp === 'string' && (GEMINI_SPELLS_OTHERWISE.has(ev) || !('transcript_path' in payload))) return 'copilot';
  if (typeof payload.timestamp === 'string') return 'gemini';
  if (ENTERPRISE_ONLY.has(ev) || 'isFirstTurn' in payload || (typeof payload.event === 'string' && 'hook_event_name' in payload)) return 'enterprise';
  if ('turn_id' in payload || (typeof payload.transcript_path === 'string' && payload.transcript_path.includes('/.codex/'))) return 'codex';
  return 'claude';
}

export function selectAdapter(requested: string | undefined, payload: Record<string, unknown>, eventHint?: string): ProtocolAdapter {
  // Own keys only: a requested `constructor` or `toString` is no harness.
  if (requested && requested !== 'auto' && Object.prototype.hasOwnProperty.call(ADAPTERS, requested)) return ADAPTERS[requested as HarnessName];
  return ADAPTERS[detectHarness(payload, eventHint)];
}
