// loom erase: a secret that slipped past redaction is removed from every
// copy under .loom/ (journal, database and its WAL, history.json and its
// segments) while `loom verify` still proves the chain.
//
// The erased record keeps its seq and its hash (the next record links to
// that hash, and checkpoints name it); only its body changes: the erased
// values become "[ERASED]". An erasure record, appended to the chain like
// any other record, names the target's seq and hash, the paths erased, the
// reason, and the hash of the body as erased (with the chain's key when the
// ledger is keyed). verify accepts a body that no longer matches its hash
// only when a later erasure record vouches for exactly that body and hash;
// any other change to it, or to the erasure record, is still an edit. The
// database's update trigger (schema 2) lets a body change only under the
// same condition. Checkpoints hold hashes only, so they stay as they are.
//
// The erasure record never holds the value: the reason is redacted, the
// paths name where it was. --match takes the value from stdin or a file,
// not from the command line (which other users see in ps).
import { existsSync, readFileSync, renameSync, rmSync } from 'node:fs';
import type { RecordDraft } from '../contract/types';
import { writeDurably } from '../util/durable-write';
import { faultPoint } from '../util/fault-point';
import { newId } from '../util/ids';
import { canonicalJson } from './canonical';
import { bulkHasher, loadChainKey, type ChainKey } from './chain';
import { foldJournal } from './fold';
import { rebuildHistory } from './history-view';
import { appendJournal, formatLine, journalFile, lockWaitMs, parseJournal } from './journal';
import { acquireJournalLock } from './journal-lock';
import { compliancePaths } from './paths';
import { redactText } from './redact';
import { Ledger, LedgerError } from './store';

export const ERASED = '[ERASED]';

export class EraseError extends Error {
  constructor(
    message: string,
    /** usage: a bad request (exit 2); nothing: nothing to erase (exit 1). */
    readonly code: 'usage' | 'nothing',
  ) {
    super(message);
  }
}

/** The JSON path of a member, in SQLite's syntax ($.a.b[0], $."odd key"), so json_extract reads it too. */
export function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${parent}.${key}` : `${parent}.${JSON.stringify(key)}`;
}

type Json = Record<string, unknown>;

/** Every string value of the record's kind object, by path, with a setter. */
function leaves(body: Json): Map<string, { value: string; set: (v: string) => void }> {
  const out = new Map<string, { value: string; set: (v: string) => void }>();
  const kind = String(body.kind);
  const walk = (v: unknown, path: string, set: (x: string) => void): void => {
    if (typeof v === 'string') out.set(path, { value: v, set });
    else if (Array.isArray(v)) v.forEach((x, i) => walk(x, childPath(path, i), (y) => (v[i] = y)));
    else if (v && typeof v === 'object') {
      const o = v as Json;
      for (const k of Object.keys(o)) walk(o[k], childPath(path, k), (y) => Object.defineProperty(o, k, { value: y, enumerable: true, writable: true, configurable: true }));
    }
  };
  walk(body[kind], childPath('$', kind), (y) => (body[kind] = y));
  return out;
}

function parseBody(text: string, seq: number): Json {
  try {
    const v = JSON.parse(text) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Json;
  } catch {
    // reported below
  }
  throw new EraseError(`seq ${seq}: the stored record is not a JSON object (run loom verify)`, 'usage');
}

export type EraseSelector = { seq: number; path: string } | { match: string };

interface Plan {
  seq: number;
  hash: string;
  paths: string[];
  body: string;
}

function plan(ledger: Ledger, sel: EraseSelector): Plan[] {
  if ('seq' in sel) {
    const row = ledger.handle.prepare('SELECT seq, body, hash FROM records WHERE seq = ?').get(sel.seq) as { seq: number; body: string; hash: string } | undefined;
    if (!row) throw new EraseError(`no record with seq ${sel.seq}`, 'usage');
    const body = parseBody(row.body, row.seq);
    if (body.kind === 'erasure') throw new EraseError(`seq ${row.seq} is an erasure record; it holds no value to erase`, 'usage');
    const all = leaves(body);
    const leaf = all.get(sel.path);
    if (!leaf) {
      const prefix = childPath('$', String(body.kind));
      const why = sel.path.startsWith(prefix) ? 'is not a string value of the record (only strings hold secrets)' : `is outside the record's ${prefix} object (only its values can be erased)`;
      throw new EraseError(`seq ${row.seq}: ${sel.path} ${why}; its string values: ${[...all.keys()].join(', ') || 'none'}`, 'usage');
    }
    if (leaf.value === ERASED) throw new EraseError(`seq ${row.seq}: ${sel.path} is already erased`, 'nothing');
    leaf.set(ERASED);
    return [{ seq: row.seq, hash: row.hash, paths: [sel.path], body: canonicalJson(body) }];
  }
  const secret = sel.match;
  if (secret.length < 6) throw new EraseError('the value to match must be at least 6 characters (a shorter one would erase unrelated text)', 'usage');
  const needle = JSON.stringify(secret).slice(1, -1);
  const rows = ledger.handle.prepare("SELECT seq, body, hash FROM records WHERE instr(body, ?) > 0 AND kind IS NOT 'erasure' ORDER BY seq").all(needle) as { seq: number; body: string; hash: string }[];
  const plans: Plan[] = [];
  for (const r of rows) {
    const body = parseBody(r.body, r.seq);
    const paths: string[] = [];
    for (const [path, leaf] of leaves(body)) {
      if (!leaf.value.includes(secret)) continue;
      leaf.set(leaf.value.split(secret).join(ERASED));
      paths.push(path);
    }
    const text = canonicalJson(body);
    // The value also stands where it cannot be erased (a field of the record itself, a member name).
    if (text.includes(needle)) throw new EraseError(`seq ${r.seq}: the value also stands outside the record's values (a record field or a member name); erase what you can with --seq ${r.seq} --path`, 'usage');
    if (paths.length) plans.push({ seq: r.seq, hash: r.hash, paths, body: text });
  }
  if (!plans.length) throw new EraseError('no record holds that value', 'nothing');
  return plans;
}

