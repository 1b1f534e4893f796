// Who acted: the OS user, the host, the git identity, the branch and the
// harness's version, attached to every record as `actor` (inside the kind
// object, so the record's shape and hash rules stay as they are). Nothing is
// spawned: the git email is read from the config files git itself reads
// (git-config.ts) once per session and kept in a small cache beside the
// ledger (.loom/compliance/actor-cache.json), which the session's next hook
// calls read instead of the configs; a new session reads the configs again.
// The branch is read from HEAD on every call (one small read), so a
// checkout in the middle of a session is seen at once.
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { ledgerLinkedOutside } from '../ledger/paths';
import { hostname, userInfo } from 'node:os';
import { join } from 'node:path';
import { remoteProjects } from '../util/remote-projects';
import { findGitDirs, gitAuthorEmail, headBranch, parseGitConfig } from './git-config';
import { sessionIdOf } from './record';
import { readRegularFile } from '../util/read-regular';

export interface Actor {
  user?: string;
  host?: string;
  email?: string;
  /** The git branch checked out when the call was made (absent when detached or outside a repository). */
  branch?: string;
  harness_version?: string;
  /** From `loom serve`: the user id the calling harness sent (seed 004's Third-Party-User-Id). */
  client_user?: string;
  /** "managed" when the hook ran from the machine's managed settings (the command sets LOOM_HOOK_SCOPE). */
  scope?: 'managed';
}

const MAX = 256;
const clean = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v.slice(0, MAX).replace(/[\u0000-\u001f\u007f]/g, '') : undefined);

/** `email` of the `[user]` section of one git config text (the last one wins, as in git). */
export function gitConfigEmail(text: string): string | undefined {
  let email: string | undefined;
  parseGitConfig(text, (section, sub, name, value) => {
    if (section === 'user' && sub === undefined && name === 'email') email = value ?? undefined;
  });
  return email || undefined;
}

/** The email git would put on a commit made in projectDir: the same answer as git's own, without running git. */
export function gitEmail(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return clean(gitAuthorEmail(projectDir, env));
}

/**
 * The harness's version: payload keys the harnesses send (Cursor's
 * `cursor_version`; an enterprise harness's `app_version`). No harness in
 * the protocol notes documents an environment variable with its version.
 */
const HARNESS_VERSION_KEYS = ['harness_version', 'client_version', 'app_version', 'cursor_version', 'version'];

interface SessionGit {
  email?: string;
  gitdir?: string;
}

const CACHE_FILE = 'actor-cache.json';
const CACHE_SESSIONS = 8;

function cachePath(projectDir: string): string {
  return join(projectDir, '.loom', 'compliance', CACHE_FILE);
}

function readCache(projectDir: string): Record<string, SessionGit & { at?: number }> {
  try {
    const v = JSON.parse(readRegularFile(cachePath(projectDir), 1 << 20) ?? '{}') as { sessions?: unknown };
    return v.sessions && typeof v.sessions === 'object' ? (v.sessions as Record<string, SessionGit & { at?: number }>) : {};
  } catch {
    return {};
  }
}

/** Keeps the session's git identity for its next calls; only beside an existing ledger (never creates .loom/). */
function writeCache(projectDir: string, sessions: Record<string, SessionGit & { at?: number }>, session: string, git: SessionGit): void {
  try {
    const dir = join(projectDir, '.loom', 'compliance');
    if (!existsSync(dir) || ledgerLinkedOutside(projectDir, dir)) return;
    const kept = Object.entries(sessions)
      .filter(([k]) => k !== session)
      .sort((a, b) => (b[1].at ?? 0) - (a[1].at ?? 0))
      .slice(0, CACHE_SESSIONS - 1);
    const out = Object.fromEntries([[session, { ...git, at: Date.now() }], ...kept]);
    const tmp = `${cachePath(projectDir)}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ v: 1, sessions: out }) + '\n');
    renameSync(tmp, cachePath(projectDir));
  } catch {
    // a cache that cannot be written only costs the next call a re-read
  }
}

let machine: { user?: string; host?: string } | undefined;
const memo = new Map<string, SessionGit>();

/** The session's git email and repository folder: from memory, the session cache, or (first call of a session) the configs. */
function sessionGit(projectDir: string, session: string, env: NodeJS.ProcessEnv): SessionGit {
  const key = `${projectDir}\0${session}`;
  const known = memo.get(key);
  if (known) return known;
  let git: SessionGit | undefined;
  const cached = session ? readCache(projectDir) : {};
  const hit = session ? cached[session] : undefined;
  if (hit && typeof hit === 'object') git = { email: clean(hit.email), gitdir: typeof hit.gitdir === 'string' ? hit.gitdir : undefined };
  if (!git) {
    const dirs = findGitDirs(projectDir, env);
    git = { email: clean(gitAuthorEmail(projectDir, env, dirs)), gitdir: dirs?.gitdir };
    if (session) writeCache(projectDir, cached, session, git);
  }
  if (memo.size > 64) memo.clear();
  memo.set(key, git);
  return git;
}

/** The actor of one invocation: the machine once per process, git once per session, the branch on every call. */
export function actorOf(projectDir: string, payload: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): Actor {
  if (!machine) {
    let user: string | undefined;
    try {
      user = userInfo().username;
    } catch {
      user = env.USER || env.USERNAME;
    }
    machine = { user: clean(user), host: clean(hostname()) };
  }
  const a: Actor = { ...machine };
  // A team server's projects are on the developers' machines: their git config and HEAD are not here.
  if (!remoteProjects()) {
    const git = sessionGit(projectDir, sessionIdOf(payload), env);
    if (git.email) a.email = git.email;
    const branch = git.gitdir ? clean(headBranch(git.gitdir)) : undefined;
    if (branch) a.branch = branch;
  }
  for (const k of HARNESS_VERSION_KEYS) {
    const v = clean(payload[k]);
    if (v) {
      a.harness_version = v;
      break;
    }
  }
  if (env.LOOM_HOOK_SCOPE === 'managed') a.scope = 'managed';
  return a;
}
