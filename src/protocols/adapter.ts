// The seam between the runner and a harness dialect: every adapter turns the
// harness payload into canonical fields and renders the aggregate back.
import type { EventContract } from '../contract/events';
import { canonicalEventName } from '../contract/events';
import { toolKind } from '../contract/tools';
import type { Aggregate, HarnessName, RenderedAnswer } from '../contract/types';
import { setOwn } from '../util/own';

export interface ProtocolAdapter {
  name: HarnessName;
  /** The event name this payload carries, in the harness's spelling. */
  eventOf(payload: Record<string, unknown>): string | undefined;
  /** Canonical fields (Claude Code's names) added over a copy of the payload. */
  normalize(payload: Record<string, unknown>, eventName: string): Record<string, unknown>;
  render(agg: Aggregate, contract: EventContract | undefined, eventName: string, payload?: Record<string, unknown>): RenderedAnswer;
}

export function joinReasons(agg: Aggregate, fallback: string): string {
  const r = agg.reasons.filter(Boolean).join('; ');
  return r || fallback;
}

/** What the aggregate means for one event, before any dialect. */
export interface Outcome {
  kind: 'block' | 'ask' | 'allow' | 'error';
  reason: string;
  context?: string;
  /** The aggregate carried an explicit allow (or a rewrite that needs one). */
  explicitAllow: boolean;
  warnings: string;
}

export function outcomeOf(agg: Aggregate, contract: EventContract | undefined): Outcome {
  const warnings = agg.warnings.map((w) => w + '\n').join('');
  const canBlock = contract?.canBlock ?? false;
  const context = contract?.context && agg.contexts.length ? agg.contexts.join('\n') : undefined;
  let decision = agg.decision;
  // Where the harness cannot ask, asking fails closed on blockable events.
  if (decision === 'ask' && !contract?.canAsk) decision = canBlock ? 'deny' : undefined;
  if (decision === 'deny' && canBlock) {
    const needsApproval = agg.decision === 'ask' && !agg.failed;
    return { kind: 'block', reason: (needsApproval ? 'needs approval (this harness cannot ask): ' : '') + joinReasons(agg, 'blocked by loom policy'), context, explicitAllow: false, warnings };
  }
  if (agg.failed) return { kind: 'error', reason: joinReasons(agg, 'a hook failed'), context, explicitAllow: false, warnings };
  if (decision === 'ask') return { kind: 'ask', reason: joinReasons(agg, 'loom policy asks for confirmation'), context, explicitAllow: false, warnings };
  return { kind: 'allow', reason: '', context, explicitAllow: decision === 'allow' || Boolean(agg.updatedInput), warnings };
}

export const json = (obj: unknown): string => JSON.stringify(obj) + '\n';

export function blockByExit2(o: Outcome): RenderedAnswer {
  return { exitCode: 2, stdout: '', stderr: o.warnings + `loom: ${o.reason}\n` };
}

export function errorExit1(o: Outcome): RenderedAnswer {
  return { exitCode: 1, stdout: '', stderr: o.warnings + `loom: ${o.reason}\n` };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/**
 * A shallow copy built key by key: V8 gives a `{ ...payload }` copy no room
 * for the fields added after it, and adding them was the costliest line of a
 * served decision's normalization.
 */
function copyOwn(payload: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(payload)) setOwn(out, k, payload[k]);
  return out;
}

/** Shared normalization: canonical event name, session, tool kind. Adapters add their own fields first. */
export function canonicalPayload(payload: Record<string, unknown>, eventName: string, harness: HarnessName, extra?: Record<string, unknown>): Record<string, unknown> {
  const out = copyOwn(payload);
  if (extra) for (const k of Object.keys(extra)) setOwn(out, k, extra[k]);
  out.hook_event_name = canonicalEventName(eventName);
  out.harness = harness;
  out.session_id = str(out.session_id) ?? str(payload.conversation_id) ?? str(payload.sessionID) ?? '';
  if (out.tool_input !== undefined && !obj(out.tool_input)) out.tool_input_raw = out.tool_input;
  if (out.tool_name !== undefined || out.tool_input !== undefined) out.tool_kind = toolKind(out.tool_name);
  return out;
}
