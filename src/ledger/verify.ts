// loom verify: recompute the chain from seq 1 and compare the head with every
// checkpoint. Exit 0 intact, 1 tampered (first bad seq and kind), 2 cannot verify.
import { bulkHasher, loadChainKey, KeyError, type ChainKey } from './chain';
import { checkpointMacValid, describeDisagreement, externalCheckpointFile, readAppendWitnessLines, readCheckpoints, readHeadWitnesses, witnessDisagreements, type Checkpoint } from './checkpoints';
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { corruptMessage, DatabaseCorruptError, isCorruptionCode, markCorrupt, quickCheck, readCorruptMark, type CorruptMark } from './integrity';
import { compliancePaths, type CompliancePaths } from './paths';
import { classifySqliteError, Ledger, LedgerError } from './store';
import { chainMetaFile, readChainMeta, readJournal, type ChainMeta, type JournalRead } from './journal';
import { ledgerIdentityOf, sourceOf } from './ledger-identity';
import { HistoryCheck } from './verify-history';
import { downgradeFinding, missingLedgerFinding, restartedFinding, sameLedger } from './verify-evidence';

export type TamperKind = 'edited' | 'deleted' | 'inserted' | 'reordered' | 'tail-cut' | 'head-cut' | 'wrong-key' | 'rewritten' | 'checkpoint-forged' | 'downgraded' | 'ledger-missing' | 'restarted' | 'history-edited' | 'history-missing' | 'history-extra' | 'recovered-with-gaps' | 'acknowledgment-mismatch';

export interface VerifyResult {
  status: 'intact' | 'tampered' | 'cannot-verify';
  exitCode: 0 | 1 | 2;
  chain?: string;
  records: number;
  head?: { seq: number; hash: string };
  problem?: { seq: number; kind: TamperKind; detail: string };
  error?: string;
  checkpoints: { files: string[]; count: number; latestSeq: number | null };
  /** Records whose values were erased (loom erase), each vouched for by a later erasure record in the chain. */
  erased: { seq: number; paths: string[]; by: number }[];
  /** Recoveries in the chain (loom recover): where each starts, what it continues and the file set aside. */
  recovered?: { seq: number; firstSeq: number; anchor: { seq: number; hash: string }; setAside: string; salvaged: number; gaps: [number, number][] }[];
  /** Seq ranges of the chain that are only in a file set aside by loom recover (verify exits 1, kind recovered-with-gaps). */
  gaps?: { first: number; last: number; setAside: string }[];
  /** The gaps are accepted by an acknowledgment record in the chain (loom recover --acknowledge): exit 0, gaps still listed. */
  acknowledged?: { seq: number; by: string; reason: string; ts: string; detail: string };
  /** Lines in the journal, and how many of them are not in the database yet. */
  journal?: { lines: number; unfolded: number };
  /** Lines of history.json and its segments compared with their records. */
  history?: { checked: number };
  warnings: string[];
}

interface Row {
  seq: number;
  body: string;
  hash: string;
  parsed?: Record<string, unknown> | null;
}

function parse(row: Row): Record<string, unknown> | null {
  if (row.parsed !== undefined) return row.parsed ?? null;
  let parsed: Record<string, unknown> | null = null;
  try {
    const v = JSON.parse(row.body);
    if (v && typeof v === 'object' && !Array.isArray(v)) parsed = v;
  } catch {
    parsed = null;
  }
  row.parsed = parsed;
  return parsed;
}

interface Erasure {
  seq: number;
  targetHash: string;
  erasedBodyHash: string;
  paths: string[];
}

/** Erasure records by the seq they erase (read ahead: they come later in the chain than their target). */
function erasureIndex(ledger: Ledger, journal: JournalRead): Map<number, Erasure[]> {
  const out = new Map<number, Erasure[]>();
  const add = (seq: number, body: string): void => {
    let e: Record<string, unknown> | undefined;
    try {
      const b = JSON.parse(body) as { kind?: unknown; erasure?: Record<string, unknown> };
      e = b.kind === 'erasure' ? b.erasure : undefined;
    } catch {
      return;
    }
    if (!e || typeof e.target_seq !== 'number' || e.target_seq >= seq || typeof e.target_hash !== 'string' || typeof e.erased_body_hash !== 'string') return;
    const list = out.get(e.target_seq) ?? [];
    list.push({ seq, targetHash: e.target_hash, erasedBodyHash: e.erased_body_hash, paths: Array.isArray(e.paths) ? e.paths.map(String) : [] });
    out.set(e.target_seq, list);
  };
  // instr, not the generated kind column: json_extract would fail on a body that is not JSON (verify reports that as an edit).
  for (const r of ledger.handle.prepare(`SELECT seq, body FROM records WHERE instr(body, '"kind":"erasure"') > 0`).all() as { seq: number; body: string }[]) add(r.seq, r.body);
  for (const l of journal.lines) if (l.body.includes('"kind":"erasure"')) add(l.seq, l.body);
  return out;
}

