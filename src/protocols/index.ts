// Picks the adapter for an invocation: --harness / LOOM_HARNESS when given,
// otherwise detection from the payload (rules in the README, in this order):
//   1. event spelled the docker-agent way (snake_case, e.g. pre_tool_use)  -> docker-agent
//   2. event spelled the Cursor way (camelCase, e.g. beforeShellExecution),
//      or conversation_id / workspace_roots present                          -> cursor
//   3. a Gemini-only event (BeforeTool, AfterTool, BeforeAgent, AfterAgent,
//      PreCompress), or a `timestamp` field (Gemini stamps every payload)    -> gemini
//   4. a seed-004-only event (PreUserPromptSubmit, ConnectorAdded,
//      ExpertSuiteAdded, SkillAdded), or `isFirstTurn`, or both `event` and
//      `hook_event_name`                                                     -> enterprise
//   5. `turn_id`, or a transcript under .codex/                              -> codex
//   6. anything else                                                         -> claude
import { EVENT_CONTRACTS } from '../contract/events';
import type { HarnessName } from '../contract/types';
import type { ProtocolAdapter } from './adapter';
import { claudeAdapter } from './claude';
import { codexAdapter } from './codex';
import { cursorAdapter } from './cursor';
import { dockerAgentAdapter } from './docker-agent';
import { enterpriseAdapter } from './enterprise';
import { geminiAdapter } from './gemini';

export const ADAPTERS: Record<HarnessName, ProtocolAdapter> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  gemini: geminiAdapter,
  cursor: cursorAdapter,
  'docker-agent': dockerAgentAdapter,
  enterprise: enterpriseAdapter,
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
const ENTERPRISE_ONLY = new Set(['PreUserPromptSubmit', 'ConnectorAdded', 'ExpertSuiteAdded', 'SkillAdded']);

export function detectHarness(payload: Record<string, unknown>, eventHint?: string): HarnessName {
  const ev = typeof payload.hook_event_name === 'string' ? payload.hook_event_name : eventHint ?? '';
  if (DOCKER.has(ev) || /^[a-z]+(?:_[a-z]+)+$/.test(ev)) return 'docker-agent';
  if (CURSOR.has(ev) || 'conversation_id' in payload || 'workspace_roots' in payload) return 'cursor';
  if (GEMINI_ONLY.has(ev) || typeof payload.timestamp === 'string') return 'gemini';
  if (ENTERPRISE_ONLY.has(ev) || 'isFirstTurn' in payload || (typeof payload.event === 'string' && 'hook_event_name' in payload)) return 'enterprise';
  if ('turn_id' in payload || (typeof payload.transcript_path === 'string' && payload.transcript_path.includes('/.codex/'))) return 'codex';
  return 'claude';
}

export function selectAdapter(requested: string | undefined, payload: Record<string, unknown>, eventHint?: string): ProtocolAdapter {
  if (requested && requested !== 'auto') {
    const a = ADAPTERS[requested as HarnessName];
    if (a) return a;
  }
  return ADAPTERS[detectHarness(payload, eventHint)];
}
