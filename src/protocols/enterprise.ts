// The enterprise HTTP hook contract (seed 004): decision allow | block |
// deny, reason, hookSpecificOutput, updated_prompt on PreUserPromptSubmit
// (with isFirstTurn echoed), updatedToolOutput on PostToolUse. Always JSON
// with exit 0: over HTTP there is no exit code.
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { canonicalPayload, json, outcomeOf, type ProtocolAdapter } from './adapter';

const DECIDING_EVENTS = new Set(['PreUserPromptSubmit', 'ConnectorAdded', 'ExpertSuiteAdded', 'SkillAdded']);

export function renderEnterprise(agg: Aggregate, contract: EventContract | undefined, eventName: string, payload?: Record<string, unknown>): RenderedAnswer {
  const o = outcomeOf(agg, contract);
  const out: Record<string, unknown> = {};
  const firstTurn = payload && typeof payload.isFirstTurn === 'boolean' ? payload.isFirstTurn : undefined;
  if (o.kind === 'block' || o.kind === 'error') {
    // seed 004 answers a refused compaction with "deny"; every other refusal is "block".
    out.decision = eventName === 'PreCompact' ? 'deny' : 'block';
    out.reason = o.reason;
    if (eventName === 'PreUserPromptSubmit' && firstTurn !== undefined) out.isFirstTurn = firstTurn;
    return { exitCode: 0, stderr: o.warnings, stdout: json(out) };
  }
  if (DECIDING_EVENTS.has(eventName)) out.decision = 'allow';
  if (eventName === 'PreUserPromptSubmit') {
    if (firstTurn !== undefined) out.isFirstTurn = firstTurn;
    if (agg.updatedPrompt !== undefined) out.updated_prompt = agg.updatedPrompt;
  }
  const hso: Record<string, unknown> = { hookEventName: eventName };
  if (eventName === 'PreToolUse') {
    if (o.kind === 'ask') {
      hso.permissionDecision = 'ask';
      hso.permissionDecisionReason = o.reason;
    } else if (o.explicitAllow) hso.permissionDecision = 'allow';
    if (agg.updatedInput) hso.updatedInput = agg.updatedInput;
  }
  if (eventName === 'PostToolUse' && agg.updatedToolOutput !== undefined) hso.updatedToolOutput = agg.updatedToolOutput;
  if (o.context) hso.additionalContext = o.context;
  if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
  return { exitCode: 0, stderr: o.warnings, stdout: json(out) };
}

export const enterpriseAdapter: ProtocolAdapter = {
  name: 'enterprise',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : typeof p.event === 'string' ? p.event : undefined),
  normalize: (p, e) => canonicalPayload(p, e, 'enterprise'),
  render: (agg, contract, eventName, payload) => renderEnterprise(agg, contract, eventName, payload),
};
