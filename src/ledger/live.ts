// The live view of the ledger: the database plus the journal lines not
// folded into it yet. `loom history` and the handlers that look back at a
// session read this, so a record is visible the moment its hook answered.
import { RISKS } from '../contract/types';
import { LedgerError } from './errors';
import { readJournal } from './journal';
import { queryHistory, recordFromRow, type HistoryFilter } from './query';
import { Ledger } from './store';

function matches(r: Record<string, unknown>, f: HistoryFilter): boolean {
  if (f.event !== undefined && r.event !== f.event) return false;
  if (f.session !== undefined && r.session_id !== f.session) return false;
  if (f.decision !== undefined && r.decision !== f.decision) return false;
  if (f.hook !== undefined && r.hook_id !== f.hook) return false;
  if (f.risk && RISKS.indexOf(r.risk as never) < RISKS.indexOf(f.risk)) return false;
  // The same actor test the database query makes: a journal line not yet folded is filtered like any record.
  if (f.user !== undefined || f.host !== undefined) {
    const a = ((r[r.kind as string] as Record<string, unknown> | undefined)?.actor ?? {}) as Record<string, unknown>;
    if (f.user !== undefined && a.user !== f.user && a.email !== f.user && a.client_user !== f.user) return false;
    if (f.host !== undefined && a.host !== f.host) return false;
  }
  const ts = String(r.ts);
  if (f.since && ts < f.since) return false;
  if (f.until && ts > f.until) return false;
  return true;
}

/** Records matching the filter, oldest first, from the database and the journal. Throws LedgerError('missing') when there is neither. */
export function queryLive(projectDir: string, f: HistoryFilter): Record<string, unknown>[] {
  // Journal first: a fold between the two reads moves lines into the database, never out of sight.
  const journal = readJournal(projectDir);
  let fromDb: Record<string, unknown>[] = [];
  let dbHead = 0;
  let ledger: Ledger | undefined;
  try {
    ledger = Ledger.openReadOnly(projectDir);
  } catch (e) {
    if (!(e instanceof LedgerError && e.code === 'missing' && journal.exists)) throw e;
  }
  if (ledger) {
    try {
      fromDb = queryHistory(ledger, f);
      dbHead = ledger.head().seq;
    } finally {
      ledger.close();
    }
  }
  const extra: Record<string, unknown>[] = [];
  for (const l of journal.lines) {
    if (l.seq <= dbHead) continue;
    let r: Record<string, unknown>;
    try {
      r = recordFromRow(l);
    } catch {
      continue; // verify reports it
    }
    if (matches(r, f)) extra.push(r);
  }
  const all = extra.length ? fromDb.concat(extra) : fromDb;
  return f.limit && all.length > f.limit ? all.slice(all.length - f.limit) : all;
}
