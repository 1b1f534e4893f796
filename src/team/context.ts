// Who and where, for every shipped record: the actor (user, host, git email,
// harness) and the repository (remote URL normalized, branch). A field the
// record carries wins; otherwise the shipper fills it from its own context at
// ship time, and says so (actor_from = 'shipper'). docs/team.md states it.
import { hostname, userInfo } from 'node:os';
import { git } from '../util/git';

export interface ShipContext {
  user?: string;
  host?: string;
  email?: string;
  repo?: string;
  branch?: string;
}

/**
 * A remote URL reduced to host/path: scheme, credentials, port, a trailing
 * .git and slashes dropped, host lowercased. git@github.com:org/r.git,
 * https://u:tok@github.com/org/r and ssh://git@github.com:22/org/r.git all
 * become github.com/org/r. A local path stays a path (no credentials there).
 */
export function normalizeRemote(url: string): string {
  let s = url.trim();
  if (!s) return '';
  let host = '';
  let path = '';
  const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.*)$/.exec(s);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) {
    try {
      const u = new URL(s);
      if (u.protocol === 'file:') return decodeURIComponent(u.pathname).replace(/\/+$/, '').replace(/\.git$/, '');
      host = u.hostname.toLowerCase();
      path = decodeURIComponent(u.pathname);
    } catch {
      return s.replace(/\/\/[^@/]*@/, '//');
    }
  } else if (scp && !s.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(s)) {
    host = scp[1].toLowerCase();
    path = scp[2];
  } else {
    return s.replace(/[\\/]+$/, '').replace(/\.git$/, '');
  }
  path = path.replace(/^\/+/, '').replace(/\/+$/, '').replace(/\.git$/, '');
  s = path ? `${host}/${path}` : host;
  return s;
}

let cached: { dir: string; at: number; ctx: ShipContext } | undefined;

/** The shipper's own context for a project (git asked once a minute at most). */
export function localContext(projectDir: string, env: NodeJS.ProcessEnv = process.env): ShipContext {
  if (cached && cached.dir === projectDir && Date.now() - cached.at < 60_000) return cached.ctx;
  let user: string | undefined;
  try {
    user = userInfo().username;
  } catch {
    user = env.USER || env.USERNAME;
  }
  const remote = git(projectDir, ['config', '--get', 'remote.origin.url']) ?? git(projectDir, ['remote', 'get-url', 'origin']);
  const branch = git(projectDir, ['symbolic-ref', '--short', '-q', 'HEAD']) ?? git(projectDir, ['rev-parse', '--abbrev-ref', 'HEAD']);
  const ctx: ShipContext = {
    user,
    host: hostname(),
    email: git(projectDir, ['config', '--get', 'user.email']) || undefined,
    repo: remote ? normalizeRemote(remote) : undefined,
    branch: branch && branch !== 'HEAD' ? branch : undefined,
  };
  cached = { dir: projectDir, at: Date.now(), ctx };
  return ctx;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v.slice(0, 512) : undefined);

export interface RecordWho {
  user?: string;
  host?: string;
  email?: string;
  repo?: string;
  branch?: string;
  from: 'record' | 'shipper' | 'mixed';
}

/**
 * The actor and repository of one record: the record's own fields first
 * (`actor: {user, host, git_email|email}`, or top-level `user`, `host`,
 * `git_email`; `repo: {url|remote, branch}` or top-level `repo`/`branch`),
 * then the shipper's context.
 */
export function whoOf(rec: Record<string, unknown>, ctx: ShipContext): RecordWho {
  // loom's own records keep the actor in their kind object ($.<kind>.actor); other writers at the top.
  const inKind = typeof rec.kind === 'string' ? (rec[rec.kind] as Record<string, unknown> | undefined)?.actor : undefined;
  const actor = (rec.actor && typeof rec.actor === 'object' ? rec.actor : inKind && typeof inKind === 'object' ? inKind : {}) as Record<string, unknown>;
  const repoObj = (rec.repo && typeof rec.repo === 'object' ? rec.repo : {}) as Record<string, unknown>;
  const fromRec = {
    user: str(actor.user) ?? str(rec.user),
    host: str(actor.host) ?? str(rec.host),
    email: str(actor.git_email) ?? str(actor.email) ?? str(rec.git_email),
    repo: str(repoObj.url) ?? str(repoObj.remote) ?? str(rec.repo) ?? str(rec.repository),
    branch: str(repoObj.branch) ?? str(rec.branch) ?? str(actor.branch),
  };
  // Once per shipped record: no closure per call, and the remote normalized once per distinct string.
  let fromRecord = 0;
  let fromShipper = 0;
  const out: Partial<Record<keyof ShipContext, string>> = {};
  for (const k of WHO_KEYS) {
    const v = fromRec[k];
    if (v !== undefined) {
      fromRecord++;
      out[k] = v;
    } else {
      if (ctx[k] !== undefined) fromShipper++;
      out[k] = ctx[k];
    }
  }
  if (out.repo) out.repo = normalizedOnce(out.repo);
  return { user: out.user, host: out.host, email: out.email, repo: out.repo, branch: out.branch, from: fromShipper === 0 ? 'record' : fromRecord === 0 ? 'shipper' : 'mixed' };
}

const WHO_KEYS = ['user', 'host', 'email', 'repo', 'branch'] as const;
let lastRemote: { raw: string; normalized: string } | undefined;

/** normalizeRemote, remembering the last answer (a ledger's records name one remote, over and over). */
function normalizedOnce(raw: string): string {
  if (lastRemote?.raw !== raw) lastRemote = { raw, normalized: normalizeRemote(raw) };
  return lastRemote.normalized;
}
