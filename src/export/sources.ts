// Where exported records come from: a local ledger (SQLite rows plus journal
// lines not folded yet) or the team store (every ledger, keyset-paged by
// ledger id and seq). Both yield batches in (ledger, seq) order with the body
// and hash as stored.
import type { PgClient } from '../team/pg';
import { ensureLedgerId, LocalSource } from '../team/source';
import type { ExportRecord } from './formats';

export interface ExportFilter {
  since?: string;
  until?: string;
  repo?: string;
  user?: string;
  ledger?: string;
}

function tsOf(body: string): string | undefined {
  // Cheap: canonical JSON has "ts":"..." once at top level; parse only if the fast path fails.
  const m = /"ts":"([^"\\]{10,40})"/.exec(body);
  if (m) return m[1];
  try {
    const v = JSON.parse(body) as { ts?: unknown };
    return typeof v.ts === 'string' ? v.ts : undefined;
  } catch {
    return undefined;
  }
}

function inRange(body: string, f: ExportFilter): boolean {
  if (!f.since && !f.until) return true;
  const t = Date.parse(tsOf(body) ?? '');
  if (Number.isNaN(t)) return true; // a record without a readable time is never silently dropped
  if (f.since && t < Date.parse(f.since)) return false;
  if (f.until && t >= Date.parse(f.until)) return false;
  return true;
}

/** Batches of a local ledger's records after `afterSeq`, filtered by time. */
export function* localBatches(projectDir: string, f: ExportFilter, afterSeq = 0, batch = 2000): Generator<ExportRecord[]> {
  const info = ensureLedgerId(projectDir);
  if (!info) return;
  const src = new LocalSource(projectDir);
  try {
    let seq = afterSeq;
    for (;;) {
      const rows = src.readAfter(seq, batch);
      if (!rows.length) return;
      seq = rows[rows.length - 1].seq;
      const out = rows.filter((r) => inRange(r.body, f)).map((r) => ({ ledgerId: info.ledgerId, seq: r.seq, hash: r.hash, body: r.body }));
      if (out.length) yield out;
      if (rows.length < batch) return;
    }
  } finally {
    src.close();
  }
}

/** Batches of the team store's records, every ledger (or the filtered ones), in (ledger id, seq) order. */
export async function* storeBatches(client: PgClient, f: ExportFilter, batch = 5000): AsyncGenerator<ExportRecord[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, v: unknown) => {
    args.push(v);
    where.push(sql.replace('?', `$${args.length}`));
  };
  if (f.since) add('ts >= ?', f.since);
  if (f.until) add('ts < ?', f.until);
  if (f.repo) add('repo = ?', f.repo);
  if (f.user) add('actor_user = ?', f.user);
  if (f.ledger) add('ledger_id = ?', f.ledger);
  let lastLedger = '';
  let lastSeq = 0;
  for (;;) {
    const page = [...where, `(ledger_id, seq) > ($${args.length + 1}, $${args.length + 2})`];
    const r = await client.query<{ ledger_id: string; seq: string; hash: string; body: string }>(`SELECT ledger_id, seq, hash, body FROM loom.records WHERE ${page.join(' AND ')} ORDER BY ledger_id, seq LIMIT ${batch}`, [...args, lastLedger, lastSeq]);
    if (!r.rows.length) return;
    const last = r.rows[r.rows.length - 1];
    lastLedger = last.ledger_id;
    lastSeq = Number(last.seq);
    yield r.rows.map((x) => ({ ledgerId: x.ledger_id, seq: Number(x.seq), hash: x.hash, body: x.body }));
    if (r.rows.length < batch) return;
  }
}
