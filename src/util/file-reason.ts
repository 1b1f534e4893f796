// Why a file could not be read or written, in words a user acts on (the errno code stays in brackets for a search).
const WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a folder in its path is a file',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
  EMFILE: 'too many open files',
  ENOSPC: 'disk full',
  EDQUOT: 'disk full (quota exceeded)',
  EFBIG: 'file too large',
  EROFS: 'read-only file system',
  EEXIST: 'already exists',
  ENOTEMPTY: 'folder not empty',
  EBUSY: 'busy',
};

export function fileReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return 'unreadable';
  return Object.hasOwn(WORDS, code) ? `${WORDS[code]} (${code})` : code;
}

/** True for a file-system error code this module has words for. */
export function isFileErrorCode(code: unknown): boolean {
  return typeof code === 'string' && Object.hasOwn(WORDS, code);
}

/** `<file>: <reason>` for an error reading or writing `file` (one line; Node's own message names the syscall, not the file, for reads of an open descriptor). */
export function fileError(file: string, e: unknown): string {
  return `${file}: ${fileReason(e)}`;
}
