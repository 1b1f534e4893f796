// Claude Code's hook answer: exit 2 + stderr blocks; otherwise JSON with
// hookSpecificOutput (permissionDecision, updatedInput, additionalContext).
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { joinReasons, type ProtocolAdapter } from './adapter';

function json(obj: Record<string, unknown>): string {
  return JSON.stringify(obj) + '\n';
}

export const claudeAdapter: ProtocolAdapter = {
  name: 'claude',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
    const stderr = agg.warnings.map((w) => w + '\n').join('');
    const canon = contract?.name ?? eventName;
    const canBlock = contract?.canBlock ?? false;
    let decision = agg.decision;
    if (decision === 'ask' && !contract?.canAsk) decision = canBlock ? 'deny' : undefined;

    if (canon === 'PermissionRequest' && decision === 'deny') {
      const message = joinReasons(agg, 'denied by loom policy');
      return { exitCode: 0, stderr, stdout: json({ hookSpecificOutput: { hookEventName: eventName, decision: { behavior: 'deny', message } } }) };
    }
    if (decision === 'deny' && canBlock) {
      return { exitCode: 2, stdout: '', stderr: stderr + `loom: ${joinReasons(agg, 'blocked by loom policy')}\n` };
    }
    if (agg.failed) {
      return { exitCode: 1, stdout: '', stderr: stderr + `loom: ${joinReasons(agg, 'a hook failed')}\n` };
    }
    const context = contract?.context && agg.contexts.length ? agg.contexts.join('\n') : undefined;
    if (canon === 'PreToolUse') {
      const out: Record<string, unknown> = { hookEventName: eventName };
      if (decision === 'ask') {
        out.permissionDecision = 'ask';
        out.permissionDecisionReason = joinReasons(agg, 'loom policy asks for confirmation');
      } else if (decision === 'allow' || agg.updatedInput) {
        out.permissionDecision = 'allow';
      }
      if (agg.updatedInput) out.updatedInput = agg.updatedInput;
      if (context) out.additionalContext = context;
      return { exitCode: 0, stderr, stdout: Object.keys(out).length > 1 ? json({ hookSpecificOutput: out }) : '' };
    }
    if (canon === 'PostToolUse' && decision === 'deny') {
      return { exitCode: 0, stderr, stdout: json({ decision: 'block', reason: joinReasons(agg, 'blocked by loom policy') }) };
    }
    const out: Record<string, unknown> = { hookEventName: eventName };
    if (context) out.additionalContext = context;
    if (canon === 'PostToolUse' && agg.updatedToolOutput !== undefined) out.updatedToolOutput = agg.updatedToolOutput;
    return { exitCode: 0, stderr, stdout: Object.keys(out).length > 1 ? json({ hookSpecificOutput: out }) : '' };
  },
};
