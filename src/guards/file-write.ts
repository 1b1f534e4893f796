// The file-write guard: where a Write / Edit / apply_patch may land.
import { posix } from 'node:path';
import type { Decision } from '../contract/types';
import { actionFor } from '../policy/policy';
import type { GuardEnv } from './context';
import { Analyzer, type Hit } from './shell/analyze';
import { classify, within, writesPath } from './shell/path-rules';
import { work, WORK_BUDGET } from './shell/work';

export function checkFileWrites(paths: string[], env: GuardEnv): Hit[] {
  // A fresh budget: the path rules stop early once a budget is spent, and a watchdog that ended an
  // earlier analysis midway may have left one spent.
  work.limit = work.units + WORK_BUDGET;
  const a = new Analyzer({ ...env });
  for (const raw of paths) {
    const abs = posix.resolve(env.cwd, raw.replace(/^~(?=\/|$)/, env.home));
    const seg = raw;
    writesPath(a, abs, env.cwd, seg);
    const cls = classify(abs, a);
    const allowed = env.policy.allowedOutsidePaths.some((p) => p.test(abs));
    if (!allowed && cls !== 'inside-project' && cls !== 'temp' && cls !== 'project-root') a.hit('write-outside-project', 'deny', seg, `writes ${abs}, outside the project and the temp folder`);
    if (within(abs, posix.join(env.projectDir, '.git'))) a.hit('write-git-internals', 'deny', seg, `writes git internals (${posix.relative(env.projectDir, abs)})`);
    const rel = posix.relative(env.projectDir, abs);
    if (env.policy.ciConfigPaths.some((p) => p.test(rel))) a.hit('write-ci-config', 'ask', seg, `changes CI configuration (${rel})`);
  }
  return a.hits;
}

export function strongest(hits: Hit[]): Decision {
  return hits.some((h) => h.action === 'deny') ? 'deny' : hits.some((h) => h.action === 'ask') ? 'ask' : 'allow';
}

export { actionFor };
