// Small read-only git queries for the lifecycle handlers; never fatal.
// node:child_process, not execa: the handlers run in the hook process
// (SessionStart, SessionEnd, worktree events), where every module loaded
// costs each call; the CLI and tests use execa.
import { spawnSync } from 'node:child_process';
import { remoteProjects } from './remote-projects';

export function git(cwd: string, args: string[], timeoutMs = 3000): string | undefined {
  // A team server's paths are the developers': never run git on them here.
  if (remoteProjects()) return undefined;
  try {
    const r = spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8', timeout: timeoutMs, stdio: ['ignore', 'pipe', 'ignore'] });
    return r.status === 0 ? r.stdout.trim() : undefined;
  } catch {
    return undefined;
  }
}

export function gitState(cwd: string): { branch?: string; head?: string } {
  return { branch: git(cwd, ['rev-parse', '--abbrev-ref', 'HEAD']), head: git(cwd, ['rev-parse', 'HEAD']) };
}
