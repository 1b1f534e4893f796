// Codex CLI: its output schemas reject unknown fields (the hook then fails
// and the action runs), so only fields it documents are ever printed.
// Blocks are exit 2 with a non-empty stderr; ask is unsupported and fails
// closed; allow without a rewrite is a silent exit 0; Stop wants JSON.
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { blockByExit2, canonicalPayload, errorExit1, json, outcomeOf, type ProtocolAdapter } from './adapter';

const CONTEXT_EVENTS = new Set(['SessionStart', 'SubagentStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse']);

export const codexAdapter: ProtocolAdapter = {
  name: 'codex',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
  normalize: (p, e) => canonicalPayload(p, e, 'codex'),
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
    const canonContract = contract && { ...contract, canAsk: false };
    const o = outcomeOf(agg, canonContract);
    const canon = contract?.name ?? eventName;
    if (canon === 'PermissionRequest' && (o.kind === 'block' || (agg.decision === 'allow' && !agg.failed))) {
      const decision = o.kind === 'block' ? { behavior: 'deny', message: o.reason } : { behavior: 'allow' };
      return { exitCode: 0, stderr: o.warnings, stdout: json({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } }) };
    }
    // Stop / SubagentStop want JSON: decision "block" turns the reason into a continuation prompt.
    if (o.kind === 'block' && (canon === 'Stop' || canon === 'SubagentStop')) return { exitCode: 0, stderr: o.warnings, stdout: json({ decision: 'block', reason: o.reason }) };
    if (o.kind === 'block') return blockByExit2(o);
    if (o.kind === 'error') return errorExit1(o);
    const hso: Record<string, unknown> = { hookEventName: eventName };
    if (canon === 'PreToolUse' && agg.updatedInput && typeof agg.updatedInput.command === 'string') {
      hso.permissionDecision = 'allow';
      hso.updatedInput = agg.updatedInput;
    }
    if (o.context && CONTEXT_EVENTS.has(canon)) hso.additionalContext = o.context;
    // continue:false is accepted everywhere but PreToolUse (where it would fail the hook, open).
    const halt = agg.halt && canon !== 'PreToolUse' && canon !== 'PermissionRequest' ? { continue: false, stopReason: agg.halt } : {};
    if (Object.keys(hso).length > 1) return { exitCode: 0, stderr: o.warnings, stdout: json({ ...halt, hookSpecificOutput: hso }) };
    if (Object.keys(halt).length) return { exitCode: 0, stderr: o.warnings, stdout: json(halt) };
    if (canon === 'Stop' || canon === 'SubagentStop') return { exitCode: 0, stderr: o.warnings, stdout: json({}) };
    return { exitCode: 0, stderr: o.warnings, stdout: '' };
  },
};
