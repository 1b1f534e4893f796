// Harnesses that speak Claude Code's hook protocol with their own payload
// extras: Qwen Code (ISO timestamp, permission_mode, tool_call_id), Factory
// droid (tools Execute/Create/Edit/Read), and loom's OpenCode / Kilo Code
// plugin (which sends Claude-shaped payloads and reads Claude's answers).
// They differ from Claude Code only in the name their records carry, and in
// droid's case in having no ask.
import type { HarnessName } from '../contract/types';
import { canonicalPayload, type ProtocolAdapter } from './adapter';
import { renderClaudeStyle } from './claude';

function claudeFamily(name: HarnessName, canAsk = true): ProtocolAdapter {
  return {
    name,
    eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
    normalize: (p, e) => canonicalPayload(p, e, name),
    render: (agg, contract, eventName) => renderClaudeStyle(agg, contract && !canAsk ? { ...contract, canAsk: false } : contract, eventName),
  };
}

export const qwenAdapter = claudeFamily('qwen');
// droid documents deny only; an ask it ignored would let the call run.
export const droidAdapter = claudeFamily('droid', false);
export const opencodeAdapter = claudeFamily('opencode');
export const kiloAdapter = claudeFamily('kilo');
