// Reads the whole payload from fd 0 synchronously (a stream costs more start
// time than the read itself) and stops at the size limit instead of
// buffering whatever a hostile caller sends.
import { readSync } from 'node:fs';
import { MAX_PAYLOAD_DEPTH, tooDeepAt } from './payload-depth';

export const MAX_PAYLOAD_BYTES = 16 * 1024 * 1024;

export class PayloadError extends Error {}

function sleepMs(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export function readStdinSync(fd = 0, limit = MAX_PAYLOAD_BYTES): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(1 << 16);
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, chunk, 0, chunk.length, null);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        sleepMs(2);
        continue;
      }
      if (code === 'EOF' || code === 'EBADF' || code === 'EINVAL' || code === 'ENXIO') break;
      throw e;
    }
    if (n === 0) break;
    total += n;
    if (total > limit) throw new PayloadError(`stdin payload is larger than ${limit} bytes (16 MiB); refused`);
    chunks.push(Buffer.from(chunk.subarray(0, n)));
  }
  return Buffer.concat(chunks, total);
}

/** Empty input is `{}`; anything but one JSON object is an error naming the problem. */
export function parsePayload(buf: Buffer): Record<string, unknown> {
  const text = buf.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new PayloadError(`stdin is not valid JSON: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    throw new PayloadError(`stdin must be one JSON object, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}`);
  }
  const deep = tooDeepAt(v);
  if (deep) throw new PayloadError(`stdin payload nests deeper than ${MAX_PAYLOAD_DEPTH} levels (at ${deep}); refused`);
  return v as Record<string, unknown>;
}