export interface EraseResult {
  erased: { seq: number; paths: string[] }[];
  erasureSeqs: number[];
  warnings: string[];
}

export function erase(projectDir: string, sel: EraseSelector, reason: string, env: NodeJS.ProcessEnv = process.env): EraseResult {
  if (!reason.trim()) throw new EraseError('--reason is required: say why the value is erased (it is recorded)', 'usage');
  const key: ChainKey | undefined = loadChainKey(projectDir, env);
  const paths = compliancePaths(projectDir);
  // Nothing recorded here: say so, and make no ledger (an erase must not create the database it was to clean).
  if (!existsSync(paths.db) && !existsSync(journalFile(paths))) throw new LedgerError(`${paths.db}: no ledger database`, 'missing');
  const result: EraseResult = { erased: [], erasureSeqs: [], warnings: [] };
  // 1. Everything into the database first: the value may still be only in the journal.
  const f1 = foldJournal(projectDir, { key });
  if (f1.problems.length) throw new LedgerError(`the journal cannot be folded (${f1.problems[0]}); nothing erased`, 'corrupt');
  result.warnings.push(...f1.warnings);
  let ledger = Ledger.openForAppend(projectDir, key);
  let plans: Plan[];
  let hasher: (body: string) => string;
  try {
    const keyed = ledger.meta().chain === 'hmac-sha256';
    hasher = bulkHasher(keyed ? key : undefined);
    try {
      plans = plan(ledger, sel);
    } catch (e) {
      // Nothing (left) to erase: an earlier erase may have been killed after changing the bodies and
      // before the other copies were scrubbed; finishing that costs little and leaves no old bytes behind.
      if (e instanceof EraseError && e.code === 'nothing') finishInterrupted(ledger, paths, env);
      throw e;
    }
  } finally {
    ledger.close();
  }
  // 2. The erasure records, chained like any record (the journal path takes the lock and checks the key).
  const why = redactText(reason.slice(0, 2000));
  const drafts: RecordDraft[] = plans.map((p) => ({
    event: 'Erasure',
    hook_id: 'loom-erase',
    harness: 'loom',
    session_id: '',
    risk: 'none',
    decision: 'erased',
    status: 'ok',
    kind: 'erasure',
    data: { target_seq: p.seq, target_hash: p.hash, erased_body_hash: hasher(p.body), paths: p.paths, method: 'seq' in sel ? 'path' : 'match', reason: why },
  }));
  const written = appendJournal(projectDir, drafts, key);
  result.erasureSeqs = written.map((r) => r.seq);
  const f2 = foldJournal(projectDir, { key, skipHistory: true });
  if (f2.problems.length) throw new LedgerError(`the erasure records are in the journal but could not be folded (${f2.problems[0]}); run loom erase again`, 'corrupt');
  faultPoint('erase:after-erasure-records');
  // 3. The bodies, under the journal lock (no hook appends meanwhile) and SQLite's write lock.
  const lock = acquireJournalLock(paths.dir, lockWaitMs(env));
  ledger = Ledger.openForAppend(projectDir, key);
  try {
    const db = ledger.handle;
    // Freed and overwritten pages are zeroed: the old value does not linger in the file.
    db.pragma('secure_delete = ON');
    const update = db.prepare('UPDATE records SET body = ? WHERE seq = ? AND hash = ?');
    db.transaction(() => {
      for (const p of plans) update.run(p.body, p.seq, p.hash);
    })();
    for (const p of plans) result.erased.push({ seq: p.seq, paths: p.paths });
    faultPoint('erase:after-bodies');
    syncJournalBodies(ledger, paths);
  } finally {
    lock.release();
  }
  faultPoint('erase:after-journal');
  try {
    scrubCopies(ledger, result.warnings);
  } finally {
    ledger.close();
  }
  return result;
}

