// Cursor: camelCase events; permission events answer
// {permission, user_message, agent_message, updated_input}; prompts block
// with {continue:false}; stop keeps the agent going with followup_message;
// sessionStart/postToolUse take additional_context. A deny also exits 2,
// which Cursor treats as deny even if it ignores the JSON.
import type { EventContract } from '../contract/events';
import type { Aggregate, RenderedAnswer } from '../contract/types';
import { canonicalPayload, errorExit1, json, outcomeOf, type ProtocolAdapter } from './adapter';

const PERMISSION_EVENTS = new Set(['preToolUse', 'beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

export const cursorAdapter: ProtocolAdapter = {
  name: 'cursor',
  eventOf: (p) => (typeof p.hook_event_name === 'string' ? p.hook_event_name : undefined),
  normalize(p, e) {
    const extra: Record<string, unknown> = {};
    if (e === 'beforeShellExecution' || e === 'afterShellExecution') {
      extra.tool_name = 'Shell';
      extra.tool_input = { command: p.command };
    } else if (e === 'beforeReadFile') {
      extra.tool_name = 'Read';
      extra.tool_input = { file_path: p.file_path };
    } else if (e === 'afterFileEdit') {
      extra.tool_name = 'Edit';
      extra.tool_input = { file_path: p.file_path, edits: p.edits };
    } else if (e === 'beforeMCPExecution' || e === 'afterMCPExecution') {
      extra.tool_name = `mcp__${String(p.server ?? 'server')}__${String(p.tool_name ?? 'tool')}`;
      extra.tool_input = typeof p.tool_input === 'string' ? safeParse(p.tool_input) : p.tool_input;
    }
    if (!p.cwd && Array.isArray(p.workspace_roots) && typeof p.workspace_roots[0] === 'string') extra.cwd = p.workspace_roots[0];
    return canonicalPayload(p, e, 'cursor', extra);
  },
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string): RenderedAnswer {
    const o = outcomeOf(agg, contract);
    if (PERMISSION_EVENTS.has(eventName)) {
      if (o.kind === 'block') return { exitCode: 2, stderr: o.warnings + `loom: ${o.reason}\n`, stdout: json({ permission: 'deny', user_message: `loom: ${o.reason}`, agent_message: o.reason }) };
      if (o.kind === 'error') return errorExit1(o);
      const out: Record<string, unknown> = { permission: o.kind === 'ask' ? 'ask' : 'allow' };
      if (o.kind === 'ask') {
        out.user_message = `loom: ${o.reason}`;
        out.agent_message = o.reason;
      }
      if (eventName === 'preToolUse' && agg.updatedInput) out.updated_input = agg.updatedInput;
      return { exitCode: 0, stderr: o.warnings, stdout: json(out) };
    }
    if (o.kind === 'block') {
      if (eventName === 'beforeSubmitPrompt') return { exitCode: 0, stderr: o.warnings, stdout: json({ continue: false, user_message: `loom: ${o.reason}` }) };
      if (eventName === 'stop' || eventName === 'subagentStop') return { exitCode: 0, stderr: o.warnings, stdout: json({ followup_message: o.reason }) };
      return { exitCode: 2, stdout: '', stderr: o.warnings + `loom: ${o.reason}\n` };
    }
    if (o.kind === 'error') return errorExit1(o);
    if (o.context && (eventName === 'sessionStart' || eventName === 'postToolUse')) return { exitCode: 0, stderr: o.warnings, stdout: json({ additional_context: o.context }) };
    return { exitCode: 0, stderr: o.warnings, stdout: '' };
  },
};

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return { raw: s };
  }
}
