// Who acted: the OS user, the host, the git identity and the harness's
// version, attached to every record as `actor` (inside the kind object, so
// the record's shape and hash rules stay as they are). Nothing is spawned:
// git's user.email is read from the config files git itself reads (the
// repository's, then the user's), a few small reads once per process.
import { readFileSync, statSync } from 'node:fs';
import { homedir, hostname, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

export interface Actor {
  user?: string;
  host?: string;
  email?: string;
  harness_version?: string;
  /** From `loom serve`: the user id the calling harness sent (seed 004's Third-Party-User-Id). */
  client_user?: string;
  /** "managed" when the hook ran from the machine's managed settings (the command sets LOOM_HOOK_SCOPE). */
  scope?: 'managed';
}

const MAX = 256;
const clean = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v.slice(0, MAX).replace(/[\u0000-\u001f\u007f]/g, '') : undefined);

function readSmall(file: string): string | undefined {
  try {
    if (statSync(file).size > 256 * 1024) return undefined;
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** `email` of the `[user]` section of a git config text (the last one wins, as in git). */
export function gitConfigEmail(text: string): string | undefined {
  let section = '';
  let email: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('[')) {
      section = line.slice(1, line.indexOf(']') > 0 ? line.indexOf(']') : undefined).trim().toLowerCase();
      continue;
    }
    if (section !== 'user') continue;
    const m = /^email\s*=\s*(.*)$/i.exec(line);
    if (m) email = m[1].replace(/\s[#;].*$/, '').replace(/^"(.*)"$/, '$1').trim() || undefined;
  }
  return email;
}

/** The repository's config file: .git/config, or for a worktree (.git is a file) the common folder's. */
function repoConfig(projectDir: string): string | undefined {
  for (let d = projectDir, i = 0; i < 64; i++, d = dirname(d)) {
    const dotGit = join(d, '.git');
    let st;
    try {
      st = statSync(dotGit);
    } catch {
      if (dirname(d) === d) return undefined;
      continue;
    }
    if (st.isDirectory()) return join(dotGit, 'config');
    const m = /^gitdir:\s*(.+)$/m.exec(readSmall(dotGit) ?? '');
    if (!m) return undefined;
    const gitdir = isAbsolute(m[1].trim()) ? m[1].trim() : join(d, m[1].trim());
    const common = readSmall(join(gitdir, 'commondir'))?.trim();
    return join(common ? (isAbsolute(common) ? common : join(gitdir, common)) : gitdir, 'config');
  }
  return undefined;
}

export function gitEmail(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const home = env.HOME || homedir();
  const files = [repoConfig(projectDir), join(home, '.gitconfig'), join(env.XDG_CONFIG_HOME || join(home, '.config'), 'git', 'config')];
  for (const f of files) {
    const text = f && readSmall(f);
    const e = text ? gitConfigEmail(text) : undefined;
    if (e) return clean(e);
  }
  return undefined;
}

const HARNESS_VERSION_KEYS = ['harness_version', 'client_version', 'app_version', 'version'];

let machine: { user?: string; host?: string } | undefined;
const emails = new Map<string, string | undefined>();

/** The actor of one invocation; the machine and git parts are read once per process and project. */
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
  if (!emails.has(projectDir)) emails.set(projectDir, gitEmail(projectDir, env));
  const a: Actor = { ...machine };
  const email = emails.get(projectDir);
  if (email) a.email = email;
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
