// Turns one invocation's outcomes into ledger drafts (redacted) and appends
// them to the journal (durable before the answer), then writes a checkpoint
// when one is due and starts a fold every LOOM_FOLD_EVERY records. No SQLite
// and no history.json rewrite on this path (docs/ledger.md).
import { contractFor, type EventContract } from '../contract/events';
import type { Aggregate, HookDef, HookOutcome, Risk } from '../contract/types';
import { maxRisk } from '../contract/types';
import { KeyError, loadChainKey } from '../ledger/chain';
import { crossesCheckpoint, DEFAULT_CHECKPOINT_EVERY, writeCheckpoint, writeHeadWitness } from '../ledger/checkpoints';
import { LedgerError } from '../ledger/errors';
import { appendJournal, foldEvery, journalHashesAt } from '../ledger/journal';
import { compliancePaths } from '../ledger/paths';
import { redact } from '../ledger/redact-gate';
import { ledgerIdentityOf } from '../ledger/ledger-identity';
import { projectFolderProblem } from './project-dir';
import { oneLineError } from '../util/one-line-error';
import type { RecordDraft } from '../contract/types';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Actor } from './actor';

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
  /** Who acted; stored as `actor` in every record's kind object. */
  actor?: Actor;
  /** The pack's root (dist/cli.js starts the background fold); without it no fold is started. */
  packRoot?: string;
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
      const data: Record<string, unknown> = { ...(a.kind === 'hook' ? a.data : { ...a.data, hook: hookData(o) }), ...(input.extra ?? {}) };
      if (input.actor) data.actor = input.actor;
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

export interface RecordOutcome {
  /** The records are not durable: blocking events block with this reason. */
  problem?: string;
  /** The records are durable; only upkeep after them failed (checkpoint, fold): the answer stands, with this warning. */
  warning?: string;
}

/** Starts `loom fold` detached, so folding never delays the answer. */
function foldInBackground(projectDir: string, packRoot: string): string | undefined {
  // The pack root is passed in: this code runs from bundles whose __dirname is the shim's (hooks/).
  const cli = join(packRoot, 'dist', 'cli.js');
  if (!existsSync(cli)) return `fold: ${cli} is missing`;
  try {
    const { spawn } = require('node:child_process') as typeof import('node:child_process');
    const child = spawn(process.execPath, [cli, 'fold', '--quiet', '--project-dir', projectDir], { detached: true, stdio: 'ignore', env: { ...process.env, NODE_OPTIONS: '' } });
    child.on('error', () => undefined);
    child.unref();
    return undefined;
  } catch (e) {
    return `fold: ${(e as Error).message}`;
  }
}

export function recordInvocation(input: InvocationRecordInput): RecordOutcome {
  const drafts = buildDrafts(input);
  if (drafts.length === 0) return {};
  // Checked before anything is created: the ledger makes only .loom/compliance inside an existing project.
  const folderProblem = projectFolderProblem(input.projectDir);
  if (folderProblem) return { problem: folderProblem };
  let key;
  let stored;
  const notes: { unkeyed?: string; witness?: string } = {};
  try {
    key = loadChainKey(input.projectDir);
    // With a key configured, a plain ledger is a downgrade: refused where the event can block (an unknown one included), a warning elsewhere.
    const contract = input.contract ?? contractFor(input.eventName);
    stored = appendJournal(input.projectDir, drafts, key, { unkeyed: !contract || contract.canBlock ? 'refuse' : 'warn', notes });
  } catch (e) {
    if (e instanceof LedgerError || e instanceof KeyError) return { problem: e.message };
    return { problem: oneLineError(e) };
  }
  // Durable from here on: nothing below can turn the decision into a failure.
  const problems: string[] = [];
  if (notes.unkeyed) problems.push(notes.unkeyed);
  if (notes.witness) problems.push(notes.witness);
  try {
    const first = stored[0];
    const last = stored[stored.length - 1];
    const every = checkpointEvery();
    const sessionEnd = (input.contract?.name ?? input.eventName) === 'SessionEnd';
    if (sessionEnd || crossesCheckpoint(first.seq - 1, last.seq, every)) {
      const head = { seq: last.seq, hash: last.hash, count: last.seq, ts: last.record.ts };
      const identity = ledgerIdentityOf(input.projectDir, first);
      problems.push(...writeCheckpoint(compliancePaths(input.projectDir).checkpoints, input.projectDir, head, sessionEnd ? 'session-end' : `every-${every}`, key, process.env, identity));
      if (sessionEnd) {
        const w = writeHeadWitness(input.projectDir, head, identity.ledger, 'session-end', (seqs) => journalHashesAt(input.projectDir, seqs));
        if (w) problems.push(w);
      }
    }
    if (input.packRoot && crossesCheckpoint(first.seq - 1, last.seq, foldEvery())) {
      const p = foldInBackground(input.projectDir, input.packRoot);
      if (p) problems.push(p);
    }
  } catch (e) {
    problems.push((e as Error).message);
  }
  return problems.length ? { warning: problems.join('; ') } : {};
}
