// Where the current branch left its base, for `loom evidence --base`: the
// commit time of the merge base (the branch's work, committed or not, comes
// after it). CLI only.
import { execaSync } from 'execa';
import { parseISO } from 'date-fns';
import { FlagError } from './flags';

function git(project: string, args: string[]): string | undefined {
  const r = execaSync('git', ['-C', project, ...args], { reject: false, timeout: 10_000, stdin: 'ignore', stderr: 'ignore' });
  return r.exitCode === 0 ? String(r.stdout).trim() : undefined;
}

export function branchSince(project: string, base: string): { branch: string; since: string } {
  if (!/^[^\s-][^\s]*$/.test(base)) throw new FlagError(`--base ${JSON.stringify(base)}: not a branch or commit name`);
  if (git(project, ['rev-parse', '--git-dir']) === undefined) throw new FlagError(`--base ${base}: ${project} is not a git repository`);
  const mergeBase = git(project, ['merge-base', 'HEAD', `${base}^{commit}`]);
  if (!mergeBase) throw new FlagError(`--base ${base}: no such branch or commit in ${project} (or no history shared with HEAD)`);
  const branch = git(project, ['rev-parse', '--abbrev-ref', 'HEAD']) ?? 'HEAD';
  const when = git(project, ['log', '-1', '--format=%cI', mergeBase]);
  if (!when) throw new FlagError(`--base ${base}: cannot read the time of commit ${mergeBase}`);
  return { branch, since: parseISO(when).toISOString() };
}
