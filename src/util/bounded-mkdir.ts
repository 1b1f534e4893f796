// A recursive mkdir that always ends. Node's `mkdirSync(p, {recursive: true})`
// spins forever on a path under /proc (mkdir there answers ENOENT for the
// parent it has just been told to create), so loom never calls it: this one
// walks up to the nearest existing folder (at most MAX_DEPTH levels), refuses
// the kernel trees (/proc, /sys, /dev except /dev/shm), then creates each
// missing folder once. Every failure is one line naming the folder.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

export const MAX_MKDIR_DEPTH = 64;

const KERNEL_TREES = ['/proc', '/sys', '/dev'];

/** True for a path under /proc, /sys or /dev (except /dev/shm), where no ordinary folder can be made. */
export function isKernelPath(p: string): boolean {
  if (process.platform === 'win32') return false;
  const r = resolve(p);
  return KERNEL_TREES.some((t) => r === t || r.startsWith(t + '/')) && !(r === '/dev/shm' || r.startsWith('/dev/shm/'));
}

export class MkdirError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

function describe(code: string | undefined): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'disk full';
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`;
  if (code === 'EROFS') return 'read-only file system (EROFS)';
  if (code === 'ENOTDIR') return 'not a folder';
  return code ?? 'error';
}

/** Creates `dir` and the folders leading to it, boundedly; throws MkdirError (one line) when it cannot. */
export function mkdirBounded(dir: string, mode?: number): void {
  const target = resolve(dir);
  if (isKernelPath(target)) throw new MkdirError(`cannot create ${target}: it is under ${target.split('/').slice(0, 2).join('/')} (a kernel file system); choose another folder`, 'EKERNELFS');
  const missing: string[] = [];
  let cur = target;
  for (let depth = 0; ; depth++) {
    if (depth > MAX_MKDIR_DEPTH) throw new MkdirError(`cannot create ${target}: more than ${MAX_MKDIR_DEPTH} missing folders`, 'EDEPTH');
    let isDir: boolean;
    try {
      isDir = statSync(cur).isDirectory();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        missing.push(cur);
        const up = dirname(cur);
        if (up === cur) throw new MkdirError(`cannot create ${target}: no existing folder above it`, 'ENOENT');
        cur = up;
        continue;
      }
      throw new MkdirError(`cannot create ${target}: ${cur} ${code === 'ENOTDIR' ? 'is not a folder' : `cannot be read (${describe(code)})`}`, code ?? 'EIO');
    }
    if (!isDir) throw new MkdirError(`cannot create ${target}: ${cur} is not a folder`, 'ENOTDIR');
    break;
  }
  for (let i = missing.length - 1; i >= 0; i--) {
    const d = missing[i];
    try {
      mkdirSync(d, mode === undefined ? undefined : { mode });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') {
        let ok = false;
        try {
          ok = statSync(d).isDirectory();
        } catch {
          ok = false;
        }
        if (ok) continue;
        throw new MkdirError(`cannot create ${target}: ${d} is not a folder`, 'ENOTDIR');
      }
      throw new MkdirError(`cannot create ${d}: ${describe(code)}`, code ?? 'EIO');
    }
  }
}
