// Why a file could not be read, in words a user acts on (the errno code stays in brackets for a search).
const WORDS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a folder in its path is a file',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'name too long',
  EMFILE: 'too many open files',
};

export function fileReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code !== 'string') return 'unreadable';
  return Object.hasOwn(WORDS, code) ? `${WORDS[code]} (${code})` : code;
}
