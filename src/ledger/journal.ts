// The journal: the write path of the ledger, with no SQLite on it. Every
// writer (a command hook, `loom serve`) appends its records as lines
//   <seq> SP <hash> SP <canonical body> LF
// to .loom/compliance/journal.log under the journal lock (journal-lock.ts):
// it reads the head (the last complete line, or the database's head when
// the journal is empty), builds the next records on it, writes them with one
// write(2), releases the lock, and answers only after fdatasync. The body and
// hash are exactly what the database row will hold: folding (fold.ts) copies
// them verbatim. A writer that fails half-way (disk full) truncates what it
// wrote before letting go of the lock; one killed mid-write leaves a tail with
// no LF, which was never acknowledged and which the next writer cuts off.
import { closeSync, constants, existsSync, fdatasyncSync, fstatSync, fsyncSync, ftruncateSync, linkSync, openSync, readFileSync, readSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { RecordDraft } from '../contract/types';
import { newId } from '../util/ids';
import { fileReason } from '../util/file-reason';
import { bulkHasher, GENESIS_HASH, hashBody, type ChainKey, type ChainMode } from './chain';
import { LedgerError } from './errors';
import { acquireJournalLock, DEFAULT_LOCK_WAIT_MS, MAX_LOCK_WAIT_MS } from './journal-lock';
import { compliancePaths, ensureLedgerDir, type CompliancePaths } from './paths';
import { buildRecord, type BuiltRecord } from './record-build';
import { mkdirBounded } from '../util/bounded-mkdir';
import { witnessAppend } from './checkpoints';
import { NotRegularError, refuseSpecialFile } from '../util/read-regular';

export const JOURNAL_NAME = 'journal.log';
export const CHAIN_META_NAME = 'chain.json';

export interface ChainMeta {
  chain: ChainMode;
  key_id?: string;
}

export interface JournalLine {
  seq: number;
  hash: string;
  body: string;
}

export function journalFile(paths: CompliancePaths): string {
  return join(paths.dir, JOURNAL_NAME);
}

export function chainMetaFile(paths: CompliancePaths): string {
  return join(paths.dir, CHAIN_META_NAME);
}

export function formatLine(seq: number, hash: string, body: string): string {
  return `${seq} ${hash} ${body}\n`;
}

/** A complete line (without its LF), or undefined when it is not one. */
export function parseLine(line: string): JournalLine | undefined {
  const sp = line.indexOf(' ');
  if (sp < 1 || sp > 16) return undefined;
  const seqText = line.slice(0, sp);
  if (!/^[1-9]\d*$/.test(seqText)) return undefined;
  const hash = line.slice(sp + 1, sp + 65);
  if (line.charCodeAt(sp + 65) !== 32 || !/^[0-9a-f]{64}$/.test(hash)) return undefined;
  return { seq: Number(seqText), hash, body: line.slice(sp + 66) };
}

export interface Tail {
  /** The last complete line, without its LF. */
  last?: string;
  /** Offset just past the last LF: bytes after it are a torn tail. */
  end: number;
}

/** Reads backwards from `size` until the last complete line is found. */
export function readTail(fd: number, size: number): Tail {
  let window = 64 * 1024;
  for (;;) {
    const start = Math.max(0, size - window);
    const buf = Buffer.allocUnsafe(size - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    const lastNl = buf.lastIndexOf(10, got - 1);
    if (lastNl < 0) {
      if (start === 0) return { end: 0 };
      window *= 4;
      continue;
    }
    const prevNl = lastNl === 0 ? -1 : buf.lastIndexOf(10, lastNl - 1);
    if (prevNl < 0 && start > 0) {
      window *= 4;
      continue;
    }
    return { last: buf.toString('utf8', prevNl + 1, lastNl), end: start + lastNl + 1 };
  }
}

function errCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException).code;
}

export function ioError(file: string, e: unknown, doing: string): LedgerError {
  if (e instanceof LedgerError) return e;
  const c = errCode(e);
  if (c === 'ENOSPC' || c === 'EDQUOT' || c === 'EFBIG') return new LedgerError(`${file}: disk full while ${doing}`, 'full');
  if (c === 'EACCES' || c === 'EPERM' || c === 'EROFS') return new LedgerError(`${file}: cannot write (${c}) while ${doing}`, 'readonly');
  return new LedgerError(`${file}: ${c ? fileReason(e) : (e as Error).message} while ${doing}`, 'io');
}

