// PreCompact / PostCompact: write a handoff so the work survives the
// compaction: session, trigger, instructions, summary, open tasks, the
// session's last decisions and every high-risk event, files changed, the
// active spec. The policy may refuse a compaction while a task is open.
import { join } from 'node:path';
import type { HandlerContext, Verdict } from '../contract/types';
import { handlerEnv, isVerdict } from '../guards/context';
import { chooseSpec, SpecPathError } from '../handoff/spec';
import { writeHandoff } from '../handoff/writer';
import { detail, readRecords, type Rec } from '../ledger/reader';

function summary(r: Rec) {
  const d = detail(r);
  return { seq: r.seq, ts: r.ts, event: r.event, decision: r.decision, risk: r.risk, hook_id: r.hook_id, what: d.input_summary ?? d.text ?? d.reason ?? d.message ?? null, rules: d.rules ?? undefined };
}

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const env = handlerEnv(ctx, join(__dirname, '..'));
  if (isVerdict(env)) return env;
  const session = String(p.session_id ?? '');
  const records = readRecords(env.projectDir, { session: session || undefined });
  const created = records.filter((r) => r.event === 'TaskCreated');
  const completed = new Set(records.filter((r) => r.event === 'TaskCompleted').map((r) => detail(r).task_id));
  const openTasks = created.filter((r) => !completed.has(detail(r).task_id)).map((r) => ({ task_id: detail(r).task_id, subject: detail(r).subject ?? null, created_seq: r.seq }));
  if (ctx.event === 'PreCompact' && env.policy.compaction.denyWhileTaskInProgress && openTasks.length) {
    return {
      status: 'ok',
      decision: 'deny',
      reason: `compaction-while-task-open: ${openTasks.length} task(s) still in progress (${openTasks.map((t) => t.task_id).join(', ')}); keep the full context until they finish`,
      risk: 'low',
      audit: [{ kind: 'compaction', data: { trigger: p.trigger ?? null, refused: true, open_tasks: openTasks } }],
    };
  }
  const decisions = records.filter((r) => r.event === 'PreToolUse' || r.event === 'PermissionRequest' || r.event === 'UserPromptSubmit').slice(-env.policy.compaction.lastDecisions).map(summary);
  const highRisk = records.filter((r) => r.risk === 'high' || r.risk === 'critical').map(summary);
  const files = new Set<string>();
  for (const r of records) {
    const d = detail(r);
    for (const k of ['artifacts', 'paths']) if (Array.isArray(d[k])) for (const f of d[k] as unknown[]) if (typeof f === 'string') files.add(f);
  }
  let spec;
  try {
    spec = chooseSpec(env.projectDir, p, session);
  } catch (e) {
    if (!(e instanceof SpecPathError)) throw e;
    return { status: 'warned', message: `handoff not written: ${e.message}`, risk: 'medium', audit: [{ kind: 'compaction', risk: 'medium', data: { trigger: p.trigger ?? null, error: e.message } }] };
  }
  // One instant for the file name and written_at: the name is that time in UTC, whatever the machine's zone.
  const now = new Date();
  const content = {
    kind: 'loom.compaction-handoff.v1',
    event: ctx.event,
    written_at: now.toISOString(),
    session_id: session,
    harness: p.harness ?? null,
    trigger: p.trigger ?? null,
    custom_instructions: p.custom_instructions ?? null,
    compact_summary: ctx.event === 'PostCompact' ? (p.compact_summary ?? p.summary ?? null) : null,
    active_spec: { name: spec.name, path: spec.dir, chosen_from: spec.source },
    open_tasks: openTasks,
    last_decisions: decisions,
    high_risk_events: highRisk,
    files_changed: [...files].sort(),
    ledger_head_seq: records.length ? records[records.length - 1].seq : null,
  };
  let path: string;
  try {
    path = writeHandoff(env.projectDir, spec.dir, content, now);
  } catch (e) {
    const msg = (e as Error).message;
    return { status: 'warned', message: `handoff not written: ${msg}`, risk: 'medium', audit: [{ kind: 'compaction', risk: 'medium', data: { trigger: p.trigger ?? null, error: msg } }] };
  }
  return {
    status: 'ok',
    risk: 'none',
    audit: [{ kind: 'compaction', data: { trigger: p.trigger ?? null, handoff_path: path, spec: spec.name, open_tasks: openTasks.length, decisions: decisions.length, high_risk: highRisk.length, files_changed: files.size } }],
  };
}
