// The types every layer shares: registry entries, the verdict a handler
// returns, the aggregated answer, and the ledger record. Nothing else in the
// code base defines its own shape for these.

export type Status = 'ok' | 'warned' | 'skipped' | 'blocked' | 'failed';
export const STATUSES: readonly Status[] = ['ok', 'warned', 'skipped', 'blocked', 'failed'];

export type Decision = 'allow' | 'ask' | 'deny';
export const DECISIONS: readonly Decision[] = ['allow', 'ask', 'deny'];

/**
 * What a record's `decision` says: a guard's decision, `error` (a hook failed on an event that cannot block), a
 * tool's outcome (`succeeded`, `failed`), or the ledger's own acts (`acknowledged`, `recovered`, `erased`).
 */
export const RECORD_DECISIONS: readonly string[] = [...DECISIONS, 'error', 'succeeded', 'failed', 'acknowledged', 'recovered', 'erased'];

export type Risk = 'none' | 'low' | 'medium' | 'high' | 'critical';
export const RISKS: readonly Risk[] = ['none', 'low', 'medium', 'high', 'critical'];

export type Fallback = 'skip' | 'warn' | 'error' | 'retry';
export type PlatformName = 'linux' | 'macos' | 'windows';

export type HarnessName = 'claude' | 'codex' | 'gemini' | 'cursor' | 'docker-agent' | 'enterprise' | 'opencode' | 'kilo' | 'copilot' | 'qwen' | 'droid' | 'crush';

/** One hook of the registry after flattening both registry formats. */
export interface HookDef {
  id: string;
  events: string[];
  entry: string;
  description?: string;
  platforms?: PlatformName[];
  timeoutMs: number;
  blocking: boolean;
  fallback: Fallback;
  retryCount: number;
  idempotent: boolean;
  policy: Record<string, unknown>;
}

/** What a handler asks the ledger to keep. `kind` names the kind-specific object. */
export interface AuditDraft {
  kind: string;
  data: Record<string, unknown>;
  risk?: Risk;
  decision?: string;
}

/**
 * A handler's verdict. `status` is required; everything else is optional and
 * means "no opinion" when absent.
 */
export interface Verdict {
  status: Status;
  message?: string;
  decision?: Decision;
  reason?: string;
  additionalContext?: string;
  /** Top-level patch merged over the tool input (later handlers see it). */
  updatedInput?: Record<string, unknown>;
  updatedPrompt?: string;
  updatedToolOutput?: unknown;
  /** A note for the user (Claude Code and Gemini CLI: systemMessage). */
  userMessage?: string;
  /** Stop the agent altogether, with this reason (continue: false + stopReason). */
  halt?: string;
  risk?: Risk;
  audit?: AuditDraft[];
}

export interface HandlerContext {
  event: string;
  payload: Record<string, unknown>;
  hook: HookDef;
}

export type FailureKind = 'throw' | 'timeout' | 'bad-return' | 'exit' | 'load' | 'payload' | 'internal';

/** What running one hook produced, after timeout, retry and fallback. */
export interface HookOutcome {
  hookId: string;
  /** Final status after fallback. `failed` here means the invocation fails. */
  status: Status;
  verdict?: Verdict;
  failure?: { kind: FailureKind; message: string };
  fallbackApplied?: Fallback;
  attempts: number;
  durationMs: number;
}

/** The combined answer of every hook of one invocation. */
export interface Aggregate {
  event: string;
  decision?: Decision;
  /** True when a hook failed (blocked/failed verdict or an `error` fallback). */
  failed: boolean;
  reasons: string[];
  contexts: string[];
  warnings: string[];
  updatedInput?: Record<string, unknown>;
  updatedPrompt?: string;
  updatedToolOutput?: unknown;
  userMessages: string[];
  halt?: string;
  risk: Risk;
  outcomes: HookOutcome[];
}

/** What the harness receives: bytes for stdout, bytes for stderr, an exit code. */
export interface RenderedAnswer {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** What a writer hands the ledger; it adds id, seq, ts, prev_hash and hash. */
export interface RecordDraft {
  event: string;
  hook_id: string;
  harness: string;
  session_id: string;
  risk: Risk;
  decision: string;
  status: string;
  kind: string;
  /** The kind-specific object; stored under the key named by `kind`. */
  data: Record<string, unknown>;
  redactions?: number;
}

/** A ledger record as stored and as shown in history.json: a draft plus what the ledger adds. */
export interface LedgerRecord extends Omit<RecordDraft, 'redactions'> {
  id: string;
  seq: number;
  ts: string;
  /** How many secrets were redacted out of this record before it was stored. */
  redactions: number;
  prev_hash: string;
  hash: string;
}

export function riskRank(r: Risk): number {
  return RISKS.indexOf(r);
}

export function maxRisk(a: Risk, b: Risk): Risk {
  return riskRank(a) >= riskRank(b) ? a : b;
}