export function readChainMeta(paths: CompliancePaths): ChainMeta | undefined {
  let text: string;
  try {
    text = readFileSync(chainMetaFile(paths), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const m = JSON.parse(text) as ChainMeta;
    if (m.chain === 'sha256' || m.chain === 'hmac-sha256') return { chain: m.chain, ...(typeof m.key_id === 'string' ? { key_id: m.key_id } : {}) };
  } catch {
    // fall through
  }
  throw new LedgerError(`${chainMetaFile(paths)}: not a chain description; run loom verify`, 'corrupt');
}

/** Written once (a link never replaces a file), under the journal lock. */
function writeChainMeta(paths: CompliancePaths, meta: ChainMeta): void {
  const file = chainMetaFile(paths);
  const tmp = `${file}.${process.pid}-${newId(12)}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(meta) + '\n', { mode: 0o644 });
    try {
      linkSync(tmp, file);
    } catch (e) {
      if (errCode(e) !== 'EEXIST') throw e;
    }
  } finally {
    try {
      unlinkSync(tmp);
    } catch {
      // never written
    }
  }
}

/** The database's head and chain description, for a journal that is empty (a ledger from before the journal, or a new one). */
function databaseState(projectDir: string, paths: CompliancePaths): { seq: number; hash: string; meta?: ChainMeta } {
  if (!existsSync(paths.db)) return { seq: 0, hash: GENESIS_HASH };
  // Loaded only here: the hook path never loads SQLite once a journal exists.
  const { Ledger, classifySqliteError } = require('./store') as typeof import('./store');
  const ledger = Ledger.openReadOnly(projectDir);
  try {
    const head = ledger.head();
    const m = ledger.meta();
    const meta = m.chain === 'sha256' || m.chain === 'hmac-sha256' ? { chain: m.chain as ChainMode, ...(m.key_id ? { key_id: m.key_id } : {}) } : undefined;
    return { seq: head.seq, hash: head.hash, meta };
  } catch (e) {
    throw classifySqliteError(e, paths.db);
  } finally {
    ledger.close();
  }
}

/** A chain's mode read from one of its records: its hash is SHA-256 of its body, or it is keyed (with `key`, when that key made it). */
function modeOfLine(l: JournalLine, key: ChainKey | undefined): ChainMeta {
  if (hashBody(l.body) === l.hash) return { chain: 'sha256' };
  return key && hashBody(l.body, key) === l.hash ? { chain: 'hmac-sha256', key_id: key.id } : { chain: 'hmac-sha256' };
}

/** The key the chain is hashed with, checked against its description. */
export function chainKeyFor(meta: ChainMeta, key: ChainKey | undefined, where: string): ChainKey | undefined {
  if (meta.chain === 'hmac-sha256' && !key) throw new LedgerError(`${where}: the ledger is keyed (HMAC); set LOOM_LEDGER_KEY or LOOM_LEDGER_KEY_FILE to append`, 'key');
  if (meta.chain !== 'hmac-sha256') return undefined;
  if (meta.key_id && meta.key_id !== key!.id) throw new LedgerError(`${where}: LOOM_LEDGER_KEY is not the key this ledger was started with`, 'key');
  return key;
}

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // some file systems refuse a directory fsync; the data itself is synced
  }
}

/** A hook starts a fold each time the chain crosses a multiple of this. */
export const DEFAULT_FOLD_EVERY = 100;

export function foldEvery(env: NodeJS.ProcessEnv = process.env): number {
  const v = Number(env.LOOM_FOLD_EVERY);
  return Number.isInteger(v) && v > 0 ? v : DEFAULT_FOLD_EVERY;
}

export interface AppendOptions {
  waitMs?: number;
  /** node:crypto hashing, for long-lived writers (the hook path keeps the JavaScript one: no node:crypto load). */
  bulkHashing?: boolean;
  /** Record ids from this generator (the server passes nanoid, node:crypto being loaded there anyway); default: util/ids. */
  newId?: () => string;
  /**
   * A key is configured but the ledger is plain (unkeyed): 'refuse' throws
   * LedgerError('key') before anything is written (events that can block);
   * 'warn' appends to the plain chain and sets `notes.unkeyed`. Default: 'warn'.
   */
  unkeyed?: 'refuse' | 'warn';
  /** Filled in by the append: what the caller should say beside the answer. */
  notes?: { unkeyed?: string; witness?: string };
}

export function unkeyedMessage(file: string): string {
  return `${file}: the ledger is unkeyed (plain SHA-256) while LOOM_LEDGER_KEY is set, so its records could be rebuilt by anyone; unset the key for this project, or move .loom/compliance aside to start a keyed ledger (loom verify then names the old one)`;
}

export function lockWaitMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LOOM_LOCK_WAIT_MS;
  // Unset, empty or not a number of milliseconds: the default (an empty value is not 0 ms).
  if (raw === undefined || !/^\s*\d+(?:\.\d+)?\s*$/.test(raw)) return DEFAULT_LOCK_WAIT_MS;
  return Math.min(Number(raw), MAX_LOCK_WAIT_MS);
}

/**
 * Appends the drafts as the next records of the chain; returns them once
 * they are durable. Throws LedgerError when they are not (nothing of them
 * is then left in the journal, or only a torn tail the next writer cuts).
 */
export function appendJournal(projectDir: string, drafts: RecordDraft[], key: ChainKey | undefined, opts: AppendOptions = {}): BuiltRecord[] {
  if (drafts.length === 0) return [];
  const paths = compliancePaths(projectDir);
  const file = journalFile(paths);
  try {
    ensureLedgerDir(projectDir, paths.dir, (d) => mkdirBounded(d));
  } catch (e) {
    throw ioError(paths.dir, e, 'creating the ledger folder');
  }
  const lock = acquireJournalLock(paths.dir, opts.waitMs ?? lockWaitMs());
  let fd: number | undefined;
  let records: BuiltRecord[];
  let fresh = false;
  try {
    try {
      // 'a+', but never through a link: a journal.log linked elsewhere would send the records out of the project.
      fd = openSync(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0), 0o600);
    } catch (e) {
      if (errCode(e) === 'ELOOP') throw new LedgerError(`${file}: is a symbolic link; the journal must be a file in the project's ledger folder (nothing appended)`, 'corrupt');
      throw ioError(file, e, 'opening the journal');
    }
    const st = fstatSync(fd);
    // A FIFO, a device or a folder under the journal's name: no record goes there (a FIFO would take it and keep nothing).
    if (!st.isFile()) throw new LedgerError(`${file}: not a regular file (${st.isFIFO() ? 'a FIFO' : st.isCharacterDevice() || st.isBlockDevice() ? 'a device' : st.isSocket() ? 'a socket' : 'not a file'}); the journal must be a file in the project's ledger folder (nothing appended)`, 'corrupt');
    const size = st.size;
    fresh = size === 0;
    const tail = readTail(fd, size);
    if (tail.end < size) {
      // A torn tail: a writer died (or ran out of space) mid-line, before it could answer.
      try {
        ftruncateSync(fd, tail.end);
      } catch (e) {
        throw ioError(file, e, 'cutting a torn journal tail');
      }
    }
    let head: { seq: number; hash: string };
    let meta = readChainMeta(paths);
    if (tail.last !== undefined) {
      const l = parseLine(tail.last);
      if (!l) throw new LedgerError(`${file}: the last journal line is not a record; nothing appended (run loom verify)`, 'corrupt');
      head = l;
      // chain.json gone on a chain that has records: the chain's own mode, never the mode this writer happens to have
      // (a keyless writer must not append plain records onto a keyed chain).
      if (!meta) {
        meta = databaseState(projectDir, paths).meta ?? modeOfLine(l, key);
        // Keyed, and not by this writer's key (or it has none): nothing is written or appended.
        if (meta.chain === 'hmac-sha256' && !meta.key_id) {
          throw new LedgerError(key ? `${file}: LOOM_LEDGER_KEY is not the key this ledger was started with` : `${file}: the ledger is keyed (HMAC); set LOOM_LEDGER_KEY or LOOM_LEDGER_KEY_FILE to append`, 'key');
        }
        writeChainMeta(paths, meta);
      }
    } else {
      const db = databaseState(projectDir, paths);
      head = db;
      if (!meta && db.meta) {
        writeChainMeta(paths, db.meta);
        meta = db.meta;
      }
    }
    if (!meta) {
      meta = key ? { chain: 'hmac-sha256', key_id: key.id } : { chain: 'sha256' };
      writeChainMeta(paths, meta);
    }
    const useKey = chainKeyFor(meta, key, file);
    if (key && meta.chain !== 'hmac-sha256') {
      if (opts.unkeyed === 'refuse') throw new LedgerError(unkeyedMessage(file), 'key');
      if (opts.notes) opts.notes.unkeyed = unkeyedMessage(file);
    }
    let seq = head.seq;
    let prev = head.hash;
    records = [];
    let text = '';
    const ts = new Date().toISOString();
    const hasher = opts.bulkHashing ? bulkHasher(useKey) : undefined;
    for (const d of drafts) {
      seq += 1;
      const rec = buildRecord(d, seq, prev, ts, useKey, opts.newId?.(), hasher);
      records.push(rec);
      text += formatLine(rec.seq, rec.hash, rec.body);
      prev = rec.hash;
    }
    const buf = Buffer.from(text, 'utf8');
    let off = 0;
    try {
      while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
    } catch (e) {
      // Nothing half-written stays behind: cut back to where this append began.
      try {
        ftruncateSync(fd, tail.end);
      } catch {
        // the next writer cuts the torn tail
      }
      throw ioError(file, e, 'appending to the journal');
    }
    // Still under the lock, so the witness's lines are in chain order: the new head, outside the project.
    const last = records[records.length - 1];
    const w = witnessAppend(projectDir, last.seq, last.hash);
    if (w && opts.notes) opts.notes.witness = w;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    lock.release();
    throw e instanceof LedgerError ? e : ioError(file, e, 'appending to the journal');
  }
  // Durability outside the lock: the next writer's line lands after this one,
  // and any fdatasync of the file covers every line written before it.
  lock.release();
  try {
    fdatasyncSync(fd);
  } catch (e) {
    throw ioError(file, e, 'syncing the journal');
  } finally {
    closeSync(fd);
  }
  if (fresh) fsyncDir(paths.dir);
  return records;
}

