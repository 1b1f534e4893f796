// Read-only access to the ledger for handlers that need what happened
// earlier in a session (subagent durations, open tasks, compaction
// handoffs). A missing or unreadable ledger reads as empty.
import { queryLive } from './live';
import type { HistoryFilter } from './query';
import { remoteProjects } from '../util/remote-projects';

export type Rec = Record<string, unknown> & { seq: number; ts: string; event: string; session_id: string; decision: string; risk: string; kind: string };

export function readRecords(projectDir: string, filter: HistoryFilter & { where?: (r: Rec) => boolean } = {}): Rec[] {
  // A team server has no local ledger of the developer's project (its records are in the team store).
  if (remoteProjects()) return [];
  try {
    const { where, ...f } = filter;
    const all = queryLive(projectDir, f) as Rec[];
    return where ? all.filter(where) : all;
  } catch {
    return [];
  }
}

/** The kind object of a record (record[record.kind]). */
export function detail(r: Rec): Record<string, unknown> {
  const d = typeof r.kind === 'string' && Object.prototype.hasOwnProperty.call(r, r.kind) ? r[r.kind] : undefined;
  return d && typeof d === 'object' ? (d as Record<string, unknown>) : {};
}
