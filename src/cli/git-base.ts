// Where the current branch left its base, for `loom evidence --base`: the
// commit time of the merge base (the branch's work, committed or not, comes
// after it). A base that exists only as a remote-tracking branch (a CI
// clone has origin/main, not main) is used as such; a shallow clone, where
// the merge base may be missing, is named with the fix. CLI only.
import { execaSync } from 'execa';
import { parseISO } from 'date-fns';
import { FlagError } from './flags';

function git(project: string, args: string[]): string | undefined {
  const r = execaSync('git', ['-C', project, ...args], { reject: false, timeout: 10_000, stdin: 'ignore', stderr: 'ignore' });
  return r.exitCode === 0 ? String(r.stdout).trim() : undefined;
}

export interface BranchBase {
  /** The current branch ('HEAD' when detached). */
  branch: string;
  /** The ref the merge base was taken from: the base as given, or origin/<base>. */
  baseRef: string;
  since: string;
  /** Set in a shallow clone: one line saying so, with the fix. */
  shallow?: string;
}

const SHALLOW_FIX = 'run `git fetch --unshallow` (in GitHub Actions: actions/checkout with `fetch-depth: 0`)';

export function branchSince(project: string, base: string): BranchBase {
  if (!/^[^\s-][^\s]*$/.test(base)) throw new FlagError(`--base ${JSON.stringify(base)}: not a branch or commit name`);
  if (git(project, ['rev-parse', '--git-dir']) === undefined) throw new FlagError(`--base ${base}: ${project} is not a git repository`);
  const shallow = git(project, ['rev-parse', '--is-shallow-repository']) === 'true';
  let baseRef = base;
  if (git(project, ['rev-parse', '--verify', '-q', `${base}^{commit}`]) === undefined) {
    // A CI clone has the remote-tracking branch only.
    const remote = git(project, ['for-each-ref', '--format=%(refname:short)', `refs/remotes/*/${base}`])?.split('\n').filter(Boolean) ?? [];
    const pick = remote.find((r) => r === `origin/${base}`) ?? remote[0];
    if (!pick) {
      if (shallow) throw new FlagError(`--base ${base}: no such branch in this shallow clone; fetch it and the history (\`git fetch --unshallow origin ${base}\`; in GitHub Actions: actions/checkout with \`fetch-depth: 0\`)`);
      throw new FlagError(`--base ${base}: no such branch or commit in ${project} (nor origin/${base})`);
    }
    baseRef = pick;
  }
  const mergeBase = git(project, ['merge-base', 'HEAD', `${baseRef}^{commit}`]);
  if (!mergeBase) {
    if (shallow) throw new FlagError(`--base ${base}: this is a shallow clone, so where the branch left ${baseRef} is not in it; ${SHALLOW_FIX}`);
    throw new FlagError(`--base ${base}: no history shared between HEAD and ${baseRef}`);
  }
  const branch = git(project, ['rev-parse', '--abbrev-ref', 'HEAD']) ?? 'HEAD';
  const when = git(project, ['log', '-1', '--format=%cI', mergeBase]);
  if (!when) throw new FlagError(`--base ${base}: cannot read the time of commit ${mergeBase}`);
  return { branch, baseRef, since: parseISO(when).toISOString(), shallow: shallow ? `loom: this is a shallow clone: where the branch left ${baseRef} may be wrong; ${SHALLOW_FIX}` : undefined };
}