/** A journal line whose record the database holds with the same seq and hash but another body (erased there): the database's body. */
function syncJournalBodies(ledger: Ledger, paths: ReturnType<typeof compliancePaths>): void {
  const file = journalFile(paths);
  let buf: Buffer;
  try {
    buf = readFileSync(file);
  } catch {
    return;
  }
  const j = parseJournal(file, buf);
  const row = ledger.handle.prepare('SELECT body, hash FROM records WHERE seq = ?');
  let changed = false;
  const lines = j.lines.map((l) => {
    const r = row.get(l.seq) as { body: string; hash: string } | undefined;
    if (!r || r.hash !== l.hash || r.body === l.body) return l;
    changed = true;
    return { ...l, body: r.body };
  });
  if (!changed) return;
  // Bytes after the last complete line (a torn tail) are never acknowledged: not carried over.
  // A line that is not a record (verify names it) and what follows it stay as they are.
  const good = j.lines.reduce((n, l) => n + Buffer.byteLength(formatLine(l.seq, l.hash, l.body)), 0);
  const text = lines.map((l) => formatLine(l.seq, l.hash, l.body)).join('') + buf.subarray(good, j.end).toString('utf8');
  const tmp = `${file}.${process.pid}-${newId(12)}.tmp`;
  try {
    writeDurably(tmp, text);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** The views rebuilt from the database, then the database file and its WAL rewritten without freed pages. */
function scrubCopies(ledger: Ledger, warnings: string[]): void {
  // 4. The views, then the WAL (it still holds the pages as they were).
  ledger.withWriteLock(() => rebuildHistory(ledger));
  faultPoint('erase:after-history');
  // Pages freed before (a fold's page splits) may still hold the old bytes: VACUUM rewrites the file
  // without them, then the WAL, which holds the pages as VACUUM wrote them, is emptied into it.
  ledger.handle.exec('VACUUM');
  faultPoint('erase:after-vacuum');
  const ck = ledger.handle.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
  if (ck[0]?.busy) warnings.push('the WAL could not be emptied (another process is reading the ledger); run loom erase again later, or loom fold, to flush it');
}

/** The steps after the bodies changed, for an erase that was interrupted before them. */
function finishInterrupted(ledger: Ledger, paths: ReturnType<typeof compliancePaths>, env: NodeJS.ProcessEnv): void {
  const lock = acquireJournalLock(paths.dir, lockWaitMs(env));
  try {
    syncJournalBodies(ledger, paths);
  } finally {
    lock.release();
  }
  scrubCopies(ledger, []);
}
