// A corrupt database is found (PRAGMA quick_check, or SQLite saying so while
// folding), marked, and from then on left alone: the mark file beside it makes
// every fold refuse to append to it, verify and doctor name it, and `loom
// recover` sets the file aside and starts a new ledger anchored to the old
// chain. The journal keeps every record meanwhile (the hook path never writes
// the database), so nothing answered is lost while the database is bad.
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeDurably } from '../util/durable-write';
import { LedgerError } from './errors';
import type { CompliancePaths } from './paths';

export interface CorruptMark {
  /** When it was found (ISO time). */
  at: string;
  /** SQLite's first complaint, one line. */
  reason: string;
  /** Who found it: `loom serve upkeep`, `fold`, `verify`. */
  by: string;
}

/** SQLite said the file is damaged (not: locked, read-only, full). */
export class DatabaseCorruptError extends LedgerError {
  constructor(
    message: string,
    /** SQLite's complaint alone (for the mark). */
    readonly detail = message,
  ) {
    super(message, 'corrupt');
  }
}

export function corruptMarkFile(paths: CompliancePaths): string {
  return join(paths.dir, 'ledger.db.corrupt.json');
}

export function readCorruptMark(paths: CompliancePaths): CorruptMark | undefined {
  let text: string;
  try {
    text = readFileSync(corruptMarkFile(paths), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const v = JSON.parse(text) as Partial<CorruptMark>;
    return { at: String(v.at ?? '?'), reason: String(v.reason ?? 'unknown'), by: String(v.by ?? '?') };
  } catch {
    // A mark that does not parse is still a mark: refusing to fold is the safe side.
    return { at: '?', reason: 'the corruption mark is unreadable', by: '?' };
  }
}

/** Records that the database is corrupt (the first finding is kept: it is the one closest to the cause). */
export function markCorrupt(paths: CompliancePaths, reason: string, by: string): CorruptMark {
  const old = readCorruptMark(paths);
  if (old) return old;
  const mark: CorruptMark = { at: new Date().toISOString(), reason: reason.split('\n')[0].slice(0, 500), by };
  const file = corruptMarkFile(paths);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeDurably(tmp, JSON.stringify(mark) + '\n');
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
    // The folder cannot be written: folds fail anyway, and the finding is still returned to be said.
  }
  return mark;
}

/** One line for the user: what is wrong, since when, what to do. */
export function corruptMessage(paths: CompliancePaths, mark: CorruptMark): string {
  return `${paths.db} is corrupt (${mark.reason}; found ${mark.at} by ${mark.by}): nothing is folded into it, the journal keeps every record; loom doctor says what survives, then run loom recover`;
}

/** Throws when the database is marked corrupt: callers that would write it stop here. */
export function refuseIfCorrupt(paths: CompliancePaths): void {
  if (!existsSync(corruptMarkFile(paths))) return;
  const mark = readCorruptMark(paths);
  if (mark) throw new DatabaseCorruptError(corruptMessage(paths, mark));
}

/** The first lines of `PRAGMA quick_check` when it finds damage; undefined when the file is sound. */
export function quickCheck(db: { pragma(sql: string, o?: { simple: boolean }): unknown }): string | undefined {
  const rows = db.pragma('quick_check(3)') as { quick_check: string }[];
  const lines = rows.flatMap((r) => r.quick_check.split('\n')).filter((l) => l && !/^\*\*\* in database/.test(l));
  if (rows.length === 1 && rows[0].quick_check === 'ok') return undefined;
  return `quick_check: ${lines.slice(0, 3).join('; ') || 'damaged'}`;
}

/** SQLite's own word for a damaged file. */
export function isCorruptionCode(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}
