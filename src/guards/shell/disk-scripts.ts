// Scripts already on disk that a command runs (`bash deploy.sh`, `source
// ./env.sh`, `./clean.sh`): the text that reaches the shell is the file's, so
// it is judged as the script it is, like a file written earlier on the line.
// Bounded: regular files only (a FIFO or device is never opened), at most
// MAX_BYTES, at most MAX_FILES per analysis, text only (a NUL byte: a binary).
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

const MAX_BYTES = 64 * 1024;
const MAX_FILES = 8;
let read = 0;
let owner: object | undefined;

/** The text of the script at `abs`, or undefined (missing, not a regular file, too large, binary, over the count for `analysis`). */
export function diskScript(abs: string, analysis: object): string | undefined {
  if (owner !== analysis) {
    owner = analysis;
    read = 0;
  }
  if (read >= MAX_FILES) return undefined;
  read++;
  let fd: number | undefined;
  try {
    // O_NONBLOCK: a FIFO planted under the script's name must not hang the hook.
    fd = openSync(abs, constants.O_RDONLY | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    const text = buf.subarray(0, n).toString('utf8');
    return text.includes('\u0000') ? undefined : text;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** A script file a shell runs when executed directly: a shell's `#!` line, or no `#!` line at all (the shell runs it). */
export function isShellScript(text: string): boolean {
  if (!text.startsWith('#!')) return true;
  const first = text.slice(0, text.indexOf('\n') < 0 ? text.length : text.indexOf('\n'));
  return /^#!\s*(?:\/usr)?\/bin\/(?:env\s+(?:-S\s+)?)?(?:ba|da|z|k|mk|a)?sh\b/.test(first);
}

/** The language a script runs in, by its `#!` line: `sh` for a shell's or none, else the interpreter's name (`python3`, `node`). */
export function scriptLanguage(text: string): string {
  if (isShellScript(text)) return 'sh';
  const first = text.slice(2, text.indexOf('\n') < 0 ? Math.min(text.length, 200) : Math.min(text.indexOf('\n'), 200)).trim();
  const words = first.split(/\s+/);
  const prog = /(?:^|\/)env$/.test(words[0] ?? '') ? words.find((w, i) => i > 0 && !w.startsWith('-')) ?? '' : words[0] ?? '';
  return prog.slice(prog.lastIndexOf('/') + 1) || 'sh';
}
