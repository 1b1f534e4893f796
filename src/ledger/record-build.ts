// Builds a record: its hashed body (canonical JSON) and its hash. Shared by
// the journal (hook path) and the database; loads no SQLite.
import type { LedgerRecord, RecordDraft } from '../contract/types';
import { newId } from '../util/ids';
import { canonicalJson } from './canonical';
import { hashBody, type ChainKey } from './chain';

/** Field names of the record itself; a kind may not reuse them. */
export const RESERVED_KEYS = new Set(['id', 'seq', 'ts', 'event', 'hook_id', 'harness', 'session_id', 'risk', 'decision', 'status', 'kind', 'prev_hash', 'hash', 'redactions']);

export interface BuiltRecord {
  seq: number;
  body: string;
  hash: string;
  record: LedgerRecord;
}

/** The hashed view of a record: everything but the hash, the kind object under its kind's name. */
export function recordBody(r: Omit<LedgerRecord, 'hash'> & { redactions?: number }): Record<string, unknown> {
  if (RESERVED_KEYS.has(r.kind)) throw new TypeError(`record kind "${r.kind}" clashes with a record field`);
  return {
    id: r.id,
    seq: r.seq,
    ts: r.ts,
    event: r.event,
    hook_id: r.hook_id,
    harness: r.harness,
    session_id: r.session_id,
    risk: r.risk,
    decision: r.decision,
    status: r.status,
    kind: r.kind,
    [r.kind]: r.data,
    redactions: r.redactions ?? 0,
    prev_hash: r.prev_hash,
  };
}

export function buildRecord(d: RecordDraft, seq: number, prevHash: string, ts: string, key?: ChainKey, id: string = newId(), hasher?: (body: string) => string): BuiltRecord {
  const base = {
    id,
    seq,
    ts,
    event: d.event,
    hook_id: d.hook_id,
    harness: d.harness,
    session_id: d.session_id,
    risk: d.risk,
    decision: d.decision,
    status: d.status,
    kind: d.kind,
    data: d.data,
    redactions: d.redactions ?? 0,
    prev_hash: prevHash,
  };
  const body = canonicalJson(recordBody(base));
  const hash = hasher ? hasher(body) : hashBody(body, key);
  return { seq, body, hash, record: { ...base, hash } };
}