export interface VerifyOptions {
  env?: NodeJS.ProcessEnv;
  onProgress?: (done: number, total: number) => void;
  /** Called with each record that checked out, parsed, in seq order: one pass serves verify and a report. */
  onRecord?: (record: Record<string, unknown>, hash: string, body?: string) => void;
}

/**
 * The chain first (a byte changed in a record is tampering, even where it
 * also upsets an index), then the file's pages: a chain that reads as
 * intact from a file SQLite finds damaged (PRAGMA quick_check), or one
 * already marked corrupt, cannot be vouched for (a malformed page can hide
 * rows from the walk): exit 2, corrupt, in one line.
 */
export function verifyLedger(projectDir: string, opts: VerifyOptions = {}): VerifyResult {
  let r = walkLedger(projectDir, opts);
  // A checkpoint written by a fold that ran between this walk's reads can name a record the walk's read preceded:
  // a cut tail stays cut on a second walk, a race does not.
  if (r.status === 'tampered' && r.problem?.kind === 'tail-cut') r = walkLedger(projectDir, opts);
  if (r.status === 'tampered') return r;
  const paths = compliancePaths(projectDir);
  const cannot = (mark: CorruptMark): VerifyResult => ({ ...r, status: 'cannot-verify', exitCode: 2, error: corruptMessage(paths, mark) });
  const mark = readCorruptMark(paths);
  if (mark) return cannot(mark);
  // A history set aside by a fold (it was ahead of the database, or unreadable) is evidence: a view that held
  // records the ledger no longer holds is a cut tail, whichever command's fold moved it aside.
  if (r.status === 'intact') {
    const aside = asideHistoryFinding(paths.dir, r.head?.seq ?? 0);
    if (aside?.kind) return { ...r, status: 'tampered', exitCode: 1, problem: { seq: (r.head?.seq ?? 0) + 1, kind: aside.kind, detail: aside.detail } };
    if (aside) r.warnings.push(aside.detail);
  }
  if (r.status !== 'intact' || !r.records || !existsSync(paths.db)) return r;
  let l: Ledger | undefined;
  try {
    l = Ledger.openReadOnly(projectDir);
    const damage = quickCheck(l.handle);
    if (damage) return cannot(markCorrupt(paths, damage, 'verify'));
  } catch (e) {
    if (e instanceof DatabaseCorruptError) return cannot(markCorrupt(paths, e.detail, 'verify'));
    if (isCorruptionCode(e)) return cannot(markCorrupt(paths, (e as Error).message, 'verify'));
    r.warnings.push(`the database's pages could not be checked: ${(e as Error).message.split('\n')[0]}`);
  } finally {
    l?.close();
  }
  return r;
}

/** history.json copies set aside (`history.json.aside-<time>`): one holding seqs past the head is a cut tail; an unreadable one is named. */
function asideHistoryFinding(dir: string, headSeq: number): { kind?: TamperKind; detail: string } | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((f) => /^history\.json\.aside-[\w-]{1,40}$/.test(f)).sort().slice(-32);
  } catch {
    return undefined;
  }
  const unreadable: string[] = [];
  for (const name of names) {
    const file = join(dir, name);
    let last: number | undefined;
    try {
      // The last record's line is enough: the view is written in seq order.
      const fd = openSync(file, 'r');
      try {
        const size = fstatSync(fd).size;
        const buf = Buffer.alloc(Math.min(size, 1 << 20));
        readSync(fd, buf, 0, buf.length, size - buf.length);
        const m = [...buf.toString('utf8').matchAll(/"seq":(\d{1,15})[,}]/g)].pop();
        last = m ? Number(m[1]) : undefined;
      } finally {
        closeSync(fd);
      }
    } catch {
      last = undefined;
    }
    if (last === undefined) unreadable.push(file);
    else if (last > headSeq) return { kind: 'tail-cut', detail: `${file}, a history.json set aside by a fold, holds records up to seq ${last}; the ledger ends at seq ${headSeq}: seq ${headSeq + 1}..${last} were cut` };
  }
  return unreadable.length ? { detail: `history set aside as evidence (unreadable when it was set aside): ${unreadable.join(', ')}` } : undefined;
}

