// Stop / SubagentStop: the policy's completion checks (seed 004: block with
// a reason while a deliverable lacks required parts). stop_hook_active and a
// cap on consecutive blocks keep the agent from being held in a loop.
import { join } from 'node:path';
import type { HandlerContext, Verdict } from '../contract/types';
import { handlerEnv, isVerdict } from '../guards/context';
import { readRecords } from '../ledger/reader';

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const env = handlerEnv(ctx, join(__dirname, '..'));
  if (isVerdict(env)) return env;
  const message = String(p.last_assistant_message ?? p.prompt_response ?? p.stop_response ?? '');
  const lower = message.toLowerCase();
  const failing = env.policy.completionChecks.filter((c) => (!c.events || c.events.includes(ctx.event as 'Stop')) && c.mustMention.some((m) => !lower.includes(m.toLowerCase())));
  const session = String(p.session_id ?? '');
  // Consecutive blocks: this session's Stop records, newest first, until one that was not blocked.
  let streak = 0;
  for (const r of readRecords(String(p.loom_project_dir), { event: ctx.event, session: session || undefined }).reverse()) {
    if (r.decision !== 'deny') break;
    streak++;
  }
  const data = { stop_hook_active: p.stop_hook_active === true, checks: env.policy.completionChecks.map((c) => c.name), failed: failing.map((c) => c.name), consecutive_blocks: streak, message_excerpt: message.slice(0, 300) };
  if (failing.length === 0) return { status: 'ok', risk: 'none', audit: [{ kind: 'stop', data }] };
  if (streak >= env.policy.maxConsecutiveStopBlocks) {
    return { status: 'warned', message: `completion checks still failing (${failing.map((c) => c.name).join(', ')}) after ${streak} blocks; letting the agent stop`, risk: 'low', audit: [{ kind: 'stop', risk: 'low', decision: 'allow', data: { ...data, released: true } }] };
  }
  const reason = failing.map((c) => c.message ?? `${c.name}: the answer must mention ${c.mustMention.map((m) => JSON.stringify(m)).join(', ')}`).join('; ');
  return { status: 'ok', decision: 'deny', reason, risk: 'low', audit: [{ kind: 'stop', data }] };
}
