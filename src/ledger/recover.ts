// loom recover: a corrupt ledger database is set aside (renamed, never
// deleted) and replaced by a new one that continues the same chain. The new
// database starts where the evidence that survives can vouch for it:
// - every record of the old file when it still reads back as an unbroken
//   chain up to the journal (a damaged index, a stray page: nothing lost);
// - else at the journal's first line, whose prev_hash names the old chain's
//   last good head (seq and hash), checked against the old file's rows and the
//   checkpoints (inside the project and in the state folder) where they reach;
// - with no journal, at the newest checkpoint (or the old file's last
//   readable record).
// The journal is then folded into it, and a `recovery` record is appended to
// the chain, naming the anchor, the file set aside and the reason. verify
// walks the new database from the anchor and requires that record, so a
// reviewer sees a recovery where the chain restarts, never a silent one.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync, ftruncateSync, fdatasyncSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { RecordDraft } from '../contract/types';
import { bulkHasher, GENESIS_HASH, loadChainKey, type ChainKey } from './chain';
import { externalCheckpointFile, readCheckpoints, witnessAppend, type Checkpoint } from './checkpoints';
import { LedgerError } from './errors';
import { foldJournal } from './fold';
import { readCurrentLines } from './history-view';
import { corruptMarkFile, DatabaseCorruptError, isCorruptionCode, quickCheck, readCorruptMark } from './integrity';
import { appendJournal, chainKeyFor, formatLine, ioError, journalFile, lockWaitMs, parseJournal, readChainMeta, type ChainMeta, type JournalLine } from './journal';
import { acquireJournalLock } from './journal-lock';
import { compliancePaths } from './paths';
import { buildRecord } from './record-build';
import { Ledger } from './store';
import { redactText } from './redact-gate';
import { verifyLedger } from './verify';

export interface RecoverResult {
  /** The files renamed aside (the corrupt database, its WAL, the mark, an old history view). */
  setAside: string[];
  /** The old chain's last record the new database continues from (seq 0: genesis). */
  anchor: { seq: number; hash: string; source: string; checkedAgainst: string[] };
  /** Records of the old chain copied over verbatim (from the old file, else the history view's copies), up to the anchor. */
  salvaged: number;
  /** Seq ranges of the old chain (up to the anchor) that nothing could read back: they are only in the file set aside. */
  gaps: [number, number][];
  /** Readable records of the old file (for the record: what a reader of the set-aside copy will find). */
  readable: number;
  /** Journal records folded into the new database. */
  refolded: number;
  recoverySeq: number;
  reason: string;
  warnings: string[];
}

/** Why the database needs recovering, or undefined when it reads as sound. */
function damageOf(projectDir: string): string | undefined {
  const paths = compliancePaths(projectDir);
  const mark = readCorruptMark(paths);
  if (mark) return mark.reason;
  let l: Ledger | undefined;
  try {
    l = Ledger.openReadOnly(projectDir);
    return quickCheck(l.handle);
  } catch (e) {
    if (e instanceof DatabaseCorruptError) return e.detail;
    if (isCorruptionCode(e)) return (e as Error).message;
    throw e;
  } finally {
    l?.close();
  }
}

interface Salvage {
  /** Records vouched for (each body hashing to its hash, linking to its readable neighbours), in seq order; gaps where nothing could be read. */
  rows: JournalLine[];
  meta: Record<string, string>;
  /** Of rows: how many came from the old database (the rest from the history view's copies). */
  fromDatabase: number;
  fromHistory: Set<number>;
}

/** A history line (the body with its hash appended, history-view.ts) back to the body and hash, verbatim. */
function fromHistoryLine(text: string): { seq: number; body: string; hash: string } | undefined {
  const m = /,"hash":"([0-9a-f]{64})"\}$/.exec(text);
  if (!m) return undefined;
  const body = text.slice(0, m.index) + '}';
  try {
    const seq = (JSON.parse(body) as { seq?: unknown }).seq;
    return typeof seq === 'number' && Number.isInteger(seq) && seq > 0 ? { seq, body, hash: m[1] } : undefined;
  } catch {
    return undefined;
  }
}

