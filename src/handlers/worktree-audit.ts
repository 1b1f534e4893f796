// WorktreeCreate / WorktreeRemove: path, branch, base branch, source dir;
// on removal, what was left behind (was it removed? uncommitted changes?
// unpushed commits? untracked files?) and the residual risk. Audit only:
// where a harness expects this hook to create the worktree (Claude Code),
// loom install does not wire it.
import { existsSync } from 'node:fs';
import type { HandlerContext, Risk, Verdict } from '../contract/types';
import { git } from '../util/git';
import { remoteProjects } from '../util/remote-projects';

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const path = String(p.worktree_path ?? p.path ?? p.cwd ?? '');
  const source = String(p.worktree_source_dir ?? p.source_dir ?? p.loom_project_dir ?? '');
  const data: Record<string, unknown> = {
    worktree_path: path || null,
    branch: p.worktree_branch ?? p.branch ?? (path && !remoteProjects() && existsSync(path) ? git(path, ['rev-parse', '--abbrev-ref', 'HEAD']) : null) ?? null,
    base_branch: p.base_branch ?? (source ? git(source, ['rev-parse', '--abbrev-ref', 'HEAD']) : null) ?? null,
    source_dir: source || null,
    name: p.name ?? null,
  };
  if (ctx.event !== 'WorktreeRemove') return { status: 'ok', risk: 'none', audit: [{ kind: 'worktree', data }] };
  const exists = Boolean(path) && !remoteProjects() && existsSync(path);
  const residual: string[] = [];
  let uncommitted = false;
  let untracked = false;
  let unpushed: number | null = null;
  if (exists) {
    const status = git(path, ['status', '--porcelain']) ?? '';
    uncommitted = status.split('\n').some((l) => l && !l.startsWith('??'));
    untracked = status.split('\n').some((l) => l.startsWith('??'));
    const ahead = git(path, ['rev-list', '--count', '@{upstream}..HEAD']);
    unpushed = ahead === undefined ? null : Number(ahead);
    if (unpushed === null && data.base_branch) {
      const n = git(path, ['rev-list', '--count', `${String(data.base_branch)}..HEAD`]);
      unpushed = n === undefined ? null : Number(n);
    }
    residual.push('worktree folder still present');
    if (uncommitted) residual.push('uncommitted changes');
    if (untracked) residual.push('untracked files');
    if (unpushed) residual.push(`${unpushed} commit(s) not pushed or merged`);
  }
  const risk: Risk = uncommitted || (unpushed ?? 0) > 0 ? 'medium' : exists ? 'low' : 'none';
  Object.assign(data, { removed: !exists, uncommitted_changes: uncommitted, untracked_files: untracked, unpushed_commits: unpushed, residual_risks: residual, cleanup_status: exists ? (residual.length > 1 ? 'dirty' : 'leftover') : 'clean' });
  return { status: residual.length > 1 ? 'warned' : 'ok', message: residual.length ? `worktree ${path}: ${residual.join(', ')}` : undefined, risk, audit: [{ kind: 'worktree', risk, data }] };
}
