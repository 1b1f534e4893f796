// SubagentStart / SubagentStop: subagent id and type, parent session, task
// link, a summary of the final message (redacted by the ledger), duration.
import type { HandlerContext, Verdict } from '../contract/types';
import { detail, readRecords } from '../ledger/reader';

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const agentId = String(p.agent_id ?? p.subagent_id ?? '');
  const data: Record<string, unknown> = {
    subagent_id: agentId || null,
    subagent_type: p.agent_type ?? p.subagent_type ?? null,
    parent_session_id: p.session_id ?? null,
    task_id: p.task_id ?? null,
    transcript_path: p.agent_transcript_path ?? null,
  };
  if (ctx.event === 'SubagentStop') {
    const last = typeof p.last_assistant_message === 'string' ? p.last_assistant_message : '';
    data.summary = last.length > 500 ? last.slice(0, 500) + '…' : last;
    const start = readRecords(String(p.loom_project_dir), { event: 'SubagentStart', session: String(p.session_id ?? '') }).reverse().find((r) => !agentId || detail(r).subagent_id === agentId);
    data.duration_ms = start ? Date.now() - Date.parse(start.ts) : null;
    data.started_seq = start?.seq ?? null;
  }
  return { status: 'ok', risk: 'none', audit: [{ kind: 'subagent', data }] };
}