export interface JournalRead {
  file: string;
  exists: boolean;
  lines: JournalLine[];
  /** 1-based line number and text of the first line that is not a record, if any. */
  bad?: { line: number; text: string };
  /** Bytes after the last LF (a write that never completed). */
  tornBytes: number;
  /** Offset just past the last LF. */
  end: number;
}

/** The journal's hash at each of `seqs` it still holds (SessionEnd checks the head witness with it; no SQLite on the hook path). */
export function journalHashesAt(projectDir: string, seqs: number[]): Map<number, string> {
  const want = new Set(seqs);
  const out = new Map<number, string>();
  try {
    for (const l of readJournal(projectDir).lines) if (want.has(l.seq)) out.set(l.seq, l.hash);
  } catch {
    // unreadable: nothing known here, the next fold checks
  }
  return out;
}

/** The whole journal, without the lock (lines are only ever appended, and compaction replaces the file at once). */
export function readJournal(projectDir: string): JournalRead {
  const file = journalFile(compliancePaths(projectDir));
  let buf: Buffer;
  try {
    refuseSpecialFile(file);
    buf = readFileSync(file);
  } catch (e) {
    if (e instanceof NotRegularError) throw new LedgerError(`${file}: ${e.why}; the journal was replaced`, 'io');
    if (errCode(e) === 'ENOENT') return { file, exists: false, lines: [], tornBytes: 0, end: 0 };
    throw ioError(file, e, 'reading the journal');
  }
  return parseJournal(file, buf);
}

export function parseJournal(file: string, buf: Buffer): JournalRead {
  const end = buf.lastIndexOf(10) + 1;
  const out: JournalRead = { file, exists: true, lines: [], tornBytes: buf.length - end, end };
  if (end === 0) return out;
  const text = buf.toString('utf8', 0, end - 1);
  let at = 0;
  let n = 0;
  while (at <= text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const raw = text.slice(at, nl);
    n++;
    const l = parseLine(raw);
    if (!l) {
      out.bad = { line: n, text: raw.slice(0, 120) };
      break;
    }
    out.lines.push(l);
    at = nl + 1;
  }
  return out;
}
