// PermissionRequest / PermissionDenied: what was asked, the decision and who
// made it. On a PermissionRequest the guard's deny rules answer for the
// policy (Claude Code and Codex accept decision.behavior); anything else is
// left to the user's prompt, never auto-approved.
import type { HandlerContext, Verdict } from '../contract/types';
import { guard } from './pre-tool-guard';

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const input = p.tool_input && typeof p.tool_input === 'object' ? (p.tool_input as Record<string, unknown>) : {};
  const summary = typeof input.command === 'string' ? input.command : JSON.stringify(input).slice(0, 2000);
  if (ctx.event === 'PermissionDenied') {
    return {
      status: 'ok',
      risk: 'medium',
      audit: [{ kind: 'permission', risk: 'medium', decision: 'denied', data: { tool: p.tool_name ?? null, input_summary: summary, reason: p.reason ?? p.message ?? null, decided_by: 'harness' } }],
    };
  }
  const g = guard(ctx);
  const denied = g.decision === 'deny';
  const verdict: Verdict = {
    status: g.status === 'failed' ? 'failed' : 'ok',
    message: g.message,
    risk: g.risk,
    audit: [
      {
        kind: 'permission',
        risk: g.risk,
        decision: denied ? 'denied' : 'requested',
        data: { tool: p.tool_name ?? null, input_summary: summary, suggestions: p.permission_suggestions ?? null, decided_by: denied ? 'loom policy' : 'user (the harness asks)', rules: g.audit?.[0]?.data.rules ?? [] },
      },
    ],
  };
  if (denied) {
    verdict.decision = 'deny';
    verdict.reason = g.reason;
  }
  return verdict;
}
