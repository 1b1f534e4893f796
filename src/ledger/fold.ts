// Folding: the journal's records go into the SQLite ledger verbatim (same
// seq, body and hash), then the journal is compacted to its last line, which
// stays as the head the next writer chains onto. Runs under the journal lock,
// so no append interleaves; history.json is brought up to date after the lock
// is released (under SQLite's write lock), so hooks never wait for it.
// Whoever has time folds: `loom serve`'s upkeep, every CLI reader, and a
// detached child a hook starts every LOOM_FOLD_EVERY records.
import { closeSync, existsSync, fsyncSync, ftruncateSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { writeDurably } from '../util/durable-write';
import { newId } from '../util/ids';
import { loadChainKey, type ChainKey } from './chain';
import { LedgerError, type Head } from './errors';
import { syncHistory } from './history-view';
import { chainMetaFile, ioError, journalFile, lockWaitMs, parseJournal, readChainMeta } from './journal';
import { acquireJournalLock, sweepLockLeftovers } from './journal-lock';
import { DatabaseCorruptError, isCorruptionCode, markCorrupt, refuseIfCorrupt } from './integrity';
import { compliancePaths } from './paths';
import { Ledger } from './store';
import { compactAppendWitness, writeHeadWitness } from './checkpoints';
import { ledgerIdentityOf, sourceOf } from './ledger-identity';
import { NotRegularError, refuseSpecialFile } from '../util/read-regular';


export interface FoldResult {
  folded: number;
  /** The database head after folding. */
  head?: Head;
  /** Lines left in the journal that could not be folded (a broken line, a gap): verify names them. */
  problems: string[];
  /** The view (history.json) or housekeeping failed after the records were folded. */
  warnings: string[];
}

export interface FoldOptions {
  waitMs?: number;
  key?: ChainKey;
  /** A long-lived folder (the server's upkeep) passes its open ledger. */
  ledger?: Ledger;
  /** Skip the history.json update (the caller does it). */
  skipHistory?: boolean;
}

/** Folds the journal of a project into its database. Throws LedgerError when nothing could be folded. */
export function foldJournal(projectDir: string, opts: FoldOptions = {}): FoldResult {
  const paths = compliancePaths(projectDir);
  const file = journalFile(paths);
  const result: FoldResult = { folded: 0, problems: [], warnings: [] };
  let buf: Buffer;
  try {
    refuseSpecialFile(file);
    buf = readFileSync(file);
  } catch (e) {
    if (e instanceof NotRegularError) throw new LedgerError(`${file}: ${e.why}; the journal was replaced`, 'io');
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return result;
    throw ioError(file, e, 'reading the journal');
  }
  // A database known to be corrupt is never appended to: the records stay in the journal until loom recover.
  refuseIfCorrupt(paths);
  const lock = acquireJournalLock(paths.dir, opts.waitMs ?? lockWaitMs());
  let ledger: Ledger | undefined = opts.ledger;
  try {
    refuseIfCorrupt(paths);
    // Read again under the lock: appends may have landed since.
    buf = readFileSync(file);
    const j = parseJournal(file, buf);
    if (j.tornBytes) {
      // Never acknowledged (its writer answers only after a complete, synced line).
      try {
        const fd = openSync(file, 'r+');
        try {
          ftruncateSync(fd, j.end);
        } finally {
          closeSync(fd);
        }
      } catch (e) {
        result.warnings.push(ioError(file, e, 'cutting a torn journal tail').message);
      }
    }
    const meta = readChainMeta(paths);
    // A journal that continues past seq 1 with no database: the database was deleted. Creating an
    // empty one here would hide that (and rebuild history.json as []): nothing is folded, verify names it.
    if (!ledger && j.lines.length && j.lines[0].seq > 1 && !existsSync(paths.db)) {
      throw new LedgerError(`${paths.db}: the ledger database is gone, but the journal continues at seq ${j.lines[0].seq}: nothing folded (run loom verify)`, 'missing');
    }
    ledger ??= Ledger.openForAppend(projectDir, opts.key ?? loadChainKey(projectDir), meta);
    const dbMeta = ledger.meta();
    if (meta && dbMeta.chain && dbMeta.chain !== meta.chain) {
      throw new LedgerError(`${chainMetaFile(paths)} says ${meta.chain}, the database says ${dbMeta.chain}: nothing folded (run loom verify)`, 'corrupt');
    }
    const dbHead = ledger.head();
    const start = j.lines.findIndex((l) => l.seq > dbHead.seq);
    const rows = start < 0 ? [] : j.lines.slice(start);
    let take = 0;
    for (let expected = dbHead.seq + 1; take < rows.length && rows[take].seq === expected; take++, expected++);
    if (take < rows.length) result.problems.push(`${file}: line with seq ${rows[take].seq} does not follow seq ${rows[take - 1]?.seq ?? dbHead.seq}; folding stopped there (run loom verify)`);
    if (j.bad) result.problems.push(`${file}:${j.bad.line}: not a journal record; folding stopped there (run loom verify)`);
    ledger.insertVerbatim(rows.slice(0, take));
    result.folded = take;
    result.head = ledger.head();
    // Compact to the head line once everything is in the database: the
    // journal never empties, so a hook finds the head without opening SQLite.
    if (!result.problems.length && j.lines.length > 1) {
      const last = j.lines[j.lines.length - 1];
      if (last.seq === result.head.seq && last.hash === result.head.hash) {
        const tmp = `${file}.${process.pid}-${newId(12)}.tmp`;
        try {
          writeDurably(tmp, `${last.seq} ${last.hash} ${last.body}\n`);
          renameSync(tmp, file);
          const dfd = openSync(paths.dir, 'r');
          try {
            fsyncSync(dfd);
          } finally {
            closeSync(dfd);
          }
        } catch (e) {
          rmSync(tmp, { force: true });
          // The records are in the database; the journal is only longer than it needs to be.
          result.warnings.push(ioError(file, e, 'compacting the journal').message);
        }
      }
    }
    // Under the lock: no append lands in the witness while it is replaced by its last line.
    // Every line is checked against the chain first (the folded records are all in the database now).
    const led = ledger;
    result.warnings.push(...compactAppendWitness(projectDir, (seqs) => led.hashesAt(seqs)));
  } catch (e) {
    if (!opts.ledger) ledger?.close();
    // SQLite found damage while folding: marked, so no later fold writes into the damaged file.
    if (e instanceof DatabaseCorruptError) markCorrupt(paths, e.detail, 'fold');
    lock.release();
    throw e;
  }
  lock.release();
  // The head witness outside the project (a tail cut after the last checkpoint, a young ledger deleted): verify compares it.
  if (result.folded > 0 && result.head) {
    try {
      const l = ledger;
      const w = writeHeadWitness(projectDir, result.head, ledgerIdentityOf(projectDir, undefined, () => sourceOf(l)).ledger, 'fold', (seqs) => l.hashesAt(seqs));
      if (w) result.warnings.push(w);
    } catch (e) {
      result.warnings.push(`head witness: ${(e as Error).message}`);
    }
  }
  try {
    sweepLockLeftovers(paths.dir);
    if (!opts.skipHistory) {
      const l = ledger;
      const aside = l.withWriteLock(() => syncHistory(l));
      if (aside) result.warnings.push(aside);
    }
  } catch (e) {
    if (isCorruptionCode(e) || e instanceof DatabaseCorruptError) markCorrupt(paths, e instanceof DatabaseCorruptError ? e.detail : (e as Error).message, 'fold');
    result.warnings.push(`history: ${e instanceof LedgerError ? e.message : ioError(paths.history, e, 'updating history.json').message}`);
  } finally {
    if (!opts.ledger) ledger.close();
  }
  return result;
}

/** Folds before reading, for CLI readers: a ledger that cannot be written (read-only, locked) is read as it is, journal included. */
export function foldQuietly(projectDir: string, waitMs = 2_000): string[] {
  try {
    const r = foldJournal(projectDir, { waitMs });
    return [...r.problems, ...r.warnings];
  } catch (e) {
    return [e instanceof LedgerError ? e.message : (e as Error).message];
  }
}
