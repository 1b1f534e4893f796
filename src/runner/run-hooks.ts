// One event's hooks, in config order, on an already parsed payload: the part
// the command runner and `loom serve` share. No I/O of its own beyond what
// handlers do; recording and answering belong to the callers.
import { contractFor, isKnownEvent, type EventContract } from '../contract/events';
import type { Aggregate, HookDef, HookOutcome } from '../contract/types';
import type { ProtocolAdapter } from '../protocols/adapter';
import { emptyAggregate, foldOutcome } from './aggregate';
import { executeHook, isPackHandler } from './execute';
import { installIsolation } from './isolation';
import { platformSkipReason } from './platform';
import { resolveProjectDir } from './project-dir';

export interface RunHooksInput {
  hooks: HookDef[];
  eventName: string;
  payload: Record<string, unknown>;
  adapter: ProtocolAdapter;
  projectDirFlag?: string;
  hooksDir: string;
  registryDir: string;
  trustPackHandlers?: boolean;
  /** See ExecuteOptions.syncBudgetMs. */
  syncBudgetMs?: number;
}

export interface RunHooksResult {
  agg: Aggregate;
  contract: EventContract | undefined;
  payload: Record<string, unknown>;
  projectDir: string;
}

const frozen = new WeakMap<HookDef, Readonly<HookDef>>();

/** What a handler sees of its hook: a frozen copy, made once per registry entry (a server runs the same hooks all day). */
function frozenCopy(hook: HookDef): Readonly<HookDef> {
  let f = frozen.get(hook);
  if (!f) {
    f = Object.freeze({ ...hook });
    frozen.set(hook, f);
  }
  return f;
}

export async function runHooks(input: RunHooksInput): Promise<RunHooksResult> {
  const { hooks, eventName, adapter } = input;
  const contract = contractFor(eventName);
  const agg = emptyAggregate(eventName);
  if (!isKnownEvent(eventName)) agg.warnings.push(`loom: unknown event "${eventName}" (accepted; no harness contract known for it)`);
  let payload = adapter.normalize(input.payload, eventName);
  const projectDir = resolveProjectDir(input.projectDirFlag, payload);
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
      // The pack's own handlers never write to the payload, so a server that trusts them skips the copy.
      const own = input.trustPackHandlers === true && isPackHandler(hook.entry, input.hooksDir, input.registryDir);
      const ctx = { event: contract?.name ?? eventName, payload: own ? payload : structuredClone(payload), hook: frozenCopy(hook) };
      outcome = await executeHook(hook, ctx, { hooksDir: input.hooksDir, registryDir: input.registryDir, warn: () => undefined, trustPackHandlers: input.trustPackHandlers, syncBudgetMs: input.syncBudgetMs });
      const patch = outcome.verdict && !outcome.failure ? outcome.verdict.updatedInput : undefined;
      if (patch) payload = { ...payload, tool_input: { ...((payload.tool_input as object) ?? {}), ...patch } };
    }
    foldOutcome(agg, outcome);
  }
  if (agg.updatedInput) agg.updatedInput = payload.tool_input as Record<string, unknown>;
  return { agg, contract, payload, projectDir };
}

/** A ledger that could not record: events that can block, and hooks that fail closed, block; the others warn. */
export function applyLedgerProblem(agg: Aggregate, hooks: HookDef[], problem: string | undefined, contract?: EventContract): void {
  if (!problem) return;
  if (contract?.canBlock || hooks.some((h) => h.fallback === 'error' || h.fallback === 'retry')) {
    agg.failed = true;
    agg.decision = 'deny';
    agg.reasons.push(`ledger: ${problem}`);
  } else agg.warnings.push(`loom: ledger: ${problem}`);
}

/** Hooks for a hook id (with the event the harness sent, when it is one of the hook's) or for an event. */
export function selectHooks(defs: HookDef[], sel: { hookId?: string; event?: string }, sentEvent: string | undefined): { hooks: HookDef[]; eventName: string } | { error: string } {
  if (sel.hookId) {
    const hook = defs.find((d) => d.id === sel.hookId);
    if (!hook) return { error: `unknown hook id "${sel.hookId}"; known ids: ${defs.map((d) => d.id).join(', ') || '(none)'}` };
    // The harness's own spelling wins when it names one of the hook's events (BeforeTool for PreToolUse).
    const canonSent = sentEvent ? contractFor(sentEvent)?.name ?? sentEvent : undefined;
    const eventName = sentEvent && hook.events.some((e) => e === sentEvent || (contractFor(e)?.name ?? e) === canonSent) ? sentEvent : hook.events[0];
    return { hooks: [hook], eventName };
  }
  const eventName = sel.event!;
  const canon = contractFor(eventName)?.name ?? eventName;
  return { hooks: defs.filter((d) => d.events.includes(eventName) || d.events.includes(canon)), eventName };
}