/** history.json and its segments, whatever of them still parses: the reviewer's copies of the record bodies. */
function historyCopies(projectDir: string): { seq: number; body: string; hash: string }[] {
  const paths = compliancePaths(projectDir);
  const files = [paths.history];
  try {
    for (const f of readdirSync(paths.historyArchive)) if (/^segment-.*\.json$/.test(f)) files.push(join(paths.historyArchive, f));
  } catch {
    // no segments
  }
  const out: { seq: number; body: string; hash: string }[] = [];
  for (const f of files) {
    let lines: string[] | undefined;
    try {
      lines = readCurrentLines(f);
    } catch {
      lines = undefined;
    }
    for (const l of lines ?? []) {
      const r = fromHistoryLine(l);
      if (r) out.push(r);
    }
  }
  return out;
}

/** [first, last] ranges of the seqs in 1..upTo that rows lacks. */
export function gapsOf(rows: { seq: number }[], upTo: number): [number, number][] {
  const gaps: [number, number][] = [];
  let next = 1;
  for (const r of rows) {
    if (r.seq > upTo) break;
    if (r.seq > next) gaps.push([next, r.seq - 1]);
    next = r.seq + 1;
  }
  if (upTo >= next) gaps.push([next, upTo]);
  return gaps;
}

/**
 * Every record the old file still yields, range by range (a range SQLite cannot read is read row by row, and a
 * row it cannot read is skipped), completed from the history view's copies where the file yields nothing. A
 * record counts only when its body hashes to its hash and says its seq; two readable neighbours must link (a
 * broken link drops both: one of them was changed). Nothing above upTo.
 */
function salvage(projectDir: string, hasherFor: (meta: Record<string, string>) => ((body: string) => string) | undefined, upTo: number, hint: number): Salvage {
  const out: Salvage = { rows: [], meta: {}, fromDatabase: 0, fromHistory: new Set() };
  const found = new Map<number, { body: string; hash: string; db: boolean }>();
  let hasher: ((body: string) => string) | undefined;
  const valid = (seq: number, body: string, hash: string): boolean => {
    if (typeof body !== 'string' || typeof hash !== 'string' || seq > upTo || hasher!(body) !== hash) return false;
    try {
      const b = JSON.parse(body) as { seq?: unknown; prev_hash?: unknown };
      return b.seq === seq && typeof b.prev_hash === 'string';
    } catch {
      return false;
    }
  };
  let l: Ledger | undefined;
  try {
    l = Ledger.openReadOnly(projectDir);
  } catch {
    l = undefined;
  }
  try {
    if (l) {
      try {
        out.meta = l.meta();
      } catch {
        // meta unreadable: the chain description comes from chain.json
      }
    }
    hasher = hasherFor(out.meta);
    if (!hasher) return out;
    // A file whose schema does not read (its first page gone: "file is not a database") yields nothing; the history view still may.
    let readable = !!l;
    if (l) {
      try {
        l.handle.prepare('SELECT seq, body, hash FROM records WHERE seq = ?');
      } catch {
        readable = false;
      }
    }
    if (l && readable) {
      const db = l.handle;
      let bound = Number.isFinite(upTo) ? upTo : hint;
      let open = !Number.isFinite(upTo);
      if (open) {
        try {
          const m = (db.prepare('SELECT max(seq) AS m FROM records').get() as { m: number | null }).m ?? 0;
          bound = Math.max(bound, m);
          open = false;
        } catch {
          // the rightmost pages do not read: scan on while ranges still yield rows
        }
      }
      const range = db.prepare('SELECT seq, body, hash FROM records WHERE seq >= ? AND seq < ? ORDER BY seq').raw(true);
      const one = db.prepare('SELECT seq, body, hash FROM records WHERE seq = ?').raw(true);
      const STEP = 256;
      for (let lo = 1; lo <= bound || open; lo += STEP) {
        let rows: [number, string, string][] = [];
        let failed = false;
        try {
          rows = range.all(lo, lo + STEP) as [number, string, string][];
        } catch {
          failed = true;
          for (let s = lo; s < lo + STEP && s <= (open ? Number.MAX_SAFE_INTEGER : bound); s++) {
            try {
              const r = one.get(s) as [number, string, string] | undefined;
              if (r) rows.push(r);
            } catch {
              // this row's page does not read: a gap, unless another witness holds the record
            }
          }
        }
        for (const [seq, body, hash] of rows) if (valid(seq, body, hash)) found.set(seq, { body, hash, db: true });
        if (open && !failed && rows.length === 0 && lo > bound) open = false;
        if (open && rows.length) bound = Math.max(bound, rows[rows.length - 1][0]);
      }
    }
    // The history view's copies fill what the file does not yield (the same body and hash, checked the same way).
    for (const h of historyCopies(projectDir)) if (!found.has(h.seq) && valid(h.seq, h.body, h.hash)) found.set(h.seq, { body: h.body, hash: h.hash, db: false });
    const seqs = [...found.keys()].sort((a, b) => a - b);
    const drop = new Set<number>();
    for (const s of seqs) {
      const prev = (JSON.parse(found.get(s)!.body) as { prev_hash: string }).prev_hash;
      if (s === 1 && prev !== GENESIS_HASH) drop.add(s);
      const before = found.get(s - 1);
      if (before && before.hash !== prev) {
        drop.add(s);
        drop.add(s - 1);
      }
    }
    for (const s of seqs) {
      if (drop.has(s)) continue;
      const r = found.get(s)!;
      out.rows.push({ seq: s, body: r.body, hash: r.hash });
      if (r.db) out.fromDatabase++;
      else out.fromHistory.add(s);
    }
  } finally {
    l?.close();
  }
  return out;
}

