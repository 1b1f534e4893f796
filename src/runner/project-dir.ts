// The governed project: flag or LOOM_PROJECT_DIR, then the harness's own
// variables, then the payload's cwd, then the process cwd; from a folder,
// the nearest one up that holds `.loom/` or is a git repository's top (an
// agent working in src/ is governed by the repository's policy and records
// to its one ledger, not to a new one in src/). A project is an
// existing folder: loom creates `.loom/` only inside one, never the folders
// leading to it, and never in the filesystem root or a kernel file system.
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { currentFolder } from '../util/current-folder';

const KERNEL_TREES = ['/proc', '/sys', '/dev'];
/** Under /dev, only the shared-memory tmpfs holds ordinary folders. */
const isKernelTree = (real: string): boolean => KERNEL_TREES.some((t) => real === t || real.startsWith(t + '/')) && !real.startsWith('/dev/shm/');

/** Why `dir` cannot hold a ledger, or undefined when it can. Real path resolved first (symlink loops end in ELOOP, not a spin). */
export function projectFolderProblem(dir: string): string | undefined {
  let real: string;
  try {
    real = realpathSync.native(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return `project folder ${dir} ${code === 'ENOENT' ? 'does not exist' : code === 'ELOOP' ? 'is a symlink loop' : `cannot be resolved (${code ?? 'error'})`}`;
  }
  try {
    if (!statSync(real).isDirectory()) return `project folder ${dir} is not a folder`;
  } catch (e) {
    return `project folder ${dir} cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  if (real === sep || /^[A-Za-z]:\\?$/.test(real)) return `project folder ${dir} is the filesystem root; loom keeps a ledger only inside a project`;
  if (process.platform !== 'win32' && isKernelTree(real)) return `project folder ${dir} is under ${real.split('/').slice(0, 2).join('/')}; loom keeps a ledger only inside a project`;
  const sys = systemFolder(real);
  if (sys) return `project folder ${dir} is ${sys}; loom keeps a ledger only inside a project`;
  return undefined;
}

// System folders: never a project. Whole trees (the operating system's own files), with the
// subtrees where people do keep projects let through, and single folders that hold projects
// but are none themselves (the home folder, /tmp, /home).
const SYSTEM_TREES = ['/etc', '/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/boot', '/var', '/snap', '/private/etc', '/private/var', '/System', '/Library'];
const TREE_OPENINGS = ['/usr/local', '/var/tmp', '/var/folders', '/var/home', '/private/var/folders', '/private/var/tmp'];
const SYSTEM_FOLDERS = ['/', '/tmp', '/private', '/private/tmp', '/home', '/Users', '/root', '/opt', '/srv', '/mnt', '/media', '/run', '/Volumes', '/dev/shm', ...TREE_OPENINGS];
const under = (p: string, t: string): boolean => p === t || p.startsWith(t + '/');

/** What `real` (a real path) is when it is a system folder ("a system folder (/etc)", "your home folder"), else undefined. */
export function systemFolder(real: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (process.platform === 'win32') return undefined;
  if (env.HOME && env.HOME !== '/' && real === resolveReal(env.HOME)) return 'your home folder';
  if (SYSTEM_FOLDERS.includes(real)) return `a system folder (${real})`;
  const tree = SYSTEM_TREES.find((t) => under(real, t));
  if (tree && !TREE_OPENINGS.some((o) => under(real, o))) return `a system folder (under ${tree})`;
  return undefined;
}

function resolveReal(p: string): string {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
}

export function usableCwd(cwd: unknown): string | undefined {
  if (typeof cwd !== 'string' || cwd.length === 0 || cwd.length >= 4096 || !isAbsolute(cwd) || cwd.includes('\0')) return undefined;
  const dir = resolve(cwd);
  // The payload is the agent's: a cwd that is no usable folder (missing, a file, a kernel tree, a system folder) is passed
  // over, never created. Any other existing folder is the agent's working folder: an empty new project has no marker yet.
  if (projectFolderProblem(dir)) return undefined;
  return dir;
}

export function resolveProjectDir(flag: string | undefined, payload: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): string {
  // The flag first: reading process.env costs a native call per variable, and the server passes the flag on every request.
  if (flag) return isAbsolute(flag) ? resolve(flag) : resolve(currentFolder(), flag);
  for (const c of [env.CLAUDE_PROJECT_DIR, env.GEMINI_PROJECT_DIR, env.CURSOR_PROJECT_DIR, env.QWEN_PROJECT_DIR, env.FACTORY_PROJECT_DIR, env.CRUSH_PROJECT_DIR]) if (c) return isAbsolute(c) ? resolve(c) : resolve(currentFolder(), c);
  return enclosingProject(usableCwd(payload.cwd) ?? currentFolder(), env);
}

/** Folders a walk up never takes as the project, nor goes past: the filesystem root, /tmp, the home folder. */
const WALK_STOPS = ['/', '/tmp', '/private/tmp', '/home', '/Users'];
const MAX_WALK = 64;

/**
 * The nearest folder from `dir` up that holds `.loom/`; without one, the nearest that holds a `.git` (the repository's
 * top); else `dir` itself. A `.loom/` wins over a nearer `.git`: a submodule or a nested repository inside a project
 * that has loom is governed by that project's policy and recorded in its ledger, not in one of its own.
 */
export function enclosingProject(dir: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME && env.HOME !== '/' ? resolve(env.HOME) : undefined;
  let d = dir;
  let repository: string | undefined;
  for (let i = 0; i < MAX_WALK; i++) {
    if (WALK_STOPS.includes(d) || d === home) break;
    if (existsSync(join(d, '.loom'))) return d;
    if (repository === undefined && existsSync(join(d, '.git'))) repository = d;
    const up = dirname(d);
    if (up === d) break;
    d = up;
  }
  return repository ?? dir;
}
