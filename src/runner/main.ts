// The invocation, start to finish: args, registry, payload, hooks under
// isolation, aggregate, ledger, answer. One direction, no back and forth.
import { fstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { contractFor } from '../contract/events';
import type { HookDef, RenderedAnswer } from '../contract/types';
import { HARNESS_NAMES, selectAdapter } from '../protocols';
import { loadRegistryCached, RegistryError } from '../registry/load';
import { emptyAggregate } from './aggregate';
import { parseRunnerArgs, RUNNER_USAGE, UsageError, type RunnerArgs } from './args';
import { exitNow, writeStderr, writeStdout } from './isolation';
import { parsePayload, PayloadError, readStdinSync } from './stdin';
import { recordInvocation } from './record';
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
  const sel = selectHooks(defs, { hookId: args.hookId, event: args.event }, adapter.eventOf(payload));
  if ('error' in sel) return fail([`loom: ${sel.error}`], 1);
  const { hooks, eventName } = sel;
  if (payloadError) {
    const agg = emptyAggregate(eventName);
    agg.failed = true;
    agg.decision = 'deny';
    agg.reasons.push(payloadError);
    return adapter.render(agg, contractFor(eventName), eventName, payload);
  }
  if (hooks.length === 0) return { stdout: '', stderr: '', exitCode: 0 };
  const r = await runHooks({ hooks, eventName, payload, adapter, projectDirFlag: args.projectDir, hooksDir: paths.hooksDir, registryDir: dirname(registryFile) });
  mark('handlers');
  const problem = recordInvocation({ projectDir: r.projectDir, payload: r.payload, agg: r.agg, harness: adapter.name, eventName, contract: r.contract, hooks });
  mark('ledger');
  // SessionEnd / Stop with a team store: ship from a detached child once the answer is out.
  if (wantsShipper(r.contract?.name ?? eventName, r.projectDir)) shipAfterAnswer = r.projectDir;
  applyLedgerProblem(r.agg, hooks, problem);
  return adapter.render(r.agg, r.contract, eventName, r.payload);
}

let shipAfterAnswer: string | undefined;

export function runAndExit(argv: string[], paths: RunnerPaths): void {
  runInvocation(argv, paths).then(
    (answer) => {
      mark('answer');
      if (trace.length) writeStderr(trace.map(([l, t]) => `loom trace: ${t.toFixed(1)} ms ${l}`).join('\n'));
      writeStdout(answer.stdout);
      // Reasons may quote a command or prompt: never print a secret.
      if (answer.stderr) writeStderr(redactText(answer.stderr));
      if (shipAfterAnswer) spawnShipper(shipAfterAnswer, join(paths.hooksDir, '..'));
      exitNow(answer.exitCode);
    },
    (err: Error) => {
      writeStderr(`loom: internal error: ${err && err.stack ? err.stack.split('\n').slice(0, 3).join(' | ') : String(err)}`);
      exitNow(1);
    },
  );
}
