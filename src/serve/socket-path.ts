// Where a project's daemon socket lives, and the checks before listening on
// it. The hook wrappers compute the same path in POSIX sh without starting a
// process (src/registry/fast-client.ts), so the name is a 32-bit FNV-1a of
// the project folder's printable-ASCII text: a folder name with any other
// character has no default socket (the wrappers go straight to Node; set
// LOOM_SOCKET to use a daemon there). A collision is harmless: the daemon
// answers only for its own project and the wrapper falls back.
import { chmodSync, lstatSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { mkdirBounded } from '../util/bounded-mkdir';

/** The characters the sh side can index (space to tilde, in ASCII order). */
export const SOCKET_KEY_CHARS = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).join('');

/** FNV-1a (32 bit) of the folder text, or undefined when it has a character outside SOCKET_KEY_CHARS. */
export function socketKey(projectDir: string): string | undefined {
  let h = 2166136261;
  for (let i = 0; i < projectDir.length; i++) {
    const c = projectDir.charCodeAt(i);
    if (c < 32 || c > 126) return undefined;
    h = Math.imul(h ^ c, 16777619) >>> 0;
  }
  return `p${h}`;
}

function userName(): string | undefined {
  try {
    return userInfo().username || undefined;
  } catch {
    return undefined;
  }
}

/** The per-user folder of sockets: $XDG_RUNTIME_DIR/loom, else /tmp/loom-<user> (0700, the user's own). */
export function runtimeFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.XDG_RUNTIME_DIR) return join(env.XDG_RUNTIME_DIR, 'loom');
  const user = userName();
  return user && /^[A-Za-z0-9._-]+$/.test(user) ? `/tmp/loom-${user}` : undefined;
}

/** The project's default socket, or undefined (no usable runtime folder, or a folder name the wrappers cannot key). */
export function defaultSocketPath(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.LOOM_SOCKET) return env.LOOM_SOCKET;
  const folder = runtimeFolder(env);
  const key = socketKey(projectDir);
  return folder && key ? join(folder, `${key}.sock`) : undefined;
}

export class SocketPathError extends Error {}

const uid = () => (typeof process.getuid === 'function' ? process.getuid() : -1);

/** Why `folder` may not hold the socket (not ours, or others may write in it), or undefined. */
export function folderProblem(folder: string): string | undefined {
  let st;
  try {
    st = lstatSync(folder);
  } catch (e) {
    return `${folder}: ${(e as NodeJS.ErrnoException).code ?? 'cannot be read'}`;
  }
  if (!st.isDirectory()) return `${folder} is not a folder`;
  if (st.uid !== uid()) return `${folder} belongs to uid ${st.uid}, not to this user (uid ${uid()})`;
  if (st.mode & 0o022) return `${folder} is writable by group or others (mode ${(st.mode & 0o777).toString(8)}); make it 0700`;
  return undefined;
}

/** Creates the default runtime folder (0700) when `socket` lies in it; then checks the folder. */
export function prepareFolder(socket: string, env: NodeJS.ProcessEnv = process.env): void {
  const folder = dirname(socket);
  if (folder === runtimeFolder(env)) {
    try {
      mkdirBounded(folder, 0o700);
    } catch (e) {
      throw new SocketPathError(`cannot create ${folder}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  const problem = folderProblem(folder);
  if (problem) throw new SocketPathError(`refusing the socket ${socket}: ${problem}`);
}

/** Whether something accepts connections on `socket` (within timeoutMs). */
export function socketAnswers(socket: string, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection(socket);
    const done = (ok: boolean) => {
      clearTimeout(t);
      c.destroy();
      resolve(ok);
    };
    const t = setTimeout(() => done(false), timeoutMs);
    c.once('connect', () => done(true));
    c.once('error', () => done(false));
  });
}

/**
 * Makes `socket` free to listen on: a leftover socket file nobody answers on
 * (a daemon killed with -9) is removed; a live one is another daemon (an
 * error); anything that is not a socket is never removed.
 */
export async function clearStaleSocket(socket: string): Promise<void> {
  let st;
  try {
    st = lstatSync(socket);
  } catch {
    return;
  }
  if (!st.isSocket()) throw new SocketPathError(`${socket} exists and is not a socket; not removing it`);
  if (st.uid !== uid()) throw new SocketPathError(`${socket} belongs to uid ${st.uid}; not removing it`);
  if (await socketAnswers(socket)) throw new SocketPathError(`a daemon already answers on ${socket}`);
  try {
    unlinkSync(socket);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw new SocketPathError(`cannot remove the stale socket ${socket}: ${(e as NodeJS.ErrnoException).code}`);
  }
}

/** After listening: only the user may connect (the folder is 0700 as well). */
export function restrictSocket(socket: string): void {
  chmodSync(socket, 0o600);
  const st = statSync(socket);
  if ((st.mode & 0o077) !== 0) throw new SocketPathError(`${socket}: could not restrict the socket to mode 0600`);
}

/** The daemon's pid file, beside its socket. */
export const pidFileOf = (socket: string): string => socket.replace(/\.sock$/, '') + '.pid';
/** Its log (stderr of the detached server), beside the socket. */
export const logFileOf = (socket: string): string => socket.replace(/\.sock$/, '') + '.log';

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function readPid(file: string): number | undefined {
  try {
    const n = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(n) && n > 1 ? n : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Claims the socket for this process: the pid file is created exclusively,
 * so of two daemons started at once for one project only one goes on to
 * clear and bind the socket. A pid file whose process is gone is stale.
 */
export function claimPidFile(socket: string): void {
  const file = pidFileOf(socket);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw new SocketPathError(`cannot write ${file}: ${(e as NodeJS.ErrnoException).code}`);
    }
    const owner = readPid(file);
    if (owner !== undefined && owner !== process.pid && pidAlive(owner)) throw new SocketPathError(`a daemon (pid ${owner}) already owns ${socket}`);
    try {
      unlinkSync(file);
    } catch {
      // another starter removed it first; try once more
    }
  }
  throw new SocketPathError(`cannot claim ${file}: another daemon is starting`);
}

/** Removes the pid file if it is still this process's. */
export function releasePidFile(socket: string): void {
  const file = pidFileOf(socket);
  if (readPid(file) === process.pid) {
    try {
      unlinkSync(file);
    } catch {
      // gone already
    }
  }
}
