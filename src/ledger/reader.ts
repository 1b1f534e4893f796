// Read-only access to the ledger for handlers that need what happened
// earlier in a session (subagent durations, open tasks, compaction
// handoffs). A missing or unreadable ledger reads as empty.
import { queryHistory, type HistoryFilter } from './query';
import { Ledger } from './store';

export type Rec = Record<string, unknown> & { seq: number; ts: string; event: string; session_id: string; decision: string; risk: string; kind: string };

export function readRecords(projectDir: string, filter: HistoryFilter & { where?: (r: Rec) => boolean } = {}): Rec[] {
  let ledger: Ledger;
  try {
    ledger = Ledger.openReadOnly(projectDir);
  } catch {
    return [];
  }
  try {
    const { where, ...f } = filter;
    const all = queryHistory(ledger, f) as Rec[];
    return where ? all.filter(where) : all;
  } catch {
    return [];
  } finally {
    ledger.close();
  }
}

/** The kind object of a record (record[record.kind]). */
export function detail(r: Rec): Record<string, unknown> {
  const d = typeof r.kind === 'string' && Object.prototype.hasOwnProperty.call(r, r.kind) ? r[r.kind] : undefined;
  return d && typeof d === 'object' ? (d as Record<string, unknown>) : {};
}
