// An error as one line a person can act on: no stack, the error code said
// once (Node's fs messages already start with it: no "ENOENT: ENOENT:"),
// and a full disk said as such.
import { fileReason, isFileErrorCode } from './file-reason';

const DISK_FULL = new Set(['ENOSPC', 'SQLITE_FULL', 'EDQUOT']);

export function oneLineError(e: unknown): string {
  let msg: string;
  if (e instanceof RangeError && /call stack/i.test(e.message)) msg = 'stack overflow (input nested or repeated too deeply)';
  else if (e && typeof e === 'object' && typeof (e as { path?: unknown }).path === 'string' && isFileErrorCode((e as { code?: unknown }).code)) {
    // Node's fs message ("EISDIR: illegal operation on a directory, open '/x'") in words: the file, then what is wrong with it.
    const err = e as NodeJS.ErrnoException;
    const dest = (e as { dest?: unknown }).dest;
    msg = `${err.path}${typeof dest === 'string' ? ` -> ${dest}` : ''}: ${fileReason(e)}`;
  } else if (e && typeof e === 'object' && typeof (e as Error).message === 'string') {
    const err = e as Error & { code?: unknown };
    const code = typeof err.code === 'string' ? err.code : '';
    const name = err.name && err.name !== 'Error' && !/^(SqliteError|SystemError)$/.test(err.name) ? `${err.name}: ` : '';
    const coded = code && !err.message.startsWith(code) ? `${code}: ` : '';
    msg = `${DISK_FULL.has(code) ? 'disk full: ' : ''}${name}${coded}${err.message}`;
  } else msg = String(e);
  msg = msg.split('\n')[0].trim();
  return msg.length > 300 ? msg.slice(0, 300) + '…' : msg;
}
