// Runs one hook's handler: load, call under a timeout that also cuts
// synchronous loops, normalize the return, retry, then apply the fallback.
import { createRequire } from 'node:module';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import vm from 'node:vm';
import type { FailureKind, HandlerContext, HookDef, HookOutcome, Verdict } from '../contract/types';
import { ExitAttempt, setErrorSink } from './isolation';
import { normalizeVerdict } from './verdict';
import { inlinedPackHandler } from './pack-handlers';

export const RETRY_DELAY_MS = 500;

type HandlerFn = (ctx: HandlerContext) => unknown;

class HandlerFailure extends Error {
  constructor(
    public readonly kind: FailureKind,
    message: string,
  ) {
    super(message);
  }
}

const loaded = new Map<string, HandlerFn>();

/** Entries are relative to hooks/; they must stay inside the pack or beside the registry. */
export function resolveEntry(entry: string, hooksDir: string, registryDir: string): string {
  if (isAbsolute(entry)) throw new HandlerFailure('load', `entry "${entry}" must be relative to hooks/`);
  const full = resolve(hooksDir, entry);
  const inside = (base: string) => {
    const rel = relative(base, full);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  };
  if (!inside(resolve(hooksDir, '..')) && !inside(registryDir)) {
    throw new HandlerFailure('load', `entry "${entry}" resolves outside the pack and the registry folder`);
  }
  return full;
}

/** A registry entry resolved once per process: its file, and whether it is one of the pack's own handlers. */
const entries = new Map<string, { full: string; pack: boolean }>();

function entryOf(entry: string, hooksDir: string, registryDir: string): { full: string; pack: boolean } {
  const key = `${entry}\u0000${hooksDir}\u0000${registryDir}`;
  let e = entries.get(key);
  if (!e) {
    const full = resolveEntry(entry, hooksDir, registryDir);
    e = { full, pack: full.startsWith(join(hooksDir, '..', 'handlers', sep)) };
    entries.set(key, e);
  }
  return e;
}

/** The inlined function of a pack shim (handlers/<name>.cjs, nothing deeper), when this bundle carries it. */
function inlinedFor(full: string, hooksDir: string): HandlerFn | undefined {
  const dir = join(hooksDir, '..', 'handlers', sep);
  if (!full.startsWith(dir) || !full.endsWith('.cjs')) return undefined;
  const name = full.slice(dir.length, -4);
  return name.includes(sep) ? undefined : inlinedPackHandler(name);
}

function loadHandler(hook: HookDef, hooksDir: string, registryDir: string): HandlerFn {
  const { full } = entryOf(hook.entry, hooksDir, registryDir);
  const cached = loaded.get(full);
  if (cached) return cached;
  const inlined = inlinedFor(full, hooksDir);
  if (inlined) {
    loaded.set(full, inlined);
    return inlined;
  }
  let mod: unknown;
  try {
    mod = createRequire(join(hooksDir, sep))(full);
  } catch (e) {
    throw new HandlerFailure('load', `cannot load ${hook.entry}: ${(e as Error).message.split('\n')[0]}`);
  }
  const m = mod as { run?: unknown; default?: unknown };
  const fn = typeof m.run === 'function' ? m.run : typeof m.default === 'function' ? m.default : mod;
  if (typeof fn !== 'function') throw new HandlerFailure('load', `${hook.entry} exports no function (run, default or module.exports)`);
  loaded.set(full, fn as HandlerFn);
  return fn as HandlerFn;
}

// One compiled script: calling through vm lets V8 interrupt a synchronous
// loop when the timeout passes, at no cost when it does not.
let invokeScript: vm.Script | undefined;
const slot = globalThis as unknown as { __loomInvoke?: () => unknown };

function callSync(fn: HandlerFn, ctx: HandlerContext, timeoutMs: number): unknown {
  if (timeoutMs <= 0) return fn(ctx);
  invokeScript ??= new vm.Script('globalThis.__loomInvoke()', { filename: 'loom-handler-call' });
  slot.__loomInvoke = () => fn(ctx);
  try {
    return invokeScript.runInThisContext({ timeout: timeoutMs, breakOnSigint: false });
  } finally {
    slot.__loomInvoke = undefined;
  }
}

