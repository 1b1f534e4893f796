// GitHub Copilot CLI: two payload dialects, chosen by how the hook file
// spells the event. PascalCase events get Claude-shaped snake_case payloads
// (ISO `timestamp`, Claude tool names with Copilot's own argument keys);
// camelCase events get `sessionId`, a numeric `timestamp`, `toolName` and
// `toolArgs`. Exit 2 blocks but shows the model only "hook exited with code
// 2", so a block is exit 0 with {permissionDecision, permissionDecisionReason},
// which carries loom's reason to the model in both dialects. Copilot has no
// ask: an ask is a deny that says approval is needed.
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { blockByExit2, canonicalPayload, errorExit1, json, outcomeOf, type ProtocolAdapter } from './adapter';

const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** toolArgs arrives as an object or as a JSON string; anything else stays raw for the guard to refuse. */
function argsOf(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

export const copilotAdapter: ProtocolAdapter = {
  name: 'copilot',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : typeof p.hookEventName === 'string' ? p.hookEventName : undefined),
  normalize(p, e) {
    const extra: Record<string, unknown> = {};
    if (p.session_id === undefined && typeof p.sessionId === 'string') extra.session_id = p.sessionId;
    if (p.tool_name === undefined && p.toolName !== undefined) extra.tool_name = p.toolName;
    if (p.tool_input === undefined && p.toolArgs !== undefined) extra.tool_input = argsOf(p.toolArgs);
    const result = obj(p.toolResult);
    if (p.tool_response === undefined && result) extra.tool_response = { output: result.textResultForLlm, result_type: result.resultType };
    return canonicalPayload(p, e, 'copilot', extra);
  },
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
    const o = outcomeOf(agg, contract && { ...contract, canAsk: false });
    const canon = contract?.name ?? eventName;
    if (canon === 'PreToolUse') {
      if (o.kind === 'block' || o.kind === 'error') return { exitCode: 0, stderr: o.warnings, stdout: json({ permissionDecision: 'deny', permissionDecisionReason: `loom: ${o.reason}` }) };
      if (o.explicitAllow) return { exitCode: 0, stderr: o.warnings, stdout: json({ permissionDecision: 'allow', ...(agg.updatedInput ? { modifiedArgs: agg.updatedInput } : {}) }) };
      return { exitCode: 0, stderr: o.warnings, stdout: '' };
    }
    if (o.kind === 'block') return blockByExit2(o);
    if (o.kind === 'error') return errorExit1(o);
    return { exitCode: 0, stderr: o.warnings, stdout: '' };
  },
};
