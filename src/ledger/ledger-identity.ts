// A ledger's identity for checkpoint lines: its chain mode (from meta) and
// the first 16 hex of its seq 1 hash. Two ledgers of one project never share
// a first record, so a ledger deleted and started again is told apart.
import type Database from 'better-sqlite3';
import type { LedgerIdentity } from './checkpoints';

export function ledgerIdentity(db: Database.Database): LedgerIdentity {
  const chain = (db.prepare("SELECT value FROM meta WHERE key = 'chain'").get() as { value: string } | undefined)?.value;
  const first = (db.prepare('SELECT hash FROM records WHERE seq = 1').get() as { hash: string } | undefined)?.hash;
  return { chain, ledger: first ? first.slice(0, 16) : undefined };
}