function classify(err: unknown): HandlerFailure {
  if (err instanceof HandlerFailure) return err;
  if (err instanceof ExitAttempt) return new HandlerFailure('exit', err.message);
  const e = err as { code?: string; message?: string };
  if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return new HandlerFailure('timeout', 'timed out (synchronous code did not return)');
  const msg = e && typeof e.message === 'string' ? e.message : String(err);
  return new HandlerFailure('throw', `threw: ${msg.split('\n')[0]}`);
}

async function attempt(fn: HandlerFn, ctx: HandlerContext, timeoutMs: number, syncTimeout = true): Promise<Verdict> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  let rejectStray: ((e: Error) => void) | undefined;
  const stray = new Promise<never>((_, reject) => {
    rejectStray = reject;
  });
  setErrorSink((e) => rejectStray?.(e));
  try {
    const ret = syncTimeout ? callSync(fn, ctx, timeoutMs) : fn(ctx);
    let value: unknown = ret;
    if (ret && typeof (ret as { then?: unknown }).then === 'function') {
      const racers: Promise<unknown>[] = [Promise.resolve(ret), stray];
      if (timeoutMs > 0) {
        const left = Math.max(1, timeoutMs - (Date.now() - started));
        racers.push(
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new HandlerFailure('timeout', `timed out after ${timeoutMs} ms`)), left);
          }),
        );
      }
      value = await Promise.race(racers);
    }
    const v = normalizeVerdict(value);
    if (typeof v === 'string') throw new HandlerFailure('bad-return', v);
    return v;
  } catch (e) {
    throw classify(e);
  } finally {
    if (timer) clearTimeout(timer);
    setErrorSink(undefined);
    stray.catch(() => undefined);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function isPackHandler(entry: string, hooksDir: string, registryDir: string): boolean {
  return entryOf(entry, hooksDir, registryDir).pack;
}

export interface ExecuteOptions {
  hooksDir: string;
  registryDir: string;
  warn: (line: string) => void;
  /**
   * Call the pack's own handlers (handlers/*.cjs) without the vm watchdog:
   * `loom serve` sets it, since starting a watchdog thread per call costs more
   * than the guard itself. Their synchronous work is bounded (no unbounded
   * loops, linear patterns); every other handler keeps the full timeout.
   */
  trustPackHandlers?: boolean;
  /**
   * A watchdog for the pack's own handlers after all (ms): `loom serve` sets
   * it for large inputs, so one request cannot stall every other client.
   * Past it the input is "too large to analyse", a failure like a timeout.
   */
  syncBudgetMs?: number;
}

export async function executeHook(hook: HookDef, ctx: HandlerContext, opts: ExecuteOptions): Promise<HookOutcome> {
  const started = Date.now();
  const maxAttempts = hook.fallback === 'retry' ? 1 + hook.retryCount : 1;
  let attempts = 0;
  let failure: HandlerFailure | undefined;
  let fn: HandlerFn | undefined;
  while (attempts < maxAttempts) {
    if (attempts > 0) await sleep(RETRY_DELAY_MS);
    attempts++;
    try {
      fn ??= loadHandler(hook, opts.hooksDir, opts.registryDir);
      const packHandler = opts.trustPackHandlers === true && isPackHandler(hook.entry, opts.hooksDir, opts.registryDir);
      const budget = packHandler && opts.syncBudgetMs ? opts.syncBudgetMs : 0;
      let verdict: Verdict;
      try {
        verdict = budget ? await attempt(fn, ctx, hook.timeoutMs > 0 ? Math.min(hook.timeoutMs, budget) : budget, true) : await attempt(fn, ctx, hook.timeoutMs, !packHandler);
      } catch (e) {
        const f = classify(e);
        if (budget && f.kind === 'timeout') throw new HandlerFailure('timeout', `input too large to analyse within the ${budget} ms budget of loom serve`);
        throw f;
      }
      // blocked and failed are governance decisions: never retried, never softened by the fallback.
      return { hookId: hook.id, status: verdict.status, verdict, attempts, durationMs: Date.now() - started };
    } catch (e) {
      failure = classify(e);
    }
  }
  const durationMs = Date.now() - started;
  const f = failure!;
  const base = { hookId: hook.id, failure: { kind: f.kind, message: f.message }, fallbackApplied: hook.fallback, attempts, durationMs };
  switch (hook.fallback) {
    case 'skip':
      return { ...base, status: 'skipped' };
    case 'warn':
      opts.warn(`loom: hook "${hook.id}" ${f.message} (fallback warn: continuing)`);
      return { ...base, status: 'warned' };
    default:
      return { ...base, status: 'failed' };
  }
}
