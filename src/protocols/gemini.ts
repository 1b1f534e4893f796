// Gemini CLI: BeforeTool/AfterTool/BeforeAgent/AfterAgent/PreCompress/...;
// exit 2 with stderr blocks; hookSpecificOutput.tool_input merges over the
// tool arguments; additionalContext on AfterTool, BeforeAgent, SessionStart.
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { blockByExit2, canonicalPayload, errorExit1, json, outcomeOf, type ProtocolAdapter } from './adapter';

const CONTEXT_EVENTS = new Set(['AfterTool', 'BeforeAgent', 'SessionStart']);

export const geminiAdapter: ProtocolAdapter = {
  name: 'gemini',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
  normalize: (p, e) => canonicalPayload(p, e, 'gemini'),
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
    const o = outcomeOf(agg, contract && { ...contract, canAsk: false });
    if (o.kind === 'block') return blockByExit2(o);
    if (o.kind === 'error') return errorExit1(o);
    const hso: Record<string, unknown> = { hookEventName: eventName };
    if (eventName === 'BeforeTool' && agg.updatedInput) hso.tool_input = agg.updatedInput;
    if (eventName === 'AfterTool' && agg.updatedToolOutput !== undefined) hso.tool_output = agg.updatedToolOutput;
    if (o.context && CONTEXT_EVENTS.has(eventName)) hso.additionalContext = o.context;
    const out: Record<string, unknown> = {};
    if (Object.keys(hso).length > 1) out.hookSpecificOutput = hso;
    if (o.explicitAllow && eventName === 'BeforeTool') out.decision = 'allow';
    if (agg.halt) {
      out.continue = false;
      out.stopReason = agg.halt;
    }
    if (agg.userMessages.length) out.systemMessage = agg.userMessages.join('\n');
    return { exitCode: 0, stderr: o.warnings, stdout: Object.keys(out).length ? json(out) : '' };
  },
};
