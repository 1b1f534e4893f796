// What every guard needs to know about where it runs: the project, the
// pack, the policy, the user's home and temp folders, the current branch.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { HandlerContext, Verdict } from '../contract/types';
import { loadPolicy, PolicyError, type Policy } from '../policy/policy';
import { remoteProjects } from '../util/remote-projects';

export interface GuardEnv {
  projectDir: string;
  cwd: string;
  home: string;
  tmp: string;
  packRoot: string;
  policy: Policy;
  protectedPaths: string[];
  currentBranch?: string;
}

export function readBranch(projectDir: string): string | undefined {
  // A team server's project is on the developer's machine: its branch is not readable here.
  if (remoteProjects()) return undefined;
  const head = join(projectDir, '.git', 'HEAD');
  if (!existsSync(head)) return undefined;
  try {
    const text = readFileSync(head, 'utf8').trim();
    return text.startsWith('ref: refs/heads/') ? text.slice('ref: refs/heads/'.length) : undefined;
  } catch {
    return undefined;
  }
}

const protectedByPack = new Map<string, string[]>();

/** The pack's own folders (and an external checkpoint folder): computed once per pack and process. */
function protectedPathsOf(packRoot: string): string[] {
  let paths = protectedByPack.get(packRoot);
  if (!paths) {
    paths = ['config', 'hooks', 'handlers', 'dist'].map((d) => join(packRoot, d));
    if (process.env.LOOM_CHECKPOINT_DIR) paths.push(resolve(process.env.LOOM_CHECKPOINT_DIR));
    // The state folder (checkpoint copies, witnesses) where XDG_STATE_HOME puts it; the home folder's defaults are in the guard's tables.
    if (process.env.XDG_STATE_HOME?.startsWith('/')) paths.push(join(resolve(process.env.XDG_STATE_HOME), 'loom'));
    // The daemon's sockets: a socket removed and bound again by another program answers the wrappers in loom's place.
    if (process.env.LOOM_SOCKET) paths.push(dirname(resolve(process.env.LOOM_SOCKET)));
    if (process.env.XDG_RUNTIME_DIR) paths.push(join(resolve(process.env.XDG_RUNTIME_DIR), 'loom'));
    const user = process.env.USER ?? process.env.LOGNAME;
    if (user && /^[A-Za-z0-9._-]+$/.test(user)) paths.push(`/tmp/loom-${user}`);
    protectedByPack.set(packRoot, paths);
  }
  return paths;
}

/** The user's home and temp folders: read from the environment once per process (a server asks on every request). */
const folders = {
  get home(): string {
    // node:os costs a module load; the environment usually says the same.
    const v = process.env.HOME || (require('node:os') as typeof import('node:os')).homedir();
    Object.defineProperty(folders, 'home', { value: v });
    return v;
  },
  get tmp(): string {
    const v = resolve(process.env.TMPDIR || (process.platform === 'win32' ? (require('node:os') as typeof import('node:os')).tmpdir() : '/tmp'));
    Object.defineProperty(folders, 'tmp', { value: v });
    return v;
  },
};

/** packRoot: the folder holding config/, hooks/ and handlers/ (a handler's own ../). */
export function guardEnv(ctx: HandlerContext, packRoot: string): GuardEnv {
  const p = ctx.payload;
  const projectDir = resolve(typeof p.loom_project_dir === 'string' ? p.loom_project_dir : typeof p.cwd === 'string' ? p.cwd : process.cwd());
  const cwd = typeof p.cwd === 'string' && p.cwd.startsWith('/') ? resolve(p.cwd) : projectDir;
  let branch: string | undefined | null = null;
  return {
    projectDir,
    cwd,
    home: folders.home,
    tmp: folders.tmp,
    packRoot,
    policy: loadPolicy(packRoot, projectDir, ctx.hook.policy),
    protectedPaths: protectedPathsOf(packRoot),
    // Read when a rule asks (a push without a refspec), and then at that moment: most commands never need it.
    get currentBranch() {
      if (branch === null) branch = readBranch(projectDir);
      return branch;
    },
  };
}

/** guardEnv for a handler: an invalid policy becomes a failed verdict (the hook fails closed, naming file and path). */
export function handlerEnv(ctx: HandlerContext, packRoot: string): GuardEnv | Verdict {
  try {
    return guardEnv(ctx, packRoot);
  } catch (e) {
    if (e instanceof PolicyError) return { status: 'failed', message: `invalid policy: ${e.message.split('\n')[0]}` };
    throw e;
  }
}

export function isVerdict(x: GuardEnv | Verdict): x is Verdict {
  return 'status' in x;
}
