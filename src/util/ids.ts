// Record ids in nanoid's format (21 characters of its URL-safe alphabet,
// 126 random bits). Randomness comes from /dev/urandom through fs, which is
// already loaded; node:crypto (about 5 ms to load) only where there is no
// /dev/urandom.
import { closeSync, openSync, readSync } from 'node:fs';

const ALPHABET = 'useandom-26T198340PX75pxJACKVERYMINDBUSHWOLF_GQZbfghjklqvwyzrict';
const POOL = 21 * 64;
let pool: Buffer | undefined;
let offset = POOL;

function refill(): void {
  pool ??= Buffer.allocUnsafe(POOL);
  try {
    const fd = openSync('/dev/urandom', 'r');
    try {
      let got = 0;
      while (got < POOL) got += readSync(fd, pool, got, POOL - got, null);
    } finally {
      closeSync(fd);
    }
  } catch {
    (require('node:crypto') as typeof import('node:crypto')).randomFillSync(pool);
  }
  offset = 0;
}

export function newId(size = 21): string {
  if (offset + size > POOL) refill();
  let id = '';
  for (let i = 0; i < size; i++) id += ALPHABET[pool![offset + i] & 63];
  offset += size;
  return id;
}
