// Turns one invocation's outcomes into ledger drafts (redacted) and appends
// them in one transaction, then brings history.json up to date and writes a
// checkpoint when one is due. Returns a one-line problem, or undefined.
import type { EventContract } from '../contract/events';
import type { Aggregate, HookDef, HookOutcome, Risk } from '../contract/types';
import { maxRisk } from '../contract/types';
import { KeyError, loadChainKey } from '../ledger/chain';
import { crossesCheckpoint, DEFAULT_CHECKPOINT_EVERY, writeCheckpoint } from '../ledger/checkpoints';
import { syncHistory } from '../ledger/history-view';
import { ledgerIdentity } from '../ledger/ledger-identity';
import { redact } from '../ledger/redact';
import { Ledger, LedgerError, type RecordDraft } from '../ledger/store';
import { projectFolderProblem } from './project-dir';
import { oneLineError } from '../util/one-line-error';

export interface InvocationRecordInput {
  projectDir: string;
  payload: Record<string, unknown>;
  agg: Aggregate;
  harness: string;
  eventName: string;
  contract: EventContract | undefined;
  hooks: HookDef[];
  /** Merged into every record's kind object (e.g. the HTTP client's headers). */
  extra?: Record<string, unknown>;
}

export function sessionIdOf(payload: Record<string, unknown>): string {
  for (const k of ['session_id', 'sessionId', 'sessionID', 'conversation_id']) {
    const v = payload[k];
    if (typeof v === 'string' && v) return v.slice(0, 256);
  }
  return '';
}

/** The invocation's final decision as a reviewer reads it. */
export function finalDecision(agg: Aggregate, contract: EventContract | undefined): string {
  if (agg.decision === 'deny') return contract?.canBlock ? 'deny' : agg.failed ? 'error' : 'deny';
  if (agg.decision === 'ask') return contract?.canAsk ? 'ask' : contract?.canBlock ? 'deny' : 'allow';
  return 'allow';
}

function hookData(o: HookOutcome): Record<string, unknown> {
  const v = o.verdict;
  const d: Record<string, unknown> = { status: o.status, attempts: o.attempts, duration_ms: o.durationMs };
  if (o.failure) d.failure = { kind: o.failure.kind, message: o.failure.message, fallback: o.fallbackApplied };
  if (v?.message) d.message = v.message;
  if (v?.decision) d.decision = v.decision;
  if (v?.reason) d.reason = v.reason;
  if (v?.additionalContext) d.additional_context = v.additionalContext;
  if (v?.updatedInput) d.updated_input = v.updatedInput;
  return d;
}

export function buildDrafts(input: InvocationRecordInput): RecordDraft[] {
  const { agg, payload, harness, contract } = input;
  const session = sessionIdOf(payload);
  const decision = finalDecision(agg, contract);
  const event = contract?.name ?? input.eventName;
  const audited = new Set(input.hooks.filter((h) => h.policy.audit !== false).map((h) => h.id));
  const drafts: RecordDraft[] = [];
  for (const o of agg.outcomes) {
    if (!audited.has(o.hookId)) continue;
    const baseRisk: Risk = o.verdict?.risk ?? (o.status === 'failed' || o.status === 'blocked' ? 'medium' : 'none');
    const entries = o.verdict?.audit?.length ? o.verdict.audit : [{ kind: 'hook', data: hookData(o) }];
    for (const a of entries) {
      const data = { ...(a.kind === 'hook' ? a.data : { ...a.data, hook: hookData(o) }), ...(input.extra ?? {}) };
      const red = redact({ data, session });
      drafts.push({
        event,
        hook_id: o.hookId,
        harness,
        session_id: red.value.session,
        risk: maxRisk(baseRisk, (a as { risk?: Risk }).risk ?? 'none'),
        decision: (a as { decision?: string }).decision ?? decision,
        status: o.status,
        kind: a.kind,
        data: red.value.data,
        redactions: red.count,
      });
    }
  }
  return drafts;
}

export function checkpointEvery(env: NodeJS.ProcessEnv = process.env): number {
  return Number(env.LOOM_CHECKPOINT_EVERY) > 0 ? Number(env.LOOM_CHECKPOINT_EVERY) : DEFAULT_CHECKPOINT_EVERY;
}

export function recordInvocation(input: InvocationRecordInput): string | undefined {
  const drafts = buildDrafts(input);
  if (drafts.length === 0) return undefined;
  let ledger: Ledger | undefined;
  // Checked before anything is created: the ledger makes only .loom/compliance inside an existing project.
  const folderProblem = projectFolderProblem(input.projectDir);
  if (folderProblem) return folderProblem;
  try {
    const key = loadChainKey(input.projectDir);
    ledger = Ledger.openForAppend(input.projectDir, key);
    const stored = ledger.append(drafts);
    const last = stored[stored.length - 1];
    const every = checkpointEvery();
    const problems: string[] = [];
    const l = ledger;
    l.withWriteLock(() => {
      syncHistory(l);
      const sessionEnd = (input.contract?.name ?? input.eventName) === 'SessionEnd';
      if (sessionEnd || crossesCheckpoint(stored[0].seq - 1, last.seq, every)) {
        problems.push(...writeCheckpoint(l.paths.checkpoints, input.projectDir, l.head(), sessionEnd ? 'session-end' : `every-${every}`, key, process.env, ledgerIdentity(l.handle)));
      }
    });
    return problems.length ? problems.join('; ') : undefined;
  } catch (e) {
    if (e instanceof LedgerError || e instanceof KeyError) return e.message;
    return oneLineError(e);
  } finally {
    ledger?.close();
  }
}