/** The prev_hash that record 2 names (the database's row, else the journal's line), or undefined. */
function secondPrevHash(ledger: Ledger, journal: JournalRead): string | undefined {
  let body: string | undefined;
  try {
    body = (ledger.handle.prepare('SELECT body FROM records WHERE seq = 2').get() as { body: string } | undefined)?.body;
  } catch {
    body = undefined;
  }
  body ??= journal.lines.find((l) => l.seq === 2)?.body;
  if (!body) return undefined;
  try {
    const p = (JSON.parse(body) as { prev_hash?: unknown }).prev_hash;
    return typeof p === 'string' && /^[0-9a-f]{64}$/.test(p) ? p : undefined;
  } catch {
    return undefined;
  }
}

function walkLedger(projectDir: string, opts: VerifyOptions): VerifyResult {
  const env = opts.env ?? process.env;
  const paths = compliancePaths(projectDir);
  const result: VerifyResult = { status: 'intact', exitCode: 0, records: 0, checkpoints: { files: [], count: 0, latestSeq: null }, erased: [], warnings: [] };
  const cannot = (error: string): VerifyResult => ({ ...result, status: 'cannot-verify', exitCode: 2, error });
  const tampered = (seq: number, kind: TamperKind, detail: string): VerifyResult => ({ ...result, status: 'tampered', exitCode: 1, problem: { seq, kind, detail } });

  let key: ChainKey | undefined;
  try {
    key = loadChainKey(projectDir, env);
  } catch (e) {
    if (e instanceof KeyError) return cannot(e.message);
    throw e;
  }
  // The witnesses outside the project first: writers move them on as they append, so one read after the chain could
  // see records the chain read before it did not hold yet (a false tail-cut while hooks run). Read first, they can only lag.
  const witnessesFirst = readHeadWitnesses(projectDir, env);
  const appendWitnessFirst = readAppendWitnessLines(projectDir, env);
  // The journal is the chain's newest part (records not folded yet): read it first, so a fold racing this read cannot hide a record between the two.
  let journal: JournalRead;
  try {
    journal = readJournal(projectDir);
  } catch (e) {
    return cannot(e instanceof LedgerError ? e.message : String(e));
  }
  let ledger: Ledger;
  try {
    ledger = Ledger.openReadOnly(projectDir);
  } catch (e) {
    if (!(e instanceof LedgerError && e.code === 'missing' && journal.lines.length)) {
      if (e instanceof LedgerError && e.code === 'missing') {
        const gone = missingLedgerFinding(projectDir, env);
        if (gone) return tampered(gone.seq, gone.kind, gone.detail);
      }
      if (e instanceof DatabaseCorruptError) return cannot(corruptMessage(paths, markCorrupt(paths, e.detail, 'verify')));
      return cannot(e instanceof LedgerError ? e.message : String(e));
    }
    // The journal keeps at least the head line after a fold: starting past seq 1 with no database, it continues one that was deleted.
    if (journal.lines[0].seq > 1) {
      const gone = missingLedgerFinding(projectDir, env);
      return tampered(1, 'ledger-missing', `the ledger database ${paths.db} is gone; the journal continues at seq ${journal.lines[0].seq}${gone ? ` (${gone.detail})` : ''}`);
    }
    const described = chainDescription(paths);
    if (described.problem) return tampered(1, 'edited', `${chainMetaFile(paths)}: ${described.problem}: every hook refuses to append until it is fixed (write {"chain":"sha256"} back for a ledger without a key, {"chain":"hmac-sha256","key_id":"…"} for a keyed one)`);
    ledger = Ledger.openEmpty(projectDir, described.meta);
  }
  try {
    let meta: Record<string, string>;
    let total: number;
    try {
      meta = ledger.meta();
      total = (ledger.handle.prepare('SELECT count(*) AS n FROM records').get() as { n: number }).n + journal.lines.length;
    } catch (e) {
      if (isCorruptionCode(e)) return cannot(corruptMessage(paths, markCorrupt(paths, (e as Error).message, 'verify')));
      return cannot(`${paths.db}: unreadable (${(e as Error).message})`);
    }
    result.chain = meta.chain;
    if (meta.chain !== 'sha256' && meta.chain !== 'hmac-sha256') return cannot(`${paths.db}: unknown chain mode ${JSON.stringify(meta.chain)}`);
    const keyed = meta.chain === 'hmac-sha256';
    if (keyed && !key) return cannot('the ledger is keyed (HMAC-SHA-256): set LOOM_LEDGER_KEY or LOOM_LEDGER_KEY_FILE to verify it');
    const chainKey = keyed ? key : undefined;
    const hasher = bulkHasher(chainKey);
    if (chainKey && meta.key_id && meta.key_id !== chainKey.id) return tampered(1, 'wrong-key', `the ledger was keyed with key ${meta.key_id}, not the given key ${chainKey.id}`);

    // Checkpoints: compared against the chain as it streams past.
    const files = [paths.checkpoints];
    const ext = externalCheckpointFile(projectDir, env);
    if (ext) files.push(ext);
    const bySeq = new Map<number, Checkpoint[]>();
    let latest: Checkpoint | undefined;
    let ledgerId = ledgerIdentityOf(projectDir, undefined, () => sourceOf(ledger)).ledger;
    // Record 1 changed and re-hashed gives "another" ledger id, yet record 2 still links to the original
    // seq 1 hash: the same ledger with an edited first record (the walk names it), not a restart.
    const second = secondPrevHash(ledger, journal);
    const original = second ? second.slice(0, 16) : undefined;
    if (original && ledgerId && original !== ledgerId && ext && readCheckpoints(ext).checkpoints.some((c) => c.ledger === original)) ledgerId = original;
    const allLines: Checkpoint[] = [];
    let restarted: ReturnType<typeof restartedFinding>;
    for (const f of files) {
      const r = readCheckpoints(f);
      allLines.push(...r.checkpoints);
      if (f === ext) restarted = restartedFinding(ledgerId, r.checkpoints, f);
      r.checkpoints = r.checkpoints.filter((c) => sameLedger(c, ledgerId));
      result.warnings.push(...r.problems);
      if (r.checkpoints.length) result.checkpoints.files.push(f);
      for (const c of r.checkpoints) {
        if (chainKey && !checkpointMacValid(c, chainKey)) return tampered(c.seq, 'checkpoint-forged', `${f}: checkpoint for seq ${c.seq} has no valid HMAC`);
        result.checkpoints.count++;
        const list = bySeq.get(c.seq) ?? [];
        list.push(c);
        bySeq.set(c.seq, list);
        if (!latest || c.seq > latest.seq) latest = c;
      }
    }
    result.checkpoints.latestSeq = latest ? latest.seq : null;
    // Checkpoints in the project whose copies outside it are gone: the outside copy is what proves a deleted or
    // rebuilt ledger, so their absence is said (the next checkpoint writes a new copy; what was removed stays removed).
    if (ext && result.checkpoints.files.includes(paths.checkpoints) && !result.checkpoints.files.includes(ext)) {
      result.warnings.push(`the outside copies of this ledger's checkpoints are missing (${ext}): its checkpoints live only inside the project, where whoever can rewrite the ledger can rewrite them too`);
    }
    const downgraded = downgradeFinding(meta, key, allLines);
    if (downgraded) return tampered(downgraded.seq, downgraded.kind, downgraded.detail);
    // A rebuilt chain also has another first record: the downgrade is the better name for it, so it goes first.
    if (restarted) return tampered(restarted.seq, restarted.kind, restarted.detail);

    // Built on the first body that does not match its hash: scanning every body for erasures costs
    // a third of a verify, and an intact, never erased ledger needs none of it.
    let erasures: Map<number, Erasure[]> | undefined;
    // Batches of raw rows: far cheaper than one object per row through iterate().
    const stmt = ledger.handle.prepare('SELECT seq, body, hash FROM records WHERE seq > ? ORDER BY seq LIMIT 5000').raw(true);
    /** Does the row stored at `other` claim to be record `at`? Then the two traded places (a swap at any distance). */
    const swappedWith = (at: number, other: number): boolean => {
      const r = ledger.handle.prepare('SELECT body FROM records WHERE seq = ?').get(other) as { body: string } | undefined;
      if (!r) return false;
      try {
        return (JSON.parse(r.body) as { seq?: unknown }).seq === at;
      } catch {
        return false;
      }
    };
    const history = new HistoryCheck(paths);
    // A recovered database starts at the old chain's anchor; a recovery record in the chain must name it.
    const base = ledger.base();
    let expected = base.seq;
    let prevHash = base.prevHash;
    const recoveries: NonNullable<VerifyResult['recovered']> = [];
    /** Acknowledgment records (loom recover --acknowledge): the owner accepts named gaps. */
    const acks: { seq: number; gaps: [number, number][]; reason: string; by: string; ts: string }[] = [];
    // Seq ranges a recovery could not read back (meta gaps): the walk steps over one only where the meta names exactly it.
    const gapEnd = new Map(ledger.gaps().map((g) => [g[0], g[1]] as const));
    const crossed: [number, number][] = [];
    let erasedRow = false;
    for (const c of bySeq.get(base.seq - 1) ?? []) {
      if (base.seq > 1 && c.hash !== base.prevHash) return tampered(c.seq, 'rewritten', `checkpoint at seq ${c.seq} recorded hash ${c.hash.slice(0, 12)}…, the recovered ledger continues from ${base.prevHash.slice(0, 12)}…`);
    }
    let prevTs = '';
    let backwards = 0;
    let pending: Row | undefined;
    let done = 0;
    const step = Math.max(1, Math.floor(total / 100));

    const check = (row: Row, next: Row | undefined): VerifyResult | undefined => {
      if (row.seq > expected && gapEnd.get(expected) === row.seq - 1) {
        // The link across cannot be checked (the records before it are unreadable); a recovery record must name the gap.
        crossed.push([expected, row.seq - 1]);
        const p = parse(row)?.prev_hash;
        prevHash = typeof p === 'string' ? p : '';
        expected = row.seq;
      }
      if (row.seq > expected) {
        return expected === 1 ? tampered(1, 'head-cut', `the ledger starts at seq ${row.seq}; seq 1..${row.seq - 1} are gone`) : tampered(expected, 'deleted', `seq ${expected} is missing (next stored seq is ${row.seq})`);
      }
      const b = parse(row);
      if (!b) return tampered(row.seq, 'edited', 'the stored record is not valid JSON');
      const bseq = b.seq;
      if (next && parse(next)?.seq === bseq && typeof bseq === 'number') return tampered(row.seq, 'inserted', `a record not in the chain was inserted at seq ${row.seq}`);
      if (bseq !== row.seq) {
        if (bseq === row.seq + 1 && next && parse(next)?.seq === row.seq) return tampered(row.seq, 'reordered', `records ${row.seq} and ${row.seq + 1} swapped places`);
        const swapped = typeof bseq === 'number' ? swappedWith(row.seq, bseq) : false;
        if (swapped) return tampered(row.seq, 'reordered', `records ${row.seq} and ${String(bseq)} swapped places`);
        if (typeof bseq === 'number' && bseq > row.seq) return tampered(row.seq, 'deleted', `the record stored at seq ${row.seq} is record ${bseq}: earlier records were removed and the rest renumbered`);
        return tampered(row.seq, 'inserted', `the record stored at seq ${row.seq} says it is seq ${String(bseq)}: a record was inserted before it`);
      }
      if (hasher(row.body) !== row.hash) {
        // An erased record: its body changed, its hash did not. A later erasure record (checked in its turn)
        // names this seq, this hash and the hash of the body as erased; any other change is an edit.
        const bodyHash = hasher(row.body);
        erasures ??= erasureIndex(ledger, journal);
        const by = erasures.get(row.seq)?.find((e) => e.targetHash === row.hash && e.erasedBodyHash === bodyHash);
        if (!by) return tampered(row.seq, 'edited', 'the record does not match its hash');
        result.erased.push({ seq: row.seq, paths: by.paths, by: by.seq });
        erasedRow = true;
      }
      // Seqs are contiguous here (a gap or a renumbering was caught above), so a broken link means the
      // previous record was replaced by one whose hash was recomputed: an edit, made to look consistent.
      if (b.prev_hash !== prevHash && row.seq === base.seq && base.seq > 1) return tampered(row.seq, 'edited', `record ${row.seq} does not continue the anchor the recovered ledger names (${base.prevHash.slice(0, 12)}…)`);
      if (b.prev_hash !== prevHash) return row.seq > 1 ? tampered(row.seq - 1, 'edited', `record ${row.seq - 1} was changed and its hash recomputed: record ${row.seq} still links to the original`) : tampered(row.seq, 'edited', 'the first record does not start from the genesis hash');
      for (const c of bySeq.get(row.seq) ?? []) {
        // The next record still linking to the checkpointed hash: this one record was changed and re-hashed, not the chain rebuilt.
        if (c.hash !== row.hash && next && parse(next)?.prev_hash === c.hash) return tampered(row.seq, 'edited', `record ${row.seq} was changed and its hash recomputed: its checkpoint and record ${row.seq + 1} still name the original`);
        if (c.hash !== row.hash) return tampered(row.seq, 'rewritten', `checkpoint at seq ${row.seq} recorded hash ${c.hash.slice(0, 12)}…, the chain now has ${row.hash.slice(0, 12)}…: the chain was rebuilt`);
      }
      if (b.kind === 'acknowledgment' && b.acknowledgment && typeof b.acknowledgment === 'object') {
        const a = b.acknowledgment as Record<string, unknown>;
        const gaps = Array.isArray(a.gaps) ? a.gaps.filter((g): g is [number, number] => Array.isArray(g) && g.length === 2).map((g) => [Number(g[0]), Number(g[1])] as [number, number]) : [];
        const who = a.actor && typeof a.actor === 'object' ? (a.actor as Record<string, unknown>) : {};
        const by = typeof who.email === 'string' ? who.email : typeof who.user === 'string' ? `${who.user}${typeof who.host === 'string' ? `@${who.host}` : ''}` : 'unknown';
        acks.push({ seq: row.seq, gaps, reason: String(a.reason ?? ''), by, ts: String(b.ts) });
      }
      if (b.kind === 'recovery' && b.recovery && typeof b.recovery === 'object') {
        const r = b.recovery as Record<string, unknown>;
        const gaps = Array.isArray(r.gaps) ? r.gaps.filter((g): g is [number, number] => Array.isArray(g) && g.length === 2).map((g) => [Number(g[0]), Number(g[1])] as [number, number]) : [];
        recoveries.push({ seq: row.seq, firstSeq: Number(r.first_seq), anchor: { seq: Number(r.anchor_seq), hash: String(r.anchor_hash) }, setAside: String(r.set_aside), salvaged: Number(r.salvaged), gaps });
      }
      const ts = String(b.ts);
      if (prevTs && ts < prevTs && backwards++ < 5) result.warnings.push(`seq ${row.seq}: timestamp ${ts} is earlier than the previous record's (${prevTs})`);
      prevTs = ts;
      prevHash = row.hash;
      if (opts.onRecord) opts.onRecord(b, row.hash, row.body);
      history.record(row.seq, row.body, row.hash, erasedRow ? hasher : undefined);
      erasedRow = false;
      expected = row.seq + 1;
      result.records++;
      result.head = { seq: row.seq, hash: row.hash };
      return undefined;
    };

    let after = -Infinity;
    for (;;) {
      const batch = stmt.all(after) as [number, string, string][];
      if (batch.length === 0) break;
      for (const [seq, body, hash] of batch) {
        const row: Row = { seq, body, hash };
        if (pending) {
          const bad = check(pending, row);
          if (bad) return bad;
        }
        pending = row;
        done++;
        if (opts.onProgress && done % step === 0) opts.onProgress(done, total);
      }
      after = batch[batch.length - 1][0];
    }
    // Then the journal: lines already folded must be the stored records; the rest continue the chain.
    const dbHeadSeq = after === -Infinity ? 0 : after;
    const stored = ledger.handle.prepare('SELECT hash FROM records WHERE seq = ?').pluck(true);
    // A folded line that differs from its database copy is reported after the chain itself (which names a rewrite more precisely).
    let copyDiffers: VerifyResult | undefined;
    for (const l of journal.lines) {
      if (l.seq <= dbHeadSeq) {
        const h = stored.get(l.seq) as string | undefined;
        if (h !== l.hash) copyDiffers ??= tampered(l.seq, 'edited', `${journal.file}: the journal line for seq ${l.seq} differs from the record in the database`);
        continue;
      }
      const row: Row = { seq: l.seq, body: l.body, hash: l.hash };
      // The journal's first line above the database head: a gap there is the database's tail cut off
      // (the journal keeps the head line after a fold); a gap inside the journal is a deleted line.
      const boundary = (pending?.seq ?? 0) === dbHeadSeq && dbHeadSeq > 0 && l === journal.lines[0];
      if (boundary && l.seq > dbHeadSeq + 1) {
        if (pending) {
          const bad = check(pending, undefined);
          if (bad) return bad;
        }
        return tampered(dbHeadSeq + 1, 'tail-cut', `the database ends at seq ${dbHeadSeq} and the journal continues at seq ${l.seq}: seq ${dbHeadSeq + 1}..${l.seq - 1} were cut from the database's tail`);
      }
      if (pending) {
        const bad = check(pending, row);
        if (bad) return bad;
      }
      pending = row;
    }
    if (pending) {
      const bad = check(pending, undefined);
      if (bad) return bad;
    }
    if (copyDiffers) return copyDiffers;
    if (journal.bad) return tampered((result.head?.seq ?? 0) + 1, 'edited', `${journal.file}:${journal.bad.line}: not a journal record (${JSON.stringify(journal.bad.text.slice(0, 60))})`);
    if (journal.tornBytes) result.warnings.push(`${journal.file}: a torn tail of ${journal.tornBytes} bytes (a write that never completed, never acknowledged); the next writer removes it`);
    result.journal = { lines: journal.lines.length, unfolded: journal.lines.filter((l) => l.seq > dbHeadSeq).length };
    const headSeq = result.head?.seq ?? 0;
    if (latest && latest.seq > headSeq) {
      return tampered(headSeq + 1, 'tail-cut', `checkpoint ${latest.reason ? `(${latest.reason}) ` : ''}at ${latest.ts} recorded seq ${latest.seq}; the ledger ends at seq ${headSeq}`);
    }
    // The head witness (written at every fold and SessionEnd, outside the project) covers the tail after the last checkpoint and young ledgers.
    const witnesses = witnessesFirst;
    const own = witnesses.find((w) => w.ledger !== undefined && w.ledger === ledgerId);
    if (own && own.seq > headSeq) return tampered(headSeq + 1, 'tail-cut', `the head witness ${own.file} (${own.reason} at ${own.ts}) saw seq ${own.seq}; the ledger ends at seq ${headSeq}`);
    // The append witness (one line per append, outside the project) covers the records after the last fold or SessionEnd.
    const awLast = appendWitnessFirst?.lines[appendWitnessFirst.lines.length - 1];
    const aw = appendWitnessFirst && awLast ? { file: appendWitnessFirst.file, ...awLast } : undefined;
    if (aw && aw.seq > headSeq) {
      return tampered(headSeq + 1, 'tail-cut', `the append witness ${aw.file} saw seq ${aw.seq} (${aw.hash.slice(0, 12)}…) appended; the ledger ends at seq ${headSeq}: seq ${headSeq + 1}..${aw.seq} were cut (last witnessed seq ${aw.seq})`);
    }
    // chain.json says how the chain is hashed; hooks refuse to append when it is not the database's own mode.
    const described = chainDescription(paths);
    if (described.problem) return tampered(1, 'edited', `${chainMetaFile(paths)}: ${described.problem}; the database says ${meta.chain}: every hook refuses to append until it is fixed (write {"chain":"${meta.chain}"${meta.key_id ? `,"key_id":"${meta.key_id}"` : ''}} back)`);
    if (described.meta && described.meta.chain !== meta.chain) return tampered(1, described.meta.chain === 'sha256' ? 'downgraded' : 'edited', `${chainMetaFile(paths)} says ${described.meta.chain}, the database says ${meta.chain}: every hook refuses to append until they agree (write {"chain":"${meta.chain}"${meta.key_id ? `,"key_id":"${meta.key_id}"` : ''}} back)`);
    // A ledger started again disagrees with every line witnessed before: say restarted, the more precise finding.
    const other = witnesses.find((w) => w.ledger !== undefined && ledgerId !== undefined && w.ledger !== ledgerId && w.seq > 0);
    if (other) return tampered(1, 'restarted', `the head witness ${other.file} saw an earlier ledger of this project (ledger ${other.ledger}, seq ${other.seq} at ${other.ts}); this ledger (${ledgerId}) started again`);
    // Every witnessed append the chain still covers must have the hash it had then: a record edited and re-hashed
    // (or the chain cut back and appended again) after it was witnessed is a rewrite, whatever the checkpoints say.
    const journalHash = new Map(journal.lines.map((l) => [l.seq, l.hash]));
    const chainHashes = (seqs: number[]) => {
      const m = ledger.hashesAt(seqs.filter((q) => !journalHash.has(q)));
      for (const q of seqs) if (journalHash.has(q)) m.set(q, journalHash.get(q)!);
      return m;
    };
    if (appendWitnessFirst) {
      const [first] = witnessDisagreements(appendWitnessFirst.lines.filter((l) => l.seq >= base.seq && l.seq <= headSeq), chainHashes);
      if (first) return tampered(first.seq, 'rewritten', describeDisagreement(appendWitnessFirst.file, first));
    }
    if (own && own.seq >= base.seq && own.seq <= headSeq) {
      const have = chainHashes([own.seq]).get(own.seq);
      if (have !== undefined && have !== own.hash) return tampered(own.seq, 'rewritten', `the head witness ${own.file} (${own.reason} at ${own.ts}) saw seq ${own.seq} with hash ${own.hash.slice(0, 12)}…, the chain now has ${have.slice(0, 12)}… there: the chain was edited and re-hashed, or rebuilt, after it`);
    }
    if (recoveries.length) result.recovered = recoveries;
    if (base.seq > 1 && !recoveries.some((r) => r.anchor.seq === base.seq - 1 && r.anchor.hash === base.prevHash))
      return tampered(base.seq, 'head-cut', `the ledger starts at seq ${base.seq} as a recovered ledger, but no recovery record in the chain names that start: seq 1..${base.seq - 1} are gone`);
    // Every gap the walk stepped over is named by a recovery record later in the chain (else records were deleted).
    const namedBy = (g: [number, number]) => recoveries.find((r) => r.seq > g[1] && r.gaps.some((x) => x[0] === g[0] && x[1] === g[1]));
    for (const g of crossed) if (!namedBy(g)) return tampered(g[0], 'deleted', `seq ${g[0]}..${g[1]} are missing; the database names them as a recovery's gap but no recovery record in the chain does`);
    // The chain holds; then the reviewer's view of it.
    const seen = history.finish(headSeq);
    result.history = { checked: history.checked };
    if (history.notScrubbed.length) result.warnings.push(`history still shows the erased record(s) ${history.notScrubbed.slice(0, 5).join(', ')} as they were before the erasure (an erase was interrupted): run the same loom erase again to finish`);
    if (seen.length) return tampered(seen[0].seq, seen[0].kind, seen[0].detail + (seen.length > 1 ? ` (and ${seen.length - 1} more)` : ''));
    if (!latest && !aw && headSeq > 0) result.warnings.push('no checkpoint found: a cut tail would not be detectable (run loom checkpoint; set LOOM_CHECKPOINT_DIR)');
    opts.onProgress?.(total, total);
    // Records of the chain that only the set-aside file holds (a recovery's gaps, or everything before a recovered base):
    // the chain that is here holds, but it is not the whole history, so this is not "intact" (exit 1).
    const unread: NonNullable<VerifyResult['gaps']> = [];
    const base0 = base.seq > 1 ? recoveries.find((r) => r.anchor.seq === base.seq - 1 && r.anchor.hash === base.prevHash) : undefined;
    if (base0) unread.push({ first: 1, last: base.seq - 1, setAside: base0.setAside });
    for (const g of crossed) unread.push({ first: g[0], last: g[1], setAside: namedBy(g)!.setAside });
    const rangeText = (first: number, last: number) => (first === last ? `seq ${first}` : `seq ${first}..${last}`);
    // An acknowledgment names gaps this ledger has, exactly: any other range is a claim nothing backs (tampering).
    for (const a of acks) {
      if (!a.gaps.length) return tampered(a.seq, 'acknowledgment-mismatch', `the acknowledgment at seq ${a.seq} names no gap`);
      for (const g of a.gaps) {
        if (!unread.some((u) => u.first === g[0] && u.last === g[1])) return tampered(a.seq, 'acknowledgment-mismatch', `the acknowledgment at seq ${a.seq} (by ${a.by}) names ${rangeText(g[0], g[1])}, which is not a gap of this ledger (gaps: ${unread.map((u) => rangeText(u.first, u.last)).join(', ') || 'none'})`);
      }
    }
    if (unread.length) {
      result.gaps = unread;
      const files = [...new Set(unread.map((u) => u.setAside))].join(', ');
      const ranges = unread.map((u) => rangeText(u.first, u.last)).join(', ');
      const missing = unread.reduce((n, u) => n + u.last - u.first + 1, 0);
      const detail = `${ranges} unreadable, kept in ${files} (${missing} record${missing === 1 ? '' : 's'} of the chain not in the database; ${result.records} records verified)`;
      // Every gap named by an acknowledgment in the chain after the recovery that left it: accepted by the owner, still listed.
      const recoveryOf = (u: { first: number; last: number }) => (u.first === 1 && base0 && u.last === base.seq - 1 ? base0.seq : namedBy([u.first, u.last])?.seq ?? Infinity);
      const ackOf = (u: { first: number; last: number }) => acks.filter((a) => a.seq > recoveryOf(u) && a.gaps.some((g) => g[0] === u.first && g[1] === u.last)).pop();
      const covering = unread.map(ackOf);
      if (covering.every((a) => a)) {
        const last = covering.reduce((m, a) => (a!.seq > m!.seq ? a : m))!;
        result.acknowledged = { seq: last.seq, by: last.by, reason: last.reason, ts: last.ts, detail };
        return result;
      }
      return tampered(unread[0].first, 'recovered-with-gaps', detail);
    }
    return result;
  } catch (e) {
    // A malformed page surfaces mid-walk as an SQLite error: one line and "cannot verify", never a stack trace.
    if (isCorruptionCode(e)) return cannot(corruptMessage(paths, markCorrupt(paths, (e as Error).message, 'verify')));
    if (e && typeof (e as { code?: unknown }).code === 'string' && String((e as { code: string }).code).startsWith('SQLITE_')) return cannot(classifySqliteError(e, paths.db).message);
    throw e;
  } finally {
    ledger.close();
  }
}

/** chain.json as the hooks read it: its description, or why it is none. */
function chainDescription(paths: CompliancePaths): { meta?: ChainMeta; problem?: string } {
  try {
    return { meta: readChainMeta(paths) };
  } catch {
    return { problem: 'not a chain description (it was changed)' };
  }
}
