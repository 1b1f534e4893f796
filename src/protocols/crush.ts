// Crush (charmbracelet): `crush.json` hooks for PreToolUse and PreCompact;
// payload {event, session_id, cwd, tool_name, tool_input}. An exit-0 JSON
// answer {decision: "deny", reason} blocks with the reason shown to the
// model; {halt: true, reason} ends the turn; `context` is appended to what
// the model sees; `updated_input` is shallow-merged. Crush has no ask: an
// ask is a deny that says approval is needed. Exits other than 0, 2 and 49
// let the call run, so loom never answers a blockable event with one.
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { canonicalPayload, errorExit1, json, outcomeOf, type ProtocolAdapter } from './adapter';

export const crushAdapter: ProtocolAdapter = {
  name: 'crush',
  eventOf: (p) => (typeof p.event === 'string' ? p.event : typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
  normalize: (p, e) => canonicalPayload(p, e, 'crush', p.tool_name === 'compact' ? { tool_name: undefined, tool_input: undefined, compaction: p.tool_input } : undefined),
  render(agg: Aggregate, contract: EventContract | undefined): RenderedAnswer {
    const o = outcomeOf(agg, contract && { ...contract, canAsk: false });
    if (o.kind === 'block') return { exitCode: 0, stderr: o.warnings, stdout: json({ decision: 'deny', reason: `loom: ${o.reason}`, ...(agg.halt ? { halt: true } : {}) }) };
    if (o.kind === 'error') return errorExit1(o);
    const out: Record<string, unknown> = {};
    if (agg.halt) {
      out.halt = true;
      out.reason = agg.halt;
    }
    if (o.explicitAllow) out.decision = 'allow';
    if (agg.updatedInput) out.updated_input = agg.updatedInput;
    if (o.context) out.context = o.context;
    return { exitCode: 0, stderr: o.warnings, stdout: Object.keys(out).length ? json(out) : '' };
  },
};
