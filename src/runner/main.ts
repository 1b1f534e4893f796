// The invocation, start to finish: args, registry, payload, hooks under
// isolation, aggregate, ledger, answer. One direction, no back and forth.
import { fstatSync, openSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { contractFor } from '../contract/events';
import type { HookDef, RenderedAnswer } from '../contract/types';
import { HARNESS_NAMES, selectAdapter } from '../protocols';
import { loadRegistryCached, RegistryError } from '../registry/load';
import { answerInternalError, answerUnjudgeable, failedAggregate, oneLineError, recordFailure, type InvocationState } from './fail-closed';
import { parseRunnerArgs, RUNNER_USAGE, UsageError, type RunnerArgs } from './args';
import { yieldsToManaged } from './managed-yield';
import { exitNow, writeStderr, writeStdout } from './isolation';
import { parsePayload, PayloadError, readStdinBounded, readStdinSync } from './stdin';
import { recordInvocation } from './record';
import { actorOf } from './actor';
import { applyLedgerProblem, runHooks, selectHooks } from './run-hooks';
import { redactText } from '../ledger/redact-gate';
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
    if (e instanceof UsageError) return configurationError(`${e.message} (${RUNNER_USAGE})`, lenientArgs(argv), state, stdin);
    throw e;
  }
  state.eventName = args.event;
  state.projectDirFlag = args.projectDir;
  if (args.harness && !HARNESS_NAMES.includes(args.harness)) {
    return configurationError(`unknown harness "${args.harness}" (known: ${HARNESS_NAMES.join(', ')})`, args, state, stdin);
  }
  state.harness = args.harness;
  const registryFile = resolve(args.config ?? join(paths.hooksDir, '..', 'config', 'hooks.json'));
  let defs: HookDef[];
  try {
    defs = loadRegistryCached(registryFile, join(paths.hooksDir, '..', 'dist', '.cache'));
  } catch (e) {
    if (e instanceof RegistryError) return configurationError(`invalid registry ${e.file}: ${e.problems.join('; ')}`, args, state, stdin);
    throw e;
  }

  mark('registry');
  const read = readPayload(stdin);
  const payload = read.payload;
  let payloadError = read.error;
  state.payload = payload;
  mark('stdin');
  const adapter = selectAdapter(args.harness, payload, args.event);
  state.adapter = adapter;
  const sel = selectHooks(defs, { hookId: args.hookId, event: args.event }, adapter.eventOf(payload));
  // An unknown hook id is a configuration error like any other: on an event that can block, a block (recorded).
  if ('error' in sel) return configurationError(sel.error, args, state, undefined, { payload, event: adapter.eventOf(payload) });
  const { hooks, eventName } = sel;
  // `--event X` that loom cannot name and no hook answers: a misspelt event (`pretooluse`), not a quiet one; an
  // event loom cannot name counts as one that can block.
  if (args.event && !args.hookId && hooks.length === 0 && !contractFor(args.event)) {
    return configurationError(`unknown event "${args.event}": no hook in the registry answers it and loom does not know it (events are case-sensitive, e.g. PreToolUse)`, args, state, undefined, { payload, event: args.event });
  }
  // Claude Code runs this same event through loom's managed settings too: that copy answers and records it.
  if (yieldsToManaged(args.harness, args.event)) return { stdout: '', stderr: '', exitCode: 0 };
  state.eventName = eventName;
  state.hooks = hooks;
  // A tool call with no payload cannot be judged: on PreToolUse that is a block, recorded like any refused input.
  if (!payloadError && read.empty && hooks.length && contractFor(eventName)?.name === 'PreToolUse') payloadError = 'empty payload: stdin held no tool call to judge';
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

interface PayloadRead {
  payload: Record<string, unknown>;
  error?: string;
  /** Nothing but white space (or a terminal) on stdin. */
  empty: boolean;
}

/** Why the payload read from a pipe did not arrive (set by runAndExit): answered as a payload that cannot be judged. */
let stdinLate: string | undefined;

function readPayload(stdin: Buffer | undefined): PayloadRead {
  if (stdinLate !== undefined) return { payload: {}, error: stdinLate, empty: false };
  try {
    const buf = stdin ?? (stdinIsTerminal() ? Buffer.alloc(0) : readStdinSync());
    const empty = buf.toString('utf8').replace(/^\uFEFF/, '').trim() === '';
    return { payload: empty ? {} : parsePayload(buf), empty };
  } catch (e) {
    if (!(e instanceof PayloadError)) throw e;
    return { payload: {}, error: e.message, empty: false };
  }
}

/** What the command line names, read without failing: for the answer to a command line that could not be parsed. */
function lenientArgs(argv: string[]): Partial<RunnerArgs> {
  const out: Partial<RunnerArgs> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--event' && argv[i + 1] && !argv[i + 1].startsWith('--')) out.event = argv[++i];
    else if (a.startsWith('--event=')) out.event = a.slice(8);
    else if (a === '--project-dir' && argv[i + 1] && !argv[i + 1].startsWith('--')) out.projectDir = argv[++i];
    else if (a.startsWith('--project-dir=')) out.projectDir = a.slice(14);
    else if (a === '--harness' && argv[i + 1] && !argv[i + 1].startsWith('--')) out.harness = argv[++i];
    else if (a.startsWith('--harness=')) out.harness = a.slice(10);
    else if (a === '--config') i++;
    else if (!a.startsWith('-') && !out.hookId) out.hookId = a;
  }
  out.projectDir ??= process.env.LOOM_PROJECT_DIR || undefined;
  return out;
}

