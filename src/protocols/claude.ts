// Claude Code: exit 2 + stderr blocks; otherwise JSON with
// hookSpecificOutput (permissionDecision, updatedInput, additionalContext,
// updatedToolOutput), PermissionRequest's decision.behavior, and top-level
// decision "block" where Claude reads it (PostToolUse feedback).
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { blockByExit2, canonicalPayload, errorExit1, json, outcomeOf, type ProtocolAdapter } from './adapter';

/** Universal fields: continue:false + stopReason stops the agent; systemMessage is shown to the user. */
function universal(agg: Aggregate): Record<string, unknown> {
  const u: Record<string, unknown> = {};
  if (agg.halt) {
    u.continue = false;
    u.stopReason = agg.halt;
  }
  if (agg.userMessages.length) u.systemMessage = agg.userMessages.join('\n');
  return u;
}

export function renderClaudeStyle(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
  const r = renderClaudeCore(agg, contract, eventName);
  const u = universal(agg);
  if (!Object.keys(u).length || r.exitCode === 2) return r;
  // JSON is read on exit 0 and on other non-2 codes alike.
  const base = r.stdout.trim() ? (JSON.parse(r.stdout) as Record<string, unknown>) : {};
  return { ...r, stdout: json({ ...base, ...u }) };
}

function renderClaudeCore(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
  const o = outcomeOf(agg, contract);
  const canon = contract?.name ?? eventName;
  if (canon === 'PermissionRequest' && (o.kind === 'block' || (agg.decision === 'allow' && !agg.failed))) {
    const decision = o.kind === 'block' ? { behavior: 'deny', message: o.reason } : { behavior: 'allow' };
    return { exitCode: 0, stderr: o.warnings, stdout: json({ hookSpecificOutput: { hookEventName: eventName, decision } }) };
  }
  if (o.kind === 'block') return blockByExit2(o);
  if (o.kind === 'error') return errorExit1(o);
  const out: Record<string, unknown> = { hookEventName: eventName };
  if (canon === 'PreToolUse') {
    if (o.kind === 'ask') {
      out.permissionDecision = 'ask';
      out.permissionDecisionReason = o.reason;
    } else if (o.explicitAllow) out.permissionDecision = 'allow';
    if (agg.updatedInput) out.updatedInput = agg.updatedInput;
  }
  if (o.context) out.additionalContext = o.context;
  if (canon === 'PostToolUse' && agg.updatedToolOutput !== undefined) out.updatedToolOutput = agg.updatedToolOutput;
  if (canon === 'PostToolUse' && agg.decision === 'deny') {
    return { exitCode: 0, stderr: o.warnings, stdout: json({ decision: 'block', reason: agg.reasons.join('; ') || 'blocked by loom policy', ...(Object.keys(out).length > 1 ? { hookSpecificOutput: out } : {}) }) };
  }
  return { exitCode: 0, stderr: o.warnings, stdout: Object.keys(out).length > 1 ? json({ hookSpecificOutput: out }) : '' };
}

export const claudeAdapter: ProtocolAdapter = {
  name: 'claude',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
  normalize: (p, e) => canonicalPayload(p, e, 'claude'),
  render: renderClaudeStyle,
};
