// docker-agent (seed 003): snake_case events; hook_specific_output with
// permission_decision / updated_input / additional_context; the top-level
// decision is only ever "block". Exit 2 + stderr also blocks.
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { blockByExit2, canonicalPayload, errorExit1, json, outcomeOf, type ProtocolAdapter } from './adapter';

const CONTEXT_EVENTS = new Set(['session_start', 'turn_start', 'user_prompt_submit', 'user_steering_messages_submit', 'user_followup_submit', 'pre_compact', 'worktree_create']);

export const dockerAgentAdapter: ProtocolAdapter = {
  name: 'docker-agent',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
  normalize: (p, e) => canonicalPayload(p, e, 'docker-agent'),
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
    const o = outcomeOf(agg, contract);
    if (o.kind === 'block') return blockByExit2(o);
    if (o.kind === 'error') return errorExit1(o);
    const hso: Record<string, unknown> = { hook_event_name: eventName };
    if (eventName === 'pre_tool_use') {
      if (o.kind === 'ask') {
        hso.permission_decision = 'ask';
        hso.permission_decision_reason = o.reason;
      }
      if (agg.updatedInput) hso.updated_input = agg.updatedInput;
    }
    if (o.context && CONTEXT_EVENTS.has(eventName)) hso.additional_context = o.context;
    return { exitCode: 0, stderr: o.warnings, stdout: Object.keys(hso).length > 1 ? json({ hook_specific_output: hso }) : '' };
  },
};
