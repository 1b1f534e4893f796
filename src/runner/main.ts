// The invocation, start to finish: args, registry, payload, hooks under
// isolation, aggregate, ledger, answer. One direction, no back and forth.
import { fstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { contractFor } from '../contract/events';
import type { HookDef, RenderedAnswer } from '../contract/types';
import { HARNESS_NAMES, selectAdapter } from '../protocols';
import { loadRegistryCached, RegistryError } from '../registry/load';
import { answerInternalError, failedAggregate, oneLineError, recordFailure, type InvocationState } from './fail-closed';
import { parseRunnerArgs, RUNNER_USAGE, UsageError, type RunnerArgs } from './args';
import { exitNow, writeStderr, writeStdout } from './isolation';
import { parsePayload, PayloadError, readStdinSync } from './stdin';
import { recordInvocation } from './record';
import { actorOf } from './actor';
import { applyLedgerProblem, runHooks, selectHooks } from './run-hooks';
import { redactText } from '../ledger/redact';
import { spawnShipper, wantsShipper } from '../team/spawn-shipper';

export interface RunnerPaths {
  /** The pack's hooks/ directory (handler entries are relative to it). */
  hooksDir: string;
}

// A terminal (or /dev/null) is a character device: reading a terminal would
// wait for typing, /dev/null is empty either way. Avoids loading node:tty.
function stdinIsTerminal(): boolean {
  try {
    return fstatSync(0).isCharacterDevice();
  } catch {
    return true;
  }
}

function fail(lines: string[], code: number): RenderedAnswer {
  return { stdout: '', stderr: lines.map((l) => l + '\n').join(''), exitCode: code };
}

// LOOM_TRACE=1 prints where an invocation's time went (ms since process start).
const trace: [string, number][] = [];
const mark = (label: string) => {
  if (process.env.LOOM_TRACE) trace.push([label, performance.now()]);
};

/** `stdin` replaces fd 0 (the in-process fuzz harness); the command runner leaves it out. */
export async function runInvocation(argv: string[], paths: RunnerPaths, stdin?: Buffer): Promise<RenderedAnswer> {
  const state: InvocationState = {};
  try {
    return await invocation(argv, paths, state, stdin);
  } catch (e) {
    return answerInternalError(e, state);
  }
}

async function invocation(argv: string[], paths: RunnerPaths, state: InvocationState, stdin: Buffer | undefined): Promise<RenderedAnswer> {
  mark('runner loaded');
  let args: RunnerArgs;
  try {
    args = parseRunnerArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) return fail([`loom: ${e.message}`, RUNNER_USAGE], 1);
    throw e;
  }
  state.harness = args.harness;
  state.eventName = args.event;
  state.projectDirFlag = args.projectDir;
  if (args.harness && !HARNESS_NAMES.includes(args.harness)) {
    return fail([`loom: unknown harness "${args.harness}" (known: ${HARNESS_NAMES.join(', ')})`], 1);
  }
  const registryFile = resolve(args.config ?? join(paths.hooksDir, '..', 'config', 'hooks.json'));
  let defs: HookDef[];
  try {
    defs = loadRegistryCached(registryFile, join(paths.hooksDir, '..', 'dist', '.cache'));
  } catch (e) {
    if (e instanceof RegistryError) return fail(e.problems.map((p) => `loom: invalid registry ${e.file}: ${p}`), 1);
    throw e;
  }

  mark('registry');
  let payload: Record<string, unknown> = {};
  let payloadError: string | undefined;
  try {
    payload = stdin ? parsePayload(stdin) : stdinIsTerminal() ? {} : parsePayload(readStdinSync());
  } catch (e) {
    if (!(e instanceof PayloadError)) throw e;
    payloadError = e.message;
  }
  state.payload = payload;
  mark('stdin');
  const adapter = selectAdapter(args.harness, payload, args.event);
  state.adapter = adapter;
  const sel = selectHooks(defs, { hookId: args.hookId, event: args.event }, adapter.eventOf(payload));
  if ('error' in sel) return fail([`loom: ${sel.error}`], 1);
  const { hooks, eventName } = sel;
  state.eventName = eventName;
  state.hooks = hooks;
  if (payloadError) {
    // Refused input is still an answered call: it is recorded (without the payload) like any other.
    const agg = failedAggregate(eventName, hooks, 'payload', payloadError);
    const problem = recordFailure(state, agg, adapter.name);
    if (problem) agg.warnings.push(`loom: ledger: ${problem}`);
    return adapter.render(agg, contractFor(eventName), eventName, payload);
  }
  if (hooks.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  // The pack's own handlers run without the per-call watchdog thread (as in `loom serve`): the
  // guard's work is bounded by its input limits and work budget (a block past it); a handler
  // from elsewhere keeps its timeout, synchronous loops included.
  const r = await runHooks({ hooks, eventName, payload, adapter, projectDirFlag: args.projectDir, hooksDir: paths.hooksDir, registryDir: dirname(registryFile), trustPackHandlers: true });
  state.payload = r.payload;
  state.projectDir = r.projectDir;
  mark('handlers');
  const recorded = recordInvocation({ projectDir: r.projectDir, payload: r.payload, agg: r.agg, harness: adapter.name, eventName, contract: r.contract, hooks, actor: actorOf(r.projectDir, r.payload), packRoot: join(paths.hooksDir, '..') });
  mark('ledger');
  // SessionEnd / Stop with a team store: ship from a detached child once the answer is out.
  if (wantsShipper(r.contract?.name ?? eventName, r.projectDir)) shipAfterAnswer = r.projectDir;
  applyLedgerProblem(r.agg, hooks, recorded.problem, r.contract);
  if (recorded.warning) r.agg.warnings.push(`loom: ledger: ${recorded.warning}`);
  return adapter.render(r.agg, r.contract, eventName, r.payload);
}

let shipAfterAnswer: string | undefined;

export function runAndExit(argv: string[], paths: RunnerPaths): void {
  runInvocation(argv, paths)
    .then((answer) => {
      mark('answer');
      if (trace.length) writeStderr(trace.map(([l, t]) => `loom trace: ${t.toFixed(1)} ms ${l}`).join('\n'));
      // Reasons may quote a command or prompt: never print a secret.
      const stderr = answer.stderr ? redactText(answer.stderr) : '';
      writeStdout(answer.stdout);
      if (stderr) writeStderr(stderr);
      if (shipAfterAnswer) spawnShipper(shipAfterAnswer, join(paths.hooksDir, '..'));
      exitNow(answer.exitCode);
    })
    .catch((err: unknown) => {
      // runInvocation answers its own failures; this is a failure to write that answer: never an allow.
      writeStderr(`loom: internal error: ${oneLineError(err)}`);
      exitNow(2);
    });
}
