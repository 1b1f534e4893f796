// The invocation, start to finish: args, registry, payload, hooks under
// isolation, aggregate, ledger, answer. One direction, no back and forth.
import { fstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { contractFor, isKnownEvent } from '../contract/events';
import type { Aggregate, HookDef, HookOutcome, RenderedAnswer } from '../contract/types';
import { HARNESS_NAMES, selectAdapter } from '../protocols';
import { hooksForEvent, loadRegistryCached, RegistryError } from '../registry/load';
import { emptyAggregate, foldOutcome } from './aggregate';
import { parseRunnerArgs, RUNNER_USAGE, UsageError, type RunnerArgs } from './args';
import { executeHook } from './execute';
import { exitNow, installIsolation, writeStderr, writeStdout } from './isolation';
import { platformSkipReason } from './platform';
import { resolveProjectDir } from './project-dir';
import { parsePayload, PayloadError, readStdinSync } from './stdin';
import { recordInvocation } from './record';
import { redactText } from '../ledger/redact';

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

export async function runInvocation(argv: string[], paths: RunnerPaths): Promise<RenderedAnswer> {
  mark('runner loaded');
  let args: RunnerArgs;
  try {
    args = parseRunnerArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) return fail([`loom: ${e.message}`, RUNNER_USAGE], 1);
    throw e;
  }
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
  let hooks: HookDef[];
  let eventName: string;
  let payload: Record<string, unknown> = {};
  let payloadError: string | undefined;
  try {
    payload = stdinIsTerminal() ? {} : parsePayload(readStdinSync());
  } catch (e) {
    if (!(e instanceof PayloadError)) throw e;
    payloadError = e.message;
  }
  mark('stdin');
  const adapter = selectAdapter(args.harness, payload, args.event);
  if (args.hookId) {
    const hook = defs.find((d) => d.id === args.hookId);
    if (!hook) return fail([`loom: unknown hook id "${args.hookId}"; known ids: ${defs.map((d) => d.id).join(', ') || '(none)'}`], 1);
    hooks = [hook];
    const sent = adapter.eventOf(payload);
    // The harness's own spelling wins when it names one of the hook's events (BeforeTool for PreToolUse).
    const canonSent = sent ? contractFor(sent)?.name ?? sent : undefined;
    eventName = sent && hook.events.some((e) => e === sent || (contractFor(e)?.name ?? e) === canonSent) ? sent : hook.events[0];
  } else {
    eventName = args.event!;
    hooks = hooksForEvent(defs, eventName, contractFor(eventName)?.name ?? eventName);
    if (hooks.length === 0 && !payloadError) return { stdout: '', stderr: '', exitCode: 0 };
  }
  const contract = contractFor(eventName);
  const agg: Aggregate = emptyAggregate(eventName);
  if (!isKnownEvent(eventName)) agg.warnings.push(`loom: unknown event "${eventName}" (accepted; no harness contract known for it)`);

  if (payloadError) {
    agg.failed = true;
    agg.decision = 'deny';
    agg.reasons.push(payloadError);
    return adapter.render(agg, contract, eventName, payload);
  }

  payload = adapter.normalize(payload, eventName);
  const projectDir = resolveProjectDir(args.projectDir, payload);
  payload.loom_project_dir = projectDir;
  installIsolation();
  for (const hook of hooks) {
    const skip = platformSkipReason(hook);
    let outcome: HookOutcome;
    if (skip) {
      agg.warnings.push(`loom: hook "${hook.id}" skipped: ${skip}`);
      outcome = { hookId: hook.id, status: 'skipped', attempts: 0, durationMs: 0 };
    } else {
      // Each handler gets its own copy: one cannot change what the next sees, except through updatedInput.
      const ctx = { event: contract?.name ?? eventName, payload: structuredClone(payload), hook: Object.freeze({ ...hook }) };
      outcome = await executeHook(hook, ctx, { hooksDir: paths.hooksDir, registryDir: dirname(registryFile), warn: () => undefined });
      const patch = outcome.verdict && !outcome.failure ? outcome.verdict.updatedInput : undefined;
      if (patch) payload = { ...payload, tool_input: { ...((payload.tool_input as object) ?? {}), ...patch } };
    }
    foldOutcome(agg, outcome);
  }
  if (agg.updatedInput) agg.updatedInput = payload.tool_input as Record<string, unknown>;
  mark('handlers');

  const ledgerProblem = recordInvocation({ projectDir, payload, agg, harness: adapter.name, eventName, contract, hooks });
  mark('ledger');
  if (ledgerProblem) {
    const strict = hooks.some((h) => h.fallback === 'error' || h.fallback === 'retry');
    if (strict) {
      agg.failed = true;
      agg.decision = 'deny';
      agg.reasons.push(`ledger: ${ledgerProblem}`);
    } else agg.warnings.push(`loom: ledger: ${ledgerProblem}`);
  }
  return adapter.render(agg, contract, eventName, payload);
}

export function runAndExit(argv: string[], paths: RunnerPaths): void {
  runInvocation(argv, paths).then(
    (answer) => {
      mark('answer');
      if (trace.length) writeStderr(trace.map(([l, t]) => `loom trace: ${t.toFixed(1)} ms ${l}`).join('\n'));
      writeStdout(answer.stdout);
      // Reasons may quote a command or prompt: never print a secret.
      if (answer.stderr) writeStderr(redactText(answer.stderr));
      exitNow(answer.exitCode);
    },
    (err: Error) => {
      writeStderr(`loom: internal error: ${err && err.stack ? err.stack.split('\n').slice(0, 3).join(' | ') : String(err)}`);
      exitNow(1);
    },
  );
}
