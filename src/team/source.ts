// What the shipper reads from a local ledger: its id and chain mode (meta)
// and its records by seq, each as stored (seq, body, hash). Only the ledger's
// read API is used, so a change in how records are written or encoded does
// not reach the shipper: it ships whatever body and hash the ledger holds.
import type Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { nanoid } from 'nanoid';
import { compliancePaths } from '../ledger/paths';
import { Ledger, LedgerError } from '../ledger/store';
import { journalFile, readChainMeta, readJournal } from '../ledger/journal';

export const LEDGER_ID_KEY = 'ledger_id';

export interface StoredRecord {
  seq: number;
  hash: string;
  body: string;
}

export interface LedgerInfo {
  ledgerId: string;
  chain: string;
  keyId?: string;
}

/**
 * The ledger's stable id: random, written once into `meta` (the first time a
 * shipper, or anything else, asks). Undefined when there is no ledger yet.
 */
export function ensureLedgerId(projectDir: string): LedgerInfo | undefined {
  const paths = compliancePaths(projectDir);
  if (!existsSync(paths.db)) {
    // A journal-only ledger (no fold yet) ships too: create the database as the fold would (the journal's chain
    // description, no records), so the id has its home; the journal lines ship from the tail.
    if (!existsSync(journalFile(paths))) return undefined;
    Ledger.openForAppend(projectDir, undefined, readChainMeta(paths)).close();
  }
  const read = (l: Ledger) => l.meta();
  let meta: Record<string, string>;
  const ro = Ledger.openReadOnly(projectDir);
  try {
    meta = read(ro);
  } finally {
    ro.close();
  }
  if (!meta[LEDGER_ID_KEY]) {
    const rw = Ledger.openForAppend(projectDir);
    try {
      rw.withWriteLock(() => {
        rw.handle.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)').run(LEDGER_ID_KEY, nanoid());
      });
      meta = read(rw);
    } finally {
      rw.close();
    }
  }
  return { ledgerId: meta[LEDGER_ID_KEY], chain: meta.chain ?? 'sha256', keyId: meta.key_id };
}

/** A read-only cursor over a local ledger's records. */
export class LocalSource {
  private ledger: Ledger;
  private after: Database.Statement<[number, number]>;
  private at: Database.Statement<[number]>;

  /** Journal lines not folded into the database yet (read once, when the cursor opens). */
  private tail: StoredRecord[] = [];

  constructor(projectDir: string) {
    // Journal first: a fold between the two reads moves lines into the database, never out of sight.
    let lines: StoredRecord[] = [];
    try {
      lines = readJournal(projectDir).lines.map((l) => ({ seq: l.seq, hash: l.hash, body: l.body }));
    } catch {
      lines = [];
    }
    this.ledger = Ledger.openReadOnly(projectDir);
    this.after = this.ledger.handle.prepare('SELECT seq, hash, body FROM records WHERE seq > ? ORDER BY seq LIMIT ?');
    this.at = this.ledger.handle.prepare('SELECT seq, hash, body FROM records WHERE seq = ?');
    const dbHead = this.ledger.head().seq;
    this.tail = lines.filter((l) => l.seq > dbHead);
  }

  /** Up to `limit` records after `seq`, in seq order. */
  readAfter(seq: number, limit: number): StoredRecord[] {
    try {
      const rows = this.after.all(seq, limit) as StoredRecord[];
      if (rows.length < limit && this.tail.length) {
        const from = rows.length ? rows[rows.length - 1].seq : seq;
        for (const l of this.tail) if (l.seq > from && rows.length < limit) rows.push(l);
      }
      return rows;
    } catch (e) {
      throw new LedgerError(`${this.ledger.paths.db}: ${(e as Error).message}`, 'io');
    }
  }

  recordAt(seq: number): StoredRecord | undefined {
    return (this.at.get(seq) as StoredRecord | undefined) ?? this.tail.find((l) => l.seq === seq);
  }

  headSeq(): number {
    return Math.max(this.ledger.head().seq, this.tail.length ? this.tail[this.tail.length - 1].seq : 0);
  }

  close(): void {
    this.ledger.close();
  }
}
