// How an intruder edits a local ledger behind the writer's back: a chain
// rewritten from one record on, records deleted. Shared by the team tests and
// `npm run bench -- team`, which loads it under tsx as CommonJS: so no import
// that reaches execa (ESM-only) here.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { bulkHasher } from '../src/ledger/chain';
import { buildRecord } from '../src/ledger/store';

/** Rewrites the local chain from `fromSeq` on (edits a record and rehashes everything after it), as a forger would. */
export function rewriteChain(dir: string, fromSeq: number): void {
  const db = new Database(join(dir, '.loom', 'compliance', 'ledger.db'));
  try {
    db.exec('DROP TRIGGER records_no_update');
    const rows = db.prepare('SELECT seq, body FROM records WHERE seq >= ? ORDER BY seq').all(fromSeq) as { seq: number; body: string }[];
    let prev = (db.prepare('SELECT hash FROM records WHERE seq = ?').get(fromSeq - 1) as { hash: string } | undefined)?.hash ?? '0'.repeat(64);
    const upd = db.prepare('UPDATE records SET body = ?, hash = ? WHERE seq = ?');
    const hasher = bulkHasher();
    for (const r of rows) {
      const b = JSON.parse(r.body);
      const data = b[b.kind];
      if (r.seq === fromSeq) data.input_summary = 'nothing to see here';
      const built = buildRecord({ event: b.event, hook_id: b.hook_id, harness: b.harness, session_id: b.session_id, risk: b.risk, decision: b.decision, status: b.status, kind: b.kind, data, redactions: b.redactions }, r.seq, prev, b.ts, undefined, b.id, hasher);
      upd.run(built.body, built.hash, r.seq);
      prev = built.hash;
    }
  } finally {
    db.close();
  }
}

/** Deletes local records (the append-only trigger dropped first, as an intruder would). */
export function deleteLocal(dir: string, seqs: number[]): void {
  const db = new Database(join(dir, '.loom', 'compliance', 'ledger.db'));
  try {
    db.exec('DROP TRIGGER records_no_delete');
    const del = db.prepare('DELETE FROM records WHERE seq = ?');
    for (const s of seqs) del.run(s);
  } finally {
    db.close();
  }
}
