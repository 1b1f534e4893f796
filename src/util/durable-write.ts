import { closeSync, fsyncSync, openSync, writeFileSync } from 'node:fs';

/** Writes a whole file and fsyncs it before returning, so a rename that follows publishes complete bytes. */
export function writeDurably(file: string, text: string): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    writeFileSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
