// A ledger's identity for checkpoint lines: its chain mode and the first 16
// hex of its seq 1 hash. Two ledgers of one project never share a first
// record, so a ledger deleted and started again is told apart. Looked up
// only when a checkpoint is written or verified: the journal's first line
// when it still holds seq 1, else the database.
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import type { LedgerIdentity } from './checkpoints';
import { journalFile, parseLine, readChainMeta } from './journal';
import { compliancePaths } from './paths';

function firstJournalHash(file: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buf = Buffer.alloc(128);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const line = parseLine(buf.subarray(0, n).toString('latin1'));
    return line && line.seq === 1 ? line.hash : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** What the identity needs from an open database (verify and the CLI pass the one they hold). */
export interface IdentitySource {
  firstHash(): string | undefined;
  chain(): string | undefined;
  close(): void;
}

/**
 * The database opened read-only, loaded only here so the hook path never
 * loads SQLite unless it must. A bundle resolves this require; an unbundled
 * loader (a test runner running the TypeScript) may not, which is why every
 * caller that already holds the store passes `open` instead: an unknown
 * identity would make verify report a restarted ledger.
 */
function openLazily(projectDir: string): IdentitySource {
  const { Ledger } = require('./store') as typeof import('./store');
  return sourceOf(Ledger.openReadOnly(projectDir), true);
}

/** Wraps an open ledger; `owned`: close it when done (else the caller keeps it open). */
export function sourceOf(l: { handle: { prepare(sql: string): { get(...a: unknown[]): unknown } }; meta(): Record<string, string>; close(): void }, owned = false): IdentitySource {
  return {
    // A recovered ledger that no longer holds seq 1 keeps the old ledger's id in its meta (loom recover).
    firstHash: () => (l.handle.prepare('SELECT hash FROM records WHERE seq = 1').get() as { hash: string } | undefined)?.hash ?? l.meta().ledger_id,
    chain: () => l.meta().chain,
    close: () => (owned ? l.close() : undefined),
  };
}

/** `known`: a record the caller just wrote (seq 1 names the ledger without reading anything). `open`: how to read the database when the journal cannot say. */
export function ledgerIdentityOf(projectDir: string, known?: { seq: number; hash: string }, open: (projectDir: string) => IdentitySource = openLazily): LedgerIdentity {
  const paths = compliancePaths(projectDir);
  let chain: string | undefined;
  try {
    chain = readChainMeta(paths)?.chain;
  } catch {
    // an unreadable chain description is verify's to report
  }
  let first = known && known.seq === 1 ? known.hash : firstJournalHash(journalFile(paths));
  if ((!first || !chain) && existsSync(paths.db)) {
    try {
      const l = open(projectDir);
      try {
        first ??= l.firstHash();
        chain ??= l.chain();
      } finally {
        l.close();
      }
    } catch {
      // no database to ask: the line goes without the id
    }
  }
  return { chain, ledger: first ? first.slice(0, 16) : undefined };
}
