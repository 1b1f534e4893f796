// SessionStart / SessionEnd: harness, source, model, cwd, git branch and
// HEAD. SessionStart tells the agent, as context, the active policy in a
// few lines and the active spec. (SessionEnd's checkpoint is the runner's.)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HandlerContext, Verdict } from '../contract/types';
import { handlerEnv, isVerdict } from '../guards/context';
import { gitState } from '../util/git';
import { remoteProjects } from '../util/remote-projects';

export function run(ctx: HandlerContext): Verdict {
  const p = ctx.payload;
  const env = handlerEnv(ctx, join(__dirname, '..'));
  if (isVerdict(env)) return env;
  const git = gitState(env.projectDir);
  const activeFile = join(env.projectDir, '.loom', 'active-spec');
  const activeSpec = !remoteProjects() && existsSync(activeFile) ? readFileSync(activeFile, 'utf8').trim().slice(0, 200) : null;
  const data = { harness: p.harness, source: p.source ?? null, model: p.model ?? null, cwd: p.cwd ?? null, reason: p.reason ?? null, git_branch: git.branch ?? null, git_head: git.head ?? null, active_spec: activeSpec };
  const verdict: Verdict = { status: 'ok', risk: 'none', audit: [{ kind: 'session', data }] };
  if (ctx.event === 'SessionStart') {
    const r = env.policy.rules;
    const denied = Object.keys(r).filter((k) => r[k] === 'deny');
    const asked = Object.keys(r).filter((k) => r[k] === 'ask');
    const lines = [
      'loom governs this session and records every tool call in a tamper-evident ledger.',
      `Denied: ${denied.slice(0, 12).join(', ')}${denied.length > 12 ? ', ...' : ''}.`,
      `Needs approval: ${asked.join(', ')}.`,
      `Protected branches: ${env.policy.protectedBranches.map((b) => b.source).join(', ')}. Do not read secret files (.env, keys) or change .loom/ or hook settings.`,
    ];
    if (activeSpec) lines.push(`Active spec: specs/${activeSpec} (read it before changing code).`);
    verdict.additionalContext = lines.join('\n');
  }
  return verdict;
}
