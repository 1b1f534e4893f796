// TaskCreated / TaskCompleted: task id, task file, status transitions,
// handoff path and artifacts. A completion with no creation on record is
// kept, with a warning, never dropped.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { HandlerContext, Verdict } from '../contract/types';
import { detail, readRecords } from '../ledger/reader';
import { remoteProjects } from '../util/remote-projects';

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const project = String(p.loom_project_dir);
  const taskId = String(p.task_id ?? p.id ?? '');
  const taskFileGuess = taskId ? join(project, 'specs', 'tasks', `${taskId}.md`) : '';
  const taskFile = typeof p.task_file === 'string' ? p.task_file : taskFileGuess && !remoteProjects() && existsSync(taskFileGuess) ? taskFileGuess : null;
  const data: Record<string, unknown> = {
    task_id: taskId || null,
    subject: p.task_subject ?? p.subject ?? p.title ?? null,
    description: typeof p.task_description === 'string' ? p.task_description.slice(0, 1000) : null,
    task_file: taskFile,
    owner: p.teammate_name ?? p.agent_type ?? null,
    handoff_path: p.handoff_path ?? null,
    artifacts: Array.isArray(p.artifacts) ? p.artifacts.slice(0, 200) : [],
  };
  if (ctx.event === 'TaskCreated') {
    data.transition = 'none -> created';
    return { status: 'ok', risk: 'none', audit: [{ kind: 'task', data }] };
  }
  const created = readRecords(project, { event: 'TaskCreated' }).find((r) => detail(r).task_id === taskId);
  data.transition = created ? 'created -> completed' : 'unknown -> completed';
  data.created_seq = created?.seq ?? null;
  if (!created) {
    data.warning = 'no TaskCreated on record for this task';
    return { status: 'warned', message: `task ${taskId || '(no id)'} completed without a TaskCreated on record`, risk: 'low', audit: [{ kind: 'task', risk: 'low', data }] };
  }
  return { status: 'ok', risk: 'none', audit: [{ kind: 'task', data }] };
}
