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
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync, ftruncateSync, fdatasyncSync } from 'node:fs';
import { basename } from 'node:path';
import type { RecordDraft } from '../contract/types';
import { bulkHasher, GENESIS_HASH, loadChainKey, type ChainKey } from './chain';
import { externalCheckpointFile, readCheckpoints, type Checkpoint } from './checkpoints';
import { LedgerError } from './errors';
import { foldJournal } from './fold';
import { corruptMarkFile, DatabaseCorruptError, isCorruptionCode, quickCheck, readCorruptMark } from './integrity';
import { chainKeyFor, formatLine, ioError, journalFile, lockWaitMs, parseJournal, readChainMeta, type ChainMeta, type JournalLine } from './journal';
import { acquireJournalLock } from './journal-lock';
import { compliancePaths } from './paths';
import { buildRecord } from './record-build';
import { Ledger } from './store';

export interface RecoverResult {
  /** The files renamed aside (the corrupt database, its WAL, the mark, an old history view). */
  setAside: string[];
  /** The old chain's last record the new database continues from (seq 0: genesis). */
  anchor: { seq: number; hash: string; source: string; checkedAgainst: string[] };
  /** Records of the old file copied over (verified as a chain from seq 1), 0 when it was not readable up to the anchor. */
  salvaged: number;
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
  /** Verified rows from seq 1, in order. */
  rows: JournalLine[];
  meta: Record<string, string>;
}

/** Reads the old file as far as it reads and chains: seq 1, 2, ... each hashing to itself and linking to the previous. */
function salvage(projectDir: string, hasherFor: (meta: Record<string, string>) => ((body: string) => string) | undefined, upTo: number): Salvage {
  const out: Salvage = { rows: [], meta: {} };
  let l: Ledger | undefined;
  try {
    l = Ledger.openReadOnly(projectDir);
    try {
      out.meta = l.meta();
    } catch {
      // meta unreadable: the chain description comes from chain.json
    }
    const hasher = hasherFor(out.meta);
    if (!hasher) return out;
    const stmt = l.handle.prepare('SELECT seq, body, hash FROM records WHERE seq > ? ORDER BY seq LIMIT 2000').raw(true);
    let prev = GENESIS_HASH;
    let expected = 1;
    for (;;) {
      const batch = stmt.all(expected - 1) as [number, string, string][];
      if (!batch.length) break;
      for (const [seq, body, hash] of batch) {
        if (seq !== expected || seq > upTo || hasher(body) !== hash) return out;
        let link: unknown;
        try {
          link = (JSON.parse(body) as { prev_hash?: unknown; seq?: unknown }).prev_hash;
        } catch {
          return out;
        }
        if (link !== prev) return out;
        out.rows.push({ seq, body, hash });
        prev = hash;
        expected++;
      }
    }
  } catch {
    // the rest of the file does not read: what was read so far is what survives
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

export function recoverLedger(projectDir: string, env: NodeJS.ProcessEnv = process.env): RecoverResult {
  const paths = compliancePaths(projectDir);
  if (!existsSync(paths.db)) throw new LedgerError(`${paths.db}: no ledger database to recover`, 'missing');
  const reason = damageOf(projectDir);
  if (!reason) throw new LedgerError(`${paths.db} passes PRAGMA quick_check: nothing to recover (loom verify checks the chain)`, 'io');
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
    const old = salvage(projectDir, hasherFor, first ? anchor.seq : Number.MAX_SAFE_INTEGER);
    const chain = (described?.chain ?? old.meta.chain ?? (key ? 'hmac-sha256' : 'sha256')) as ChainMeta['chain'];
    const keyId = described ? described.key_id : (old.meta.key_id ?? (chain === 'hmac-sha256' ? key?.id : undefined));
    const useKey = chainKeyFor({ chain, key_id: keyId }, key, paths.db);
    // The checkpoints of this ledger, inside the project and in the state folder.
    const ext = externalCheckpointFile(projectDir, env);
    const cps: (Checkpoint & { file: string })[] = [];
    for (const f of ext ? [paths.checkpoints, ext] : [paths.checkpoints]) for (const c of readCheckpoints(f).checkpoints) cps.push({ ...c, file: f });
    const journalFirst = j.lines.find((l) => l.seq === 1)?.hash;
    const ledgerId = (journalFirst ?? old.rows[0]?.hash)?.slice(0, 16) ?? [...cps].reverse().find((c) => c.ledger)?.ledger;
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
      if (oldRow.hash !== anchor.hash) throw new LedgerError(`the old database's record ${anchor.seq} has hash ${oldRow.hash.slice(0, 12)}…, the ${anchor.source} names ${anchor.hash.slice(0, 12)}…: the chain was altered, nothing recovered (run loom verify on a copy)`, 'corrupt');
      if (anchor.source !== 'database') anchor.checkedAgainst.push('database');
    }
    for (const c of mine.filter((c) => c.seq === anchor.seq && anchor.seq > 0)) {
      if (c.hash !== anchor.hash) throw new LedgerError(`checkpoint in ${c.file} recorded seq ${c.seq} with hash ${c.hash.slice(0, 12)}…, the ${anchor.source} names ${anchor.hash.slice(0, 12)}…: the chain was altered, nothing recovered (run loom verify)`, 'corrupt');
      if (!anchor.source.startsWith('checkpoint') && !anchor.checkedAgainst.includes(`checkpoint in ${c.file}`)) anchor.checkedAgainst.push(`checkpoint in ${c.file}`);
    }
    // Checkpoints inside the journal's range vouch for its lines, and through their links for the anchor.
    for (const c of mine) {
      const l = j.lines.find((x) => x.seq === c.seq);
      if (!l || c.seq <= anchor.seq) continue;
      if (l.hash !== c.hash) throw new LedgerError(`checkpoint in ${c.file} recorded seq ${c.seq} with hash ${c.hash.slice(0, 12)}…, the journal holds ${l.hash.slice(0, 12)}…: the chain was altered, nothing recovered (run loom verify)`, 'corrupt');
      const w = `checkpoint at seq ${c.seq} in ${c.file}`;
      if (!anchor.checkedAgainst.includes(w)) anchor.checkedAgainst.push(w);
    }
    // Every record up to the anchor survived as a chain: the new file holds them all, nothing is lost.
    const whole = anchor.seq > 0 && old.rows.length === anchor.seq && old.rows[old.rows.length - 1].hash === anchor.hash;
    const copy = whole ? old.rows : [];
    const meta: Record<string, string> = { chain, created_at: new Date().toISOString(), genesis: GENESIS_HASH, recovered_at: new Date().toISOString(), recovered_from: basename(aside) };
    if (keyId) meta.key_id = keyId;
    if (ledgerId) meta.ledger_id = ledgerId;
    if (!whole && anchor.seq > 0) {
      meta.base_seq = String(anchor.seq + 1);
      meta.base_prev_hash = anchor.hash;
    }
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
        first_seq: whole ? 1 : anchor.seq + 1,
        salvaged: copy.length,
        readable_in_old_file: old.rows.length,
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
    result = { setAside, anchor, salvaged: copy.length, readable: old.rows.length, refolded: 0, recoverySeq: rec.seq, reason, warnings };
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

