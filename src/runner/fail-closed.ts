// The runner's last line: whatever went wrong (an exception anywhere, a stack
// overflow, a payload that cannot be copied), the harness gets a defined
// answer. On an event that can block that is the harness's block with a
// one-line reason (exit 1 lets the action run in Claude Code, Codex and
// Gemini CLI); elsewhere the documented exit 1. The failure is recorded when
// the ledger can take it, so nothing answered goes unrecorded.
import { contractFor } from '../contract/events';
import type { Aggregate, FailureKind, HookDef, RenderedAnswer } from '../contract/types';
import { selectAdapter } from '../protocols';
import type { ProtocolAdapter } from '../protocols/adapter';
import { emptyAggregate, foldOutcome } from './aggregate';
import { actorOf, type Actor } from './actor';
import { resolveProjectDir } from './project-dir';
import { recordInvocation } from './record';

/** What the invocation knew when it failed; every field may still be missing. */
export interface InvocationState {
  harness?: string;
  eventName?: string;
  adapter?: ProtocolAdapter;
  payload?: Record<string, unknown>;
  hooks?: HookDef[];
  projectDirFlag?: string;
  projectDir?: string;
}

export { oneLineError } from '../util/one-line-error';
import { oneLineError } from '../util/one-line-error';
import { CurrentFolderGone } from '../util/current-folder';

const canBlock = (eventName: string | undefined): boolean => (eventName ? contractFor(eventName)?.canBlock ?? false : false);

/** The aggregate of an invocation that failed as a whole: every hook of it failed with `reason`. */
export function failedAggregate(eventName: string, hooks: HookDef[], kind: FailureKind, reason: string): Aggregate {
  const agg = emptyAggregate(eventName);
  const ids = hooks.length ? hooks.map((h) => h.id) : ['loom-runner'];
  for (const hookId of ids) foldOutcome(agg, { hookId, status: 'failed', failure: { kind, message: reason }, attempts: 0, durationMs: 0 });
  // One reason, not one per hook: the harness shows it to a person.
  agg.reasons = [reason];
  return agg;
}

/** Records a failed invocation when it can; a ledger problem becomes a warning line (the answer is already a block or an error). */
export function recordFailure(state: InvocationState, agg: Aggregate, harness: string): string | undefined {
  const eventName = agg.event;
  let hooks = state.hooks?.filter((h) => h.policy.audit !== false) ?? [];
  if (!hooks.length) hooks = [{ id: 'loom-runner', events: [eventName], entry: '', timeoutMs: 0, blocking: true, fallback: 'error', retryCount: 0, idempotent: false, policy: {} }];
  try {
    const projectDir = state.projectDir ?? resolveProjectDir(state.projectDirFlag, state.payload ?? {});
    // The payload may be what failed: record only what the runner itself knows.
    // Who acted is known without the payload (user, host, git email and branch): the record says so, as every other does,
    // so a failure on one branch is not counted in another's evidence.
    let actor: Actor | undefined;
    try {
      actor = actorOf(projectDir, sessionOnly(state.payload));
    } catch {
      actor = undefined;
    }
    const out = recordInvocation({ projectDir, payload: sessionOnly(state.payload), agg, harness, eventName, contract: contractFor(eventName), hooks, actor });
    return out.problem ?? out.warning;
  } catch (e) {
    return oneLineError(e);
  }
}

function sessionOnly(p: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ['session_id', 'sessionId', 'sessionID', 'conversation_id']) if (p && typeof p[k] === 'string') out[k] = p[k];
  return out;
}

/** The answer to an invocation that threw: a block where the event can block, else exit 1; never a stack trace. */
export function answerInternalError(e: unknown, state: InvocationState): RenderedAnswer {
  // No folder to judge in is the agent's situation, not loom's bug: say it as it is.
  if (e instanceof CurrentFolderGone) return answerUnjudgeable(e.message, state, 'load');
  return answerUnjudgeable(`internal error: ${oneLineError(e)}`, state, 'internal');
}

/** An invocation loom could not judge (`reason`, one line): a block where the event can block or is unknown, else exit 1; recorded when it can be. */
export function answerUnjudgeable(reason: string, state: InvocationState, kind: FailureKind): RenderedAnswer {
  let eventName = state.eventName;
  if (!eventName && state.payload && typeof state.payload.hook_event_name === 'string') eventName = state.payload.hook_event_name;
  eventName ??= 'unknown';
  // An event loom cannot name is treated as one that can block: when unsure, fail closed.
  const blocking = canBlock(eventName) || !contractFor(eventName);
  try {
    const adapter = state.adapter ?? selectAdapter(state.harness, state.payload ?? {}, eventName);
    const agg = failedAggregate(eventName, state.hooks ?? [], kind, reason);
    const problem = recordFailure(state, agg, adapter.name);
    // The record failed for the same reason the answer gives: one line says it.
    if (problem && problem !== reason) agg.warnings.push(`loom: ledger: ${problem}`);
    const answer = adapter.render(agg, contractFor(eventName), eventName, state.payload);
    if (blocking && answer.exitCode === 1) return { ...answer, exitCode: 2 };
    return answer;
  } catch (e2) {
    return { exitCode: blocking ? 2 : 1, stdout: '', stderr: `loom: ${reason} (and rendering the answer failed: ${oneLineError(e2)})\n` };
  }
}
