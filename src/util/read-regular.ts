// Reads a configuration file that must be a regular file of bounded size.
// A FIFO there would block the read until a writer comes (the hook never
// answers), /dev/zero or a growing file would be read forever, and a size
// checked before the read says nothing about either: the file is opened
// without blocking, checked by its descriptor, and read to a bound.
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync } from 'node:fs';

export class NotRegularError extends Error {
  constructor(
    readonly file: string,
    readonly why: string,
  ) {
    super(`${file}: ${why}`);
  }
}

/** The file's text; undefined when nothing is there (not even a link). Throws NotRegularError, or the read's own error. */
export function readRegularFile(file: string, maxBytes: number): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') throw e;
    // A link to nothing is a file that cannot be read, not an absent one (a shared policy whose mount is gone).
    let link = false;
    try {
      link = lstatSync(file).isSymbolicLink();
    } catch {
      link = false;
    }
    if (link) throw new NotRegularError(file, 'a link to a file that does not exist');
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new NotRegularError(file, 'is a folder, not a file (EISDIR)');
    if (!st.isFile()) throw new NotRegularError(file, 'not a regular file (a FIFO, a socket or a device)');
    if (st.size > maxBytes) throw new NotRegularError(file, `larger than ${maxBytes >= 1 << 20 ? `${maxBytes / (1 << 20)} MiB` : `${maxBytes} bytes`}`);
    const buf = Buffer.alloc(Math.min(st.size, maxBytes) + 1);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    if (got > maxBytes) throw new NotRegularError(file, `larger than ${maxBytes} bytes`);
    return buf.toString('utf8', 0, got);
  } finally {
    closeSync(fd);
  }
}

/** Throws NotRegularError when `file` exists as a FIFO, a socket or a device: opening one to read blocks (a FIFO waits for a writer). */
export function refuseSpecialFile(file: string): void {
  const st = statSync(file, { throwIfNoEntry: false });
  if (st && !st.isFile() && !st.isDirectory()) throw new NotRegularError(file, 'not a regular file (a FIFO, a socket or a device)');
}
