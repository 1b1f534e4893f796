// Keeps handlers from corrupting the protocol answer: while handlers run,
// anything written to stdout goes to stderr, process.exit throws instead of
// exiting, and stray errors are attributed to the running hook. The runner
// keeps the real stdout and exit for its own answer.
import fs = require('node:fs');

export class ExitAttempt extends Error {
  constructor(public readonly code: unknown) {
    super(`handler called process.exit(${code === undefined ? '' : String(code)})`);
  }
}

type Sink = (err: Error) => void;

let installed = false;
let currentSink: Sink | undefined;
const realExit = process.exit.bind(process);
const realWriteSync = fs.writeSync;

/** Whether all of `text` reached `fd`: a closed pipe, a closed descriptor or a full disk is false, never a throw. */
function writeAllSync(fd: number, text: string): boolean {
  const buf = Buffer.from(text, 'utf8');
  let off = 0;
  while (off < buf.length) {
    try {
      off += realWriteSync(fd, buf, off, buf.length - off);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
        continue;
      }
      return false;
    }
  }
  return true;
}

/** Install once, before the first handler is loaded. */
export function installIsolation(): void {
  if (installed) return;
  installed = true;
  // Redirect the stdout *getter*: the real stdout stream is never created
  // (that alone loads net and stream), and handlers that print reach stderr.
  Object.defineProperty(process, 'stdout', { configurable: true, enumerable: true, get: () => process.stderr });
  (fs as { writeSync: unknown }).writeSync = ((fd: number, ...rest: unknown[]) =>
    (realWriteSync as (...a: unknown[]) => number)(fd === 1 ? 2 : fd, ...rest)) as typeof fs.writeSync;
  process.exit = ((code?: unknown) => {
    throw new ExitAttempt(code);
  }) as typeof process.exit;
  process.on('uncaughtException', (err) => route(err));
  process.on('unhandledRejection', (reason) => route(reason instanceof Error ? reason : new Error(String(reason))));
}

function route(err: Error): void {
  if (currentSink) currentSink(err);
  else writeAllSync(2, `loom: stray error after its hook finished: ${err.message}\n`);
}

/** Errors thrown outside the handler's own call stack go to `sink` while it runs. */
export function setErrorSink(sink: Sink | undefined): void {
  currentSink = sink;
}

export function writeStdout(text: string): boolean {
  return text ? writeAllSync(1, text) : true;
}

export function writeStderr(text: string): boolean {
  return text ? writeAllSync(2, text.endsWith('\n') ? text : text + '\n') : true;
}

export function exitNow(code: number): never {
  process.exitCode = code;
  // The answer is out; now is the time to save compiled code for the next call.
  (globalThis as { __loomFlushCodeCaches?: () => void }).__loomFlushCodeCaches?.();
  return realExit(code);
}
