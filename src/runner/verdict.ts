// Turns whatever a handler returned into a Verdict, or a one-line reason why
// it is unusable. Only known fields are kept, with bounded sizes.
import { DECISIONS, RISKS, STATUSES, type AuditDraft, type Decision, type Risk, type Status, type Verdict } from '../contract/types';

const MAX_TEXT = 8 * 1024;
const MAX_AUDIT = 32;

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const text = (v: unknown): string | undefined => (typeof v === 'string' ? (v.length > MAX_TEXT ? v.slice(0, MAX_TEXT) + '…' : v) : undefined);

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `a string (${JSON.stringify(v.slice(0, 40))})`;
  return typeof v;
}

export function normalizeVerdict(value: unknown): Verdict | string {
  if (!isPlainObject(value)) return `returned ${describe(value)}, not a verdict object`;
  const status = typeof value.status === 'string' ? value.status.toLowerCase() : value.status;
  if (!STATUSES.includes(status as Status)) return `returned an unknown status ${JSON.stringify(value.status)}`;
  const v: Verdict = { status: status as Status };
  const message = text(value.message);
  if (message !== undefined) v.message = message;
  if (value.decision !== undefined) {
    if (!DECISIONS.includes(value.decision as Decision)) return `returned an unknown decision ${JSON.stringify(value.decision)}`;
    v.decision = value.decision as Decision;
  }
  const reason = text(value.reason);
  if (reason !== undefined) v.reason = reason;
  const userMessage = text(value.userMessage);
  if (userMessage !== undefined) v.userMessage = userMessage;
  const halt = text(value.halt);
  if (halt !== undefined) v.halt = halt;
  const ctx = text(value.additionalContext);
  if (ctx !== undefined) v.additionalContext = ctx;
  if (value.updatedInput !== undefined) {
    if (!isPlainObject(value.updatedInput)) return 'returned updatedInput that is not an object';
    v.updatedInput = value.updatedInput;
  }
  if (value.updatedPrompt !== undefined) {
    if (typeof value.updatedPrompt !== 'string') return 'returned updatedPrompt that is not a string';
    v.updatedPrompt = value.updatedPrompt;
  }
  if (value.updatedToolOutput !== undefined) v.updatedToolOutput = value.updatedToolOutput;
  if (value.risk !== undefined) {
    if (!RISKS.includes(value.risk as Risk)) return `returned an unknown risk ${JSON.stringify(value.risk)}`;
    v.risk = value.risk as Risk;
  }
  if (value.audit !== undefined) {
    if (!Array.isArray(value.audit)) return 'returned audit that is not an array';
    const drafts: AuditDraft[] = [];
    for (const a of value.audit.slice(0, MAX_AUDIT)) {
      if (!isPlainObject(a) || typeof a.kind !== 'string' || !/^[a-z][a-z0-9_]{0,39}$/.test(a.kind) || !isPlainObject(a.data)) {
        return 'returned an audit entry without a snake_case kind and a data object';
      }
      const d: AuditDraft = { kind: a.kind, data: a.data };
      if (a.risk !== undefined && RISKS.includes(a.risk as Risk)) d.risk = a.risk as Risk;
      if (typeof a.decision === 'string') d.decision = a.decision.slice(0, 40);
      drafts.push(d);
    }
    v.audit = drafts;
  }
  return v;
}
