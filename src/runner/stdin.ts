// Reads the whole payload from fd 0 synchronously (a stream costs more start
// time than the read itself) and stops at the size limit instead of
// buffering whatever a hostile caller sends.
import { fstatSync, readSync } from 'node:fs';
import { Socket } from 'node:net';
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

/** How long a hook waits for its payload: harnesses write it at once; a stalled pipe must still get an answer in time. */
export const STDIN_DEADLINE_MS = 5000;

/**
 * fd 0 read without blocking the event loop, when it is a pipe or a socket that could stall: the payload, or why it
 * did not arrive (the deadline passed, or the hook was told to stop by SIGTERM, SIGINT or SIGHUP first), so the hook
 * still answers with a block. A file or a terminal is read as before (undefined here).
 */
export function readStdinBounded(deadlineMs = STDIN_DEADLINE_MS, limit = MAX_PAYLOAD_BYTES): Promise<{ buf?: Buffer; late?: string }> | undefined {
  let st;
  try {
    st = fstatSync(0);
  } catch {
    return undefined;
  }
  if (!st.isFIFO() && !st.isSocket()) return undefined;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const signals: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];
    const finish = (r: { buf?: Buffer; late?: string }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      for (const sig of signals) process.removeListener(sig, onSignal);
      resolve(r);
    };
    const onSignal = (sig: NodeJS.Signals) => finish({ late: `stopped by ${sig} before the payload arrived` });
    for (const sig of signals) process.once(sig, onSignal);
    const timer = setTimeout(() => finish({ late: `the payload did not arrive on stdin within ${deadlineMs} ms` }), deadlineMs);
    // A libuv pipe handle, polled by the event loop: no thread sits in read(2), so the process can still exit when
    // the writer never closes (a read on the thread pool would hold the exit until it returned).
    let sock: Socket;
    try {
      sock = new Socket({ fd: 0, readable: true, writable: false });
    } catch (e) {
      return finish({ late: `stdin could not be read (${(e as Error).message})` });
    }
    sock.on('data', (d: Buffer) => {
      total += d.length;
      if (total > limit) {
        sock.destroy();
        return finish({ late: `stdin payload is larger than ${limit} bytes (16 MiB); refused` });
      }
      chunks.push(d);
    });
    sock.on('end', () => finish({ buf: Buffer.concat(chunks, total) }));
    sock.on('error', (e: NodeJS.ErrnoException) => finish({ late: `stdin could not be read (${e.code ?? e.message})` }));
  });
}
