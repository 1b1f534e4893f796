// Every other event: record what happened with the fields that identify it
// (session, source, model, trigger, reason, notification type, subagent,
// task, worktree). Redaction happens in the ledger.
import type { HandlerContext, Verdict } from '../contract/types';

const FIELDS = ['tool_name', 'source', 'model', 'reason', 'trigger', 'custom_instructions', 'compact_summary', 'notification_type', 'message', 'title', 'agent_id', 'agent_type', 'stop_hook_active', 'last_assistant_message', 'task_id', 'task_subject', 'worktree_path', 'file_path', 'permission_mode', 'cwd', 'transcript_path'];

export function run(ctx: HandlerContext): Verdict {
  const data: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = ctx.payload[f];
    if (v === undefined || v === null) continue;
    data[f] = typeof v === 'string' && v.length > 2000 ? v.slice(0, 2000) + '…' : v;
  }
  return { status: 'ok', risk: 'none', audit: [{ kind: 'lifecycle', data }] };
}