/**
 * The runner could not use its configuration (arguments, harness, registry).
 * The harness still waits for an answer: on an event that can block (or an
 * event it cannot name, or no event at all from a guard's wrapper: a hook id
 * ending in -guard) that is the block with one line, recorded when the ledger
 * can take it; elsewhere the documented exit 1.
 */
/** `read`: the payload already read from stdin (and the event its harness names), when it was. */
function configurationError(reason: string, args: Partial<RunnerArgs>, state: InvocationState, stdin: Buffer | undefined, read?: { payload: Record<string, unknown>; event?: string }): RenderedAnswer {
  let payload: Record<string, unknown> = read?.payload ?? {};
  if (!read) {
    try {
      payload = readPayload(stdin).payload;
    } catch {
      // unreadable: the answer does not depend on it
    }
  }
  const named = args.event ?? read?.event ?? (typeof payload.hook_event_name === 'string' && payload.hook_event_name ? payload.hook_event_name : undefined);
  // No event named anywhere: it may be one that can block, so it is treated as one (finding A13: exit 1 ran the call).
  const blocking = named ? contractFor(named)?.canBlock ?? true : true;
  const line = `loom: configuration error: ${reason}`;
  if (!blocking) return fail([line], 1);
  state.payload = payload;
  state.projectDirFlag = args.projectDir;
  state.eventName = named ?? 'PreToolUse';
  state.hooks = undefined;
  state.adapter = undefined;
  // The harness the hook names (as installed hooks do: --harness copilot) answers in its own dialect when it is one
  // loom knows (Copilot's block is a JSON deny on exit 0); else the payload's shape decides.
  const namedHarness = args.harness ?? process.env.LOOM_HARNESS;
  state.harness = namedHarness && namedHarness !== 'auto' && HARNESS_NAMES.includes(namedHarness) ? namedHarness : undefined;
  return answerUnjudgeable(`configuration error: ${reason}`, state, 'load');
}

/**
 * Whether fd 1 reaches nobody: closed when the hook started (`>&-`; Node opens /dev/null there, and so does this
 * when it has not, so no file the hook opens later gets fd 1), or /dev/null itself.
 */
function stdoutWasClosed(): boolean {
  try {
    // Node itself puts /dev/null where a closed stdio descriptor was: an answer written there reaches nobody.
    const st = fstatSync(1);
    return st.isCharacterDevice() && st.rdev === statSync('/dev/null').rdev;
  } catch {
    try {
      openSync('/dev/null', 'w');
    } catch {
      // nothing to hold the number with: the answer's write fails instead
    }
    return true;
  }
}

export function runAndExit(argv: string[], paths: RunnerPaths): void {
  const closedOut = stdoutWasClosed();
  // A pipe is read with a deadline and an ear for SIGTERM: a stalled or cancelled hook still answers with a block.
  const bounded = readStdinBounded(Number(process.env.LOOM_STDIN_TIMEOUT_MS) > 0 ? Math.min(Number(process.env.LOOM_STDIN_TIMEOUT_MS), 25_000) : undefined);
  if (!bounded) return answerAndExit(runInvocation(argv, paths), paths, closedOut);
  // The invocation starts from the event loop, with the whole stack, as it does from the script's top level
  // (from inside a promise job a stack overflow deep in a payload's copy would also overflow V8's rejection hook).
  void bounded.then((r) => {
    stdinLate = r.late;
    setImmediate(() => answerAndExit(runInvocation(argv, paths, r.buf ?? Buffer.alloc(0)), paths, closedOut));
  });
}

function answerAndExit(answered: Promise<RenderedAnswer>, paths: RunnerPaths, closedOut: boolean): void {
  answered
    .then((answer) => {
      mark('answer');
      if (trace.length) writeStderr(trace.map(([l, t]) => `loom trace: ${t.toFixed(1)} ms ${l}`).join('\n'));
      // Reasons may quote a command or prompt: never print a secret.
      const stderr = answer.stderr ? redactText(answer.stderr) : '';
      const out = !(closedOut && answer.stdout) && writeStdout(answer.stdout);
      if (stderr) writeStderr(stderr);
      // Said once on stderr, or a block that reaches nobody's stdout is a silent exit 2 nobody can debug (finding A25).
      else if (!out && answer.exitCode === 0) writeStderr(`loom: the answer could not be written to stdout (${closedOut ? 'closed or /dev/null' : 'write failed'}); blocked, as a hook whose answer is lost must be`);
      if (shipAfterAnswer) spawnShipper(shipAfterAnswer, join(paths.hooksDir, '..'));
      // An answer on stdout that did not get out (Copilot's and Crush's JSON deny, a closed pipe): exit 2, which
      // every harness that reads exit codes takes as a block, rather than 0 with nothing said.
      exitNow(!out && answer.exitCode === 0 ? 2 : answer.exitCode);
    })
    .catch((err: unknown) => {
      // runInvocation answers its own failures; this is a failure to write that answer: never an allow.
      writeStderr(`loom: internal error: ${oneLineError(err)}`);
      exitNow(2);
    });
}
