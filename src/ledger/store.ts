// The only module that writes the ledger database: an append-only,
// hash-chained table, one transaction per invocation, writers serialized by
// BEGIN IMMEDIATE, commits durable (WAL + synchronous=FULL).
import Database from 'better-sqlite3';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LedgerRecord, RecordDraft } from '../contract/types';
import { newId } from '../util/ids';
import { canonicalJson } from './canonical';
import { bulkHasher, GENESIS_HASH, hashBody, type ChainKey, type ChainMode } from './chain';
import { compliancePaths, type CompliancePaths } from './paths';
import { migrate, SCHEMA_VERSION, SchemaError } from './schema';

export const BUSY_TIMEOUT_MS = 5000;

/** Field names of the record itself; a kind may not reuse them. */
export const RESERVED_KEYS = new Set(['id', 'seq', 'ts', 'event', 'hook_id', 'harness', 'session_id', 'risk', 'decision', 'status', 'kind', 'prev_hash', 'hash', 'redactions']);

export type { RecordDraft };

export class LedgerError extends Error {
  constructor(
    message: string,
    public readonly code: 'missing' | 'corrupt' | 'locked' | 'readonly' | 'full' | 'key' | 'io',
  ) {
    super(message);
  }
}

export interface Head {
  seq: number;
  hash: string;
  count: number;
  ts: string;
}

// better-sqlite3 finds its addon through `bindings`, which probes a dozen
// paths; pointing at the file directly saves that search on every hook call.
let nativeBinding: string | undefined | null = null;
function findNativeBinding(): string | undefined {
  if (nativeBinding !== null) return nativeBinding;
  const candidates = [join(__dirname, '..', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')];
  try {
    candidates.push(join(require.resolve('better-sqlite3/package.json'), '..', 'build', 'Release', 'better_sqlite3.node'));
  } catch {
    // not resolvable from here: let better-sqlite3 search
  }
  nativeBinding = candidates.find((c) => existsSync(c));
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

export function classifySqliteError(e: unknown, file: string): LedgerError {
  const err = e as { code?: string; message?: string };
  const code = err.code ?? '';
  // One line: addon loading errors list every path tried (paths of the machine that built the bundle).
  const msg = (err.message ?? String(e)).split('\n')[0].trim();
  if (e instanceof LedgerError) return e;
  if (/bindings file|better_sqlite3\.node|better-sqlite3/.test(msg) || code === 'ERR_DLOPEN_FAILED' || code === 'MODULE_NOT_FOUND')
    return new LedgerError(`${file}: the SQLite addon (better-sqlite3) cannot be loaded (${msg.replace(/ Tried:$/, '')}); reinstall loom with npm ci`, 'io');
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return new LedgerError(`${file}: the ledger stayed locked past ${BUSY_TIMEOUT_MS} ms`, 'locked');
  if (code === 'SQLITE_READONLY' || code.startsWith('SQLITE_READONLY') || code === 'SQLITE_CANTOPEN' || code === 'EACCES' || code === 'EROFS')
    return new LedgerError(`${file}: cannot write the ledger (${code || msg})`, 'readonly');
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return new LedgerError(`${file}: disk full while writing the ledger`, 'full');
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return new LedgerError(`${file}: the ledger database is corrupt (${msg}); it is left untouched, run loom verify`, 'corrupt');
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
  static openForAppend(projectDir: string, key?: ChainKey): Ledger {
    const paths = compliancePaths(projectDir);
    let db: Database.Database;
    try {
      mkdirSync(paths.dir, { recursive: true });
      db = new Database(paths.db, { timeout: BUSY_TIMEOUT_MS, nativeBinding: findNativeBinding() });
    } catch (e) {
      throw classifySqliteError(e, paths.db);
    }
    const ledger = new Ledger(projectDir, db, key);
    try {
      db.pragma('synchronous = FULL');
      if ((db.pragma('user_version', { simple: true }) as number) !== SCHEMA_VERSION) ledger.initialize();
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
      const db = new Database(paths.db, { readonly: true, fileMustExist: true, timeout: BUSY_TIMEOUT_MS, nativeBinding: findNativeBinding() });
      db.pragma('query_only = ON');
      return new Ledger(projectDir, db);
    } catch (e) {
      throw classifySqliteError(e, paths.db);
    }
  }

  private initialize(): void {
    // WAL lets readers (history, verify) run while hooks append; the mode is
    // stored in the file, so this runs once per database.
    this.db.pragma('journal_mode = WAL');
    this.db.exec('BEGIN IMMEDIATE');
    try {
      migrate(this.db);
      const mode: ChainMode = this.key ? 'hmac-sha256' : 'sha256';
      const put = this.db.prepare('INSERT OR IGNORE INTO meta(key, value) VALUES (?, ?)');
      put.run('chain', mode);
      put.run('created_at', new Date().toISOString());
      put.run('genesis', GENESIS_HASH);
      if (this.key) put.run('key_id', this.key.id);
      this.db.exec('COMMIT');
    } catch (e) {
      this.db.exec('ROLLBACK');
      throw e;
    }
  }

  get handle(): Database.Database {
    return this.db;
  }

  meta(): Record<string, string> {
    const rows = this.db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[];
    return Object.fromEntries(rows.map((r) => [r.key, r.value]));
  }

  head(): Head {
    const row = this.db.prepare('SELECT seq, hash, ts FROM records ORDER BY seq DESC LIMIT 1').get() as { seq: number; hash: string; ts: string } | undefined;
    if (!row) return { seq: 0, hash: GENESIS_HASH, count: 0, ts: '' };
    // Appends number records 1, 2, 3... with no gaps (verify checks it), so the
    // count a checkpoint vouches for is the head's seq; count(*) would scan the
    // whole table on every checkpoint.
    return { seq: row.seq, hash: row.hash, count: row.seq, ts: row.ts };
  }

  /** Appends all drafts in one transaction; returns the stored records. */
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

export interface BuiltRecord {
  seq: number;
  body: string;
  hash: string;
  record: LedgerRecord;
}

/** The hashed view of a record: everything but the hash, the kind object under its kind's name. */
export function recordBody(r: Omit<LedgerRecord, 'hash'> & { redactions?: number }): Record<string, unknown> {
  if (RESERVED_KEYS.has(r.kind)) throw new TypeError(`record kind "${r.kind}" clashes with a record field`);
  return {
    id: r.id,
    seq: r.seq,
    ts: r.ts,
    event: r.event,
    hook_id: r.hook_id,
    harness: r.harness,
    session_id: r.session_id,
    risk: r.risk,
    decision: r.decision,
    status: r.status,
    kind: r.kind,
    [r.kind]: r.data,
    redactions: r.redactions ?? 0,
    prev_hash: r.prev_hash,
  };
}

export function buildRecord(d: RecordDraft, seq: number, prevHash: string, ts: string, key?: ChainKey, id: string = newId(), hasher?: (body: string) => string): BuiltRecord {
  const base = {
    id,
    seq,
    ts,
    event: d.event,
    hook_id: d.hook_id,
    harness: d.harness,
    session_id: d.session_id,
    risk: d.risk,
    decision: d.decision,
    status: d.status,
    kind: d.kind,
    data: d.data,
    redactions: d.redactions ?? 0,
    prev_hash: prevHash,
  };
  const body = canonicalJson(recordBody(base));
  const hash = hasher ? hasher(body) : hashBody(body, key);
  return { seq, body, hash, record: { ...base, hash } };
}
