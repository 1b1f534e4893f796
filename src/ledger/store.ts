// The only module that writes the ledger database: an append-only,
// hash-chained table, one transaction per invocation, writers serialized by
// BEGIN IMMEDIATE, commits durable (WAL + synchronous=FULL).
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerRecord, RecordDraft } from '../contract/types';
import { bulkHasher, GENESIS_HASH, type ChainKey, type ChainMode } from './chain';
import { LedgerError, type Head } from './errors';
import type { ChainMeta, JournalLine } from './journal';
import { buildRecord } from './record-build';
import { compliancePaths, ensureLedgerDir, type CompliancePaths } from './paths';
import { DatabaseCorruptError, isCorruptionCode } from './integrity';
import { migrate, SCHEMA_VERSION, SchemaError } from './schema';
import { mkdirBounded } from '../util/bounded-mkdir';
import { NotRegularError, refuseSpecialFile } from '../util/read-regular';

export const BUSY_TIMEOUT_MS = 5000;


export type { RecordDraft };
export { LedgerError, type Head } from './errors';
export { buildRecord, recordBody, RESERVED_KEYS, type BuiltRecord } from './record-build';


// better-sqlite3 finds its addon through `bindings`, which probes a dozen
// paths; pointing at the file directly saves that search on every hook call.
let nativeBinding: string | undefined | null = null;
function findNativeBinding(): string | undefined {
  if (nativeBinding !== null) return nativeBinding;
  const known = join(__dirname, '..', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
  if (existsSync(known)) return (nativeBinding = known);
  // Resolved only when the known path is not there (require.resolve walks and stats a dozen folders).
  try {
    const resolved = join(require.resolve('better-sqlite3/package.json'), '..', 'build', 'Release', 'better_sqlite3.node');
    nativeBinding = existsSync(resolved) ? resolved : undefined;
  } catch {
    nativeBinding = undefined; // not resolvable from here: let better-sqlite3 search
  }
  return nativeBinding;
}

/** Loads the SQLite addon the way the ledger does and returns SQLite's version (loom doctor). */
export function probeSqlite(): string {
  const db = new Database(':memory:', { nativeBinding: findNativeBinding() });
  try {
    return (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
  } finally {
    db.close();
  }
}

/** What keeps the SQLite addon from loading, in words, when `e` came from loading it (else undefined). */
export function addonProblem(e: unknown): string | undefined {
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  if (code.startsWith('SQLITE_')) return undefined;
  // One line: addon loading errors list every path tried (paths of the machine that built the bundle).
  const msg = (err.message ?? String(e)).split('\n')[0].trim();
  // The `bindings` package's own words when the compiled addon is missing (`Could not find module root given file ...`) name no
  // addon at all, and a second open after a failed load throws a TypeError from inside it (null.indexOf): inside a bundle no stack
  // names the package, so the compiled file's absence is what tells.
  const missing = findNativeBinding() === undefined && (e instanceof TypeError || /bindings file|Could not find module root|better_sqlite3\.node/.test(msg) || code === 'MODULE_NOT_FOUND');
  if (missing) return 'the SQLite addon (better-sqlite3) cannot be loaded (its compiled file is missing)';
  if (/bindings file|better_sqlite3\.node|better-sqlite3|Could not find module root/.test(msg) || code === 'ERR_DLOPEN_FAILED' || code === 'MODULE_NOT_FOUND')
    return `the SQLite addon (better-sqlite3) cannot be loaded (${msg.replace(/ Tried:$/, '')})`;
  return undefined;
}

export function classifySqliteError(e: unknown, file: string): LedgerError {
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  const msg = (err.message ?? String(e)).split('\n')[0].trim();
  if (e instanceof LedgerError) return e;
  const addon = addonProblem(e);
  if (addon) return new LedgerError(`${file}: ${addon}; reinstall loom with npm ci`, 'io');
  if (e instanceof NotRegularError) return new LedgerError(`${file}: ${e.why}; the ledger database was replaced`, 'io');
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return new LedgerError(`${file}: the ledger stayed locked past ${BUSY_TIMEOUT_MS} ms`, 'locked');
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code === 'EACCES' || code === 'EROFS')
    return new LedgerError(`${file}: cannot write the ledger (${code || msg})`, 'readonly');
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return new LedgerError(`${file}: disk full while writing the ledger`, 'full');
  if (isCorruptionCode(e)) return new DatabaseCorruptError(`${file}: the ledger database is corrupt (${msg}); it is left untouched: loom doctor says what survives, then run loom recover`, msg);
  if (e instanceof SchemaError) return new LedgerError(`${file}: ${msg}`, 'corrupt');
  return new LedgerError(`${file}: ${code && !msg.startsWith(code) ? code + ': ' : ''}${msg}`, 'io');
}

export interface OpenOptions {
  readonly?: boolean;
  key?: ChainKey;
}

export class Ledger {
  readonly paths: CompliancePaths;
  private readonly db: Database.Database;
  private readonly key?: ChainKey;
  private insert?: Database.Statement;
  // Statements prepared once per connection: a long-lived writer appends many batches.
  private stmts = new Map<string, Database.Statement>();
  private stmt(sql: string): Database.Statement {
    let st = this.stmts.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.stmts.set(sql, st);
    }
    return st;
  }
  /** node:crypto hashing for long-lived writers (the server); the hook path keeps the JS one. */
  bulkHashing = false;

  private constructor(projectDir: string, db: Database.Database, key?: ChainKey) {
    this.paths = compliancePaths(projectDir);
    this.db = db;
    this.key = key;
  }

  /** Opens (creating folders and schema on first use) for appending. */
  static openForAppend(projectDir: string, key?: ChainKey, meta?: ChainMeta): Ledger {
    const paths = compliancePaths(projectDir);
    let db: Database.Database;
    try {
      ensureLedgerDir(projectDir, paths.dir, (d) => mkdirBounded(d));
      refuseSpecialFile(paths.db);
      db = new Database(paths.db, { timeout: BUSY_TIMEOUT_MS, nativeBinding: findNativeBinding() });
    } catch (e) {
      throw classifySqliteError(e, paths.db);
    }
    const ledger = new Ledger(projectDir, db, key);
    try {
      db.pragma('synchronous = FULL');
      if ((db.pragma('user_version', { simple: true }) as number) !== SCHEMA_VERSION) ledger.initialize(meta);
      else if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
    } catch (e) {
      db.close();
      throw classifySqliteError(e, paths.db);
    }
    return ledger;
  }

  /** Opens an existing ledger read-only (verify, history, report). */
  static openReadOnly(projectDir: string): Ledger {
    const paths = compliancePaths(projectDir);
    if (!existsSync(paths.db)) throw new LedgerError(`${paths.db}: no ledger database`, 'missing');
    try {
      refuseSpecialFile(paths.db);
      const db = new Database(paths.db, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS, nativeBinding: findNativeBinding() });
      db.pragma('query_only = ON');
      return new Ledger(projectDir, db);
    } catch (e) {
      throw classifySqliteError(e, paths.db);
    }
  }

  /** An empty in-memory ledger with the given chain description: verify's stand-in when only a journal exists. */
  static openEmpty(projectDir: string, meta?: ChainMeta): Ledger {
    const db = new Database(':memory:', { nativeBinding: findNativeBinding() });
    const ledger = new Ledger(projectDir, db);
    db.exec('BEGIN');
    migrate(db);
    const put = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)');
    put.run('chain', meta?.chain ?? 'sha256');
    if (meta?.key_id) put.run('key_id', meta.key_id);
    db.exec('COMMIT');
    return ledger;
  }

  private initialize(described?: ChainMeta): void {
    // WAL lets readers (history, verify) run while hooks append; the mode is
    // stored in the file, so this runs once per database.
    this.db.pragma('journal_mode = WAL');
    this.db.exec('BEGIN IMMEDIATE');
    try {
      migrate(this.db);
      // The journal's chain description wins: the database follows the chain its records were hashed in.
      const mode: ChainMode = described?.chain ?? (this.key ? 'hmac-sha256' : 'sha256');
      const keyId = described ? described.key_id : this.key?.id;
      const put = this.db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)');
      put.run('chain', mode);
      put.run('created_at', new Date().toISOString());
      put.run('genesis', GENESIS_HASH);
      if (keyId) put.run('key_id', keyId);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  /**
   * A new, empty ledger file at `file` (not the project's ledger.db: loom
   * recover builds it aside and renames it into place), with the given meta.
   * Rollback journal while it is built (one file to rename); the first
   * writer that opens it in place turns WAL on.
   */
  static createFile(file: string, meta: Record<string, string>): Database.Database {
    let db: Database.Database;
    try {
      db = new Database(file, { timeout: BUSY_TIMEOUT_MS, nativeBinding: findNativeBinding() });
    } catch (e) {
      throw classifySqliteError(e, file);
    }
    try {
      db.pragma('synchronous = FULL');
      db.exec('BEGIN IMMEDIATE');
      migrate(db);
      const put = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?)');
      for (const [k, v] of Object.entries(meta)) put.run(k, v);
      db.exec('COMMIT');
    } catch (e) {
      db.close();
      throw classifySqliteError(e, file);
    }
    return db;
  }

  get handle(): Database.Database {
    return this.db;
  }

  meta(): Record<string, string> {
    const rows = this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  /** Where the stored chain starts: seq 1 from genesis, or (after loom recover) the seq after the anchor and the anchor's hash. */
  base(): { seq: number; prevHash: string } {
    const rows = this.stmt("SELECT key, value FROM meta WHERE key IN ('base_seq', 'base_prev_hash')").all() as { key: string; value: string }[];
    const m = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    const seq = Number(m.base_seq);
    return Number.isInteger(seq) && seq > 1 && /^[0-9a-f]{64}$/.test(m.base_prev_hash ?? '') ? { seq, prevHash: m.base_prev_hash } : { seq: 1, prevHash: GENESIS_HASH };
  }

  /**
   * The seq ranges a recovery could not read back from the old file (meta `gaps`, recover.ts): the chain is
   * stored with those seqs missing, and verify requires a recovery record naming each one.
   */
  gaps(): [number, number][] {
    const row = this.stmt("SELECT value FROM meta WHERE key = 'gaps'").get() as { value: string } | undefined;
    if (!row) return [];
    try {
      const v = JSON.parse(row.value) as unknown;
      return Array.isArray(v) ? v.filter((g): g is [number, number] => Array.isArray(g) && g.length === 2 && Number.isInteger(g[0]) && Number.isInteger(g[1]) && g[0] >= 1 && g[1] >= g[0]) : [];
    } catch {
      return [];
    }
  }

  private gapEndsAt(first: number, last: number): boolean {
    return this.gaps().some((g) => g[0] === first && g[1] === last);
  }

  head(): Head {
    const row = this.db.prepare('SELECT seq, hash, ts FROM records ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string; ts: string } | undefined;
    if (!row) {
      // A recovered ledger before its first record: the head is the anchor in the old chain.
      const b = this.base();
      return { seq: b.seq - 1, hash: b.prevHash, count: 0, ts: '' };
    }
    // Appends number records 1, 2, 3... with no gaps (verify checks it), so the
    // count a checkpoint vouches for is the head's seq; count(*) would scan the
    // whole table on every checkpoint.
    return { seq: row.seq, hash: row.hash, count: row.seq, ts: row.ts };
  }

  /** The stored hash at each of `seqs` that the database holds (the witnesses' checks). */
  hashesAt(seqs: number[]): Map<number, string> {
    const out = new Map<number, string>();
    if (!seqs.length) return out;
    let lo = seqs[0];
    let hi = seqs[0];
    for (const q of seqs) (lo = Math.min(lo, q)), (hi = Math.max(hi, q));
    if (hi - lo + 1 <= 4 * seqs.length) {
      // Witness lines are nearly contiguous: one range read.
      const want = new Set(seqs);
      for (const r of this.db.prepare('SELECT seq, hash FROM records WHERE seq BETWEEN ? AND ?').iterate(lo, hi) as Iterable<{ seq: number; hash: string }>) if (want.has(r.seq)) out.set(r.seq, r.hash);
    } else {
      const one = this.db.prepare('SELECT hash FROM records WHERE seq = ?').pluck(true);
      for (const seq of seqs) {
        const h = one.get(seq) as string | undefined;
        if (h !== undefined) out.set(seq, h);
      }
    }
    return out;
  }

  /**
   * Copies journal lines into the database verbatim (fold.ts), in one
   * durable transaction; they must continue the stored chain's numbering.
   */
  insertVerbatim(rows: JournalLine[]): void {
    if (rows.length === 0) return;
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (e) {
      throw classifySqliteError(e, this.paths.db);
    }
    try {
      const last = this.stmt('SELECT max(seq) AS s FROM records').get() as { s: number | null };
      const headSeq = last.s ?? this.base().seq - 1;
      if (rows[0].seq !== headSeq + 1 && !this.gapEndsAt(headSeq + 1, rows[0].seq - 1)) throw new LedgerError(`${this.paths.db}: journal line seq ${rows[0].seq} does not follow the database head ${headSeq}`, 'corrupt');
      const ins = this.stmt('INSERT INTO records (seq, body, hash) VALUES (?,?,?)');
      for (const r of rows) ins.run(r.seq, r.body, r.hash);
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw classifySqliteError(e, this.paths.db);
    }
  }

  /** Appends all drafts in one transaction; returns the stored records. Writers go through the journal (journal.ts); this serves tests and seeding. */
  append(drafts: RecordDraft[]): LedgerRecord[] {
    if (drafts.length === 0) return [];
    const out: LedgerRecord[] = [];
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (e) {
      throw classifySqliteError(e, this.paths.db);
    }
    try {
      // The chain mode and key id are written once, when the ledger is created: a long-lived writer reads them once.
      this.chainMeta ??= {
        chain: (this.stmt("SELECT value FROM meta WHERE key = 'chain'").get() as { value: string } | undefined)?.value,
        keyId: (this.stmt("SELECT value FROM meta WHERE key = 'key_id'").get() as { value: string } | undefined)?.value,
      };
      const { chain, keyId } = this.chainMeta;
      if (chain === 'hmac-sha256' && !this.key) throw new LedgerError(`${this.paths.db}: the ledger is keyed (HMAC); set LOOM_LEDGER_KEY or LOOM_LEDGER_KEY_FILE to append`, 'key');
      const key = chain === 'hmac-sha256' ? this.key : undefined;
      if (key && keyId && keyId !== key.id) throw new LedgerError(`${this.paths.db}: LOOM_LEDGER_KEY is not the key this ledger was started with`, 'key');
      const last = this.stmt('SELECT seq, hash FROM records ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string } | undefined;
      let seq = last?.seq ?? 0;
      let prev = last?.hash ?? GENESIS_HASH;
      this.insert ??= this.db.prepare(
        'INSERT INTO records (seq, body, hash) VALUES (?,?,?)',
      );
      for (const d of drafts) {
        seq += 1;
        const rec = buildRecord(d, seq, prev, new Date().toISOString(), key, undefined, this.bulkHashing ? (this.hasher ??= bulkHasher(key)) : undefined);
        this.insert.run(rec.seq, rec.body, rec.hash);
        prev = rec.hash;
        out.push(rec.record);
      }
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw classifySqliteError(e, this.paths.db);
    }
    return out;
  }

  private hasher?: (body: string) => string;
  private chainMeta?: { chain?: string; keyId?: string };

  /** Runs fn while holding the write lock, without writing to the database. */
  withWriteLock<T>(fn: () => T): T {
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (e) {
      throw classifySqliteError(e, this.paths.db);
    }
    try {
      return fn();
    } finally {
      if (this.db.inTransaction) this.db.exec('COMMIT');
    }
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