function stamp(): string {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

function fsyncPath(p: string): void {
  const fd = openSync(p, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export interface AcknowledgeResult {
  seq: number;
  gaps: [number, number][];
  setAside: string[];
  reason: string;
  actor: Record<string, unknown>;
}

/**
 * The owner accepts that the records of a recovery's gaps are only in the file set aside: an
 * `acknowledgment` record, chained like any other, names exactly those seq ranges, the files
 * they are in, the reason and who acknowledged. verify then says recovered-with-gaps
 * (acknowledged ...) and exits 0 while still listing the gaps; an acknowledgment naming ranges
 * that are not the gaps is tampering. Refused when verify finds anything but unacknowledged gaps.
 */
export function acknowledgeGaps(projectDir: string, reason: string, actor: Record<string, unknown>, env: NodeJS.ProcessEnv = process.env): AcknowledgeResult {
  const text = reason.trim();
  if (!text) throw new LedgerError('--acknowledge needs a reason (what was lost, why it is acceptable)', 'io');
  const v = verifyLedger(projectDir, { env });
  if (v.exitCode === 0 && !v.acknowledged) throw new LedgerError(`the ledger has no unreadable gaps to acknowledge (loom verify: ${v.status})`, 'nothing');
  if (v.exitCode === 0 && v.acknowledged) throw new LedgerError(`the gaps are already acknowledged (seq ${v.acknowledged.seq} by ${v.acknowledged.by}: ${v.acknowledged.reason})`, 'nothing');
  if (v.problem?.kind !== 'recovered-with-gaps' || !v.gaps?.length) {
    throw new LedgerError(`nothing acknowledged: loom verify says ${v.problem ? `${v.problem.kind} at seq ${v.problem.seq}: ${v.problem.detail}` : v.error ?? v.status}`, v.exitCode === 1 ? 'tampered' : 'corrupt');
  }
  const gaps = v.gaps.map((g) => [g.first, g.last] as [number, number]);
  const setAside = [...new Set(v.gaps.map((g) => g.setAside))];
  const said = redactText(text).slice(0, 1000);
  const draft: RecordDraft = {
    event: 'LedgerAcknowledgment',
    hook_id: 'loom-recover',
    harness: 'loom',
    session_id: '',
    risk: 'high',
    decision: 'acknowledged',
    status: 'ok',
    kind: 'acknowledgment',
    data: { gaps, set_aside: setAside, reason: said, actor },
  };
  const [rec] = appendJournal(projectDir, [draft], loadChainKey(projectDir, env));
  foldJournal(projectDir);
  return { seq: rec.seq, gaps, setAside, reason: said, actor };
}

export function recoverLedger(projectDir: string, env: NodeJS.ProcessEnv = process.env): RecoverResult {
  const paths = compliancePaths(projectDir);
  if (!existsSync(paths.db)) throw new LedgerError(`${paths.db}: no ledger database to recover`, 'missing');
  const reason = damageOf(projectDir);
  if (!reason) throw new LedgerError(`${paths.db} passes PRAGMA quick_check: nothing to recover (loom verify checks the chain)`, 'nothing');
  const key: ChainKey | undefined = loadChainKey(projectDir, env);
  const warnings: string[] = [];
  const when = stamp();
  const aside = `${paths.db}.corrupt-${when}`;
  const building = `${paths.db}.recovering-${process.pid}`;
  const file = journalFile(paths);
  const lock = acquireJournalLock(paths.dir, lockWaitMs(env));
  let result: RecoverResult;
  try {
    // The journal, under the lock: nothing is appended or folded while the database is replaced.
    let buf: Buffer;
    try {
      buf = readFileSync(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw ioError(file, e, 'reading the journal');
      buf = Buffer.alloc(0);
    }
    const j = parseJournal(file, buf);
    if (j.tornBytes) {
      const fd = openSync(file, 'r+');
      try {
        ftruncateSync(fd, j.end);
      } finally {
        closeSync(fd);
      }
    }
    if (j.bad) warnings.push(`${file}:${j.bad.line}: not a journal record; the lines from there on stay in the journal (run loom verify)`);
    const described: ChainMeta | undefined = readChainMeta(paths);
    const hasherFor = (m: Record<string, string>) => {
      const chain = (described?.chain ?? m.chain ?? (key ? 'hmac-sha256' : 'sha256')) as ChainMeta['chain'];
      if (chain === 'hmac-sha256' && !key) return undefined;
      return bulkHasher(chain === 'hmac-sha256' ? key : undefined);
    };
    const first = j.lines[0];
    let anchor: RecoverResult['anchor'];
    if (first) {
      let prev: unknown;
      try {
        prev = (JSON.parse(first.body) as { prev_hash?: unknown }).prev_hash;
      } catch {
        prev = undefined;
      }
      if (typeof prev !== 'string' || !/^[0-9a-f]{64}$/.test(prev)) throw new LedgerError(`${file}: the first journal line names no previous hash; nothing recovered (run loom verify)`, 'corrupt');
      anchor = { seq: first.seq - 1, hash: prev, source: 'journal', checkedAgainst: [] };
    } else anchor = { seq: 0, hash: GENESIS_HASH, source: 'genesis', checkedAgainst: [] };
    let hint = 0;
    for (const f of [paths.checkpoints, externalCheckpointFile(projectDir, env)]) if (f) for (const c of readCheckpoints(f).checkpoints) hint = Math.max(hint, c.seq);
    const old = salvage(projectDir, hasherFor, first ? anchor.seq : Number.POSITIVE_INFINITY, hint);
    const chain = (described?.chain ?? old.meta.chain ?? (key ? 'hmac-sha256' : 'sha256')) as ChainMeta['chain'];
    const keyId = described ? described.key_id : (old.meta.key_id ?? (chain === 'hmac-sha256' ? key?.id : undefined));
    const useKey = chainKeyFor({ chain, key_id: keyId }, key, paths.db);
    // The checkpoints of this ledger, inside the project and in the state folder.
    const ext = externalCheckpointFile(projectDir, env);
    const cps: (Checkpoint & { file: string })[] = [];
    for (const f of ext ? [paths.checkpoints, ext] : [paths.checkpoints]) for (const c of readCheckpoints(f).checkpoints) cps.push({ ...c, file: f });
    const journalFirst = j.lines.find((l) => l.seq === 1)?.hash;
    const ledgerId = (journalFirst ?? old.rows.find((r) => r.seq === 1)?.hash)?.slice(0, 16) ?? [...cps].reverse().find((c) => c.ledger)?.ledger;
    const mine = cps.filter((c) => c.ledger === undefined || c.ledger === ledgerId);
    if (!first) {
      // No journal to continue: the newest of the old file's last verified record and the newest checkpoint.
      const newest = mine.reduce<(Checkpoint & { file: string }) | undefined>((m, c) => (!m || c.seq > m.seq ? c : m), undefined);
      const lastRow = old.rows[old.rows.length - 1];
      if (newest && newest.seq > (lastRow?.seq ?? 0)) anchor = { seq: newest.seq, hash: newest.hash, source: `checkpoint in ${newest.file}`, checkedAgainst: [] };
      else if (lastRow) anchor = { seq: lastRow.seq, hash: lastRow.hash, source: 'database', checkedAgainst: [] };
    }
    // The anchor against every other witness that reaches it: a disagreement is tampering, not damage.
    const oldRow = old.rows.find((r) => r.seq === anchor.seq);
    if (oldRow) {
      if (oldRow.hash !== anchor.hash) throw new LedgerError(`the old database's record ${anchor.seq} has hash ${oldRow.hash.slice(0, 12)}…, the ${anchor.source} names ${anchor.hash.slice(0, 12)}…: the chain was altered, nothing recovered (run loom verify on a copy)`, 'tampered');
      if (anchor.source !== 'database') anchor.checkedAgainst.push('database');
    }
    for (const c of mine.filter((c) => c.seq === anchor.seq && anchor.seq > 0)) {
      if (c.hash !== anchor.hash) throw new LedgerError(`checkpoint in ${c.file} recorded seq ${c.seq} with hash ${c.hash.slice(0, 12)}…, the ${anchor.source} names ${anchor.hash.slice(0, 12)}…: the chain was altered, nothing recovered (run loom verify)`, 'tampered');
      if (!anchor.source.startsWith('checkpoint') && !anchor.checkedAgainst.includes(`checkpoint in ${c.file}`)) anchor.checkedAgainst.push(`checkpoint in ${c.file}`);
    }
    // Checkpoints inside the journal's range vouch for its lines, and through their links for the anchor.
    for (const c of mine) {
      const l = j.lines.find((x) => x.seq === c.seq);
      if (!l || c.seq <= anchor.seq) continue;
      if (l.hash !== c.hash) throw new LedgerError(`checkpoint in ${c.file} recorded seq ${c.seq} with hash ${c.hash.slice(0, 12)}…, the journal holds ${l.hash.slice(0, 12)}…: the chain was altered, nothing recovered (run loom verify)`, 'tampered');
      const w = `checkpoint at seq ${c.seq} in ${c.file}`;
      if (!anchor.checkedAgainst.includes(w)) anchor.checkedAgainst.push(w);
    }
    // Every record up to the anchor that survives is copied verbatim; what does not is a gap, named in the recovery record.
    const copy = old.rows.filter((r) => r.seq <= anchor.seq);
    const gaps = gapsOf(copy, anchor.seq);
    const whole = anchor.seq > 0 && gaps.length === 0;
    const meta: Record<string, string> = { chain, created_at: new Date().toISOString(), genesis: GENESIS_HASH, recovered_at: new Date().toISOString(), recovered_from: basename(aside) };
    if (keyId) meta.key_id = keyId;
    if (ledgerId) meta.ledger_id = ledgerId;
    if (!copy.length && anchor.seq > 0) {
      meta.base_seq = String(anchor.seq + 1);
      meta.base_prev_hash = anchor.hash;
    } else if (gaps.length) meta.gaps = JSON.stringify(gaps);
    rmSync(building, { force: true });
    const db = Ledger.createFile(building, meta);
    try {
      const ins = db.prepare('INSERT INTO records (seq, body, hash) VALUES (?,?,?)');
      db.transaction(() => {
        for (const r of copy) ins.run(r.seq, r.body, r.hash);
      })();
    } finally {
      db.close();
    }
    fsyncPath(building);
    // The recovery record, chained onto the journal's last line (or the anchor): durable before the swap, so
    // a recover killed half-way leaves the old file marked and a second run completes.
    const head = j.lines.length ? j.lines[j.lines.length - 1] : { seq: anchor.seq, hash: anchor.hash };
    const draft: RecordDraft = {
      event: 'LedgerRecovery',
      hook_id: 'loom-recover',
      harness: 'loom',
      session_id: '',
      risk: 'high',
      decision: 'recovered',
      status: 'ok',
      kind: 'recovery',
      data: {
        reason: reason.slice(0, 500),
        set_aside: basename(aside),
        anchor_seq: anchor.seq,
        anchor_hash: anchor.hash,
        anchor_source: anchor.source,
        anchor_checked_against: anchor.checkedAgainst,
        first_seq: copy.length ? copy[0].seq : anchor.seq + 1,
        salvaged: copy.length,
        salvaged_from_history: copy.filter((r) => old.fromHistory.has(r.seq)).length,
        readable_in_old_file: old.fromDatabase,
        gaps,
      },
    };
    const rec = buildRecord(draft, head.seq + 1, head.hash, new Date().toISOString(), useKey);
    const jfd = openSync(file, 'a', 0o600);
    try {
      const line = Buffer.from(formatLine(rec.seq, rec.hash, rec.body));
      let off = 0;
      while (off < line.length) off += writeSync(jfd, line, off, line.length - off);
      fdatasyncSync(jfd);
    } finally {
      closeSync(jfd);
    }
    const w = witnessAppend(projectDir, rec.seq, rec.hash, env);
    if (w) warnings.push(w);
    // The swap: the damaged file (with its WAL) and its mark go aside under one name; the new file takes its place.
    const setAside: string[] = [];
    for (const [from, to] of [
      [paths.db, aside],
      [`${paths.db}-wal`, `${aside}-wal`],
      [`${paths.db}-shm`, `${aside}-shm`],
      [corruptMarkFile(paths), `${aside}.json`],
    ]) {
      if (!existsSync(from)) continue;
      renameSync(from, to);
      setAside.push(to);
    }
    renameSync(building, paths.db);
    // The old view holds the records before the anchor: kept beside the new one, which is rebuilt from the new file.
    if (!whole) {
      for (const [from, to] of [
        [paths.history, `${paths.history}.aside-${when}`],
        [paths.historyArchive, `${paths.historyArchive}.aside-${when}`],
      ]) {
        if (!existsSync(from)) continue;
        renameSync(from, to);
        setAside.push(to);
      }
    }
    fsyncPath(paths.dir);
    result = { setAside, anchor, salvaged: copy.length, gaps, readable: old.fromDatabase, refolded: 0, recoverySeq: rec.seq, reason, warnings };
  } catch (e) {
    rmSync(building, { force: true });
    throw e;
  } finally {
    lock.release();
  }
  const f = foldJournal(projectDir, { key });
  result.refolded = f.folded;
  result.warnings.push(...f.problems, ...f.warnings);
  return result;
}

