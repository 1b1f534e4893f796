// history.json: the reviewer's view of the ledger. A JSON array, oldest
// first, one record per line, replaced atomically (write + rename) so a
// reader never sees half a file. It holds at most SEGMENT_SIZE records; older
// records move to history/segment-<first>-<last>.json listed in
// history/index.json, so bringing it up to date costs the same at any
// ledger size. The database stays the source of truth: rebuild regenerates
// every file from it.
import { readFileSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newId } from '../util/ids';
import type { Ledger } from './store';
import { mkdirBounded } from '../util/bounded-mkdir';

export const SEGMENT_SIZE = 500;

export interface SegmentEntry {
  file: string;
  first_seq: number;
  last_seq: number;
  count: number;
  sha256: string;
}

export interface HistoryIndex {
  version: 1;
  segment_size: number;
  segments: SegmentEntry[];
}

interface RowText {
  seq: number;
  body: string;
  hash: string;
}

/** One line of history.json: the canonical body with its hash appended (verify compares each line with this). */
export function historyLine(r: { body: string; hash: string }): string {
  return line(r);
}

function line(r: { body: string; hash: string }): string {
  return r.body.slice(0, -1) + ',"hash":' + JSON.stringify(r.hash) + '}';
}

function renderArray(lines: string[]): string {
  return lines.length ? '[\n' + lines.join(',\n') + '\n]\n' : '[]\n';
}

function atomicWrite(file: string, text: string): void {
  const tmp = tempName(file);
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

/**
 * Unique per writer and unpredictable: the server's upkeep thread and a hook
 * process may prepare files at once, and a name an agent could guess is a
 * name it could plant a symlink at.
 */
function tempName(file: string): string {
  return `${file}.${process.pid}-${newId(12)}.tmp`;
}

/** Identifies one version of a file: every write here is a rename, so the inode changes with it. */
function stampOf(file: string): string {
  const st = statSync(file, { throwIfNoEntry: false });
  return st ? `${st.ino}:${st.size}:${st.mtimeMs}` : 'none';
}

function readIndex(ledger: Ledger): HistoryIndex | undefined {
  try {
    return JSON.parse(readFileSync(ledger.paths.historyIndex, 'utf8')) as HistoryIndex;
  } catch {
    return undefined;
  }
}

/** Lines of a history array file (history.json or a segment), or undefined when missing or unreadable. */
export function readCurrentLines(file: string): string[] | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (text === '[]\n') return [];
  if (!text.startsWith('[\n') || !text.endsWith('\n]\n')) return undefined;
  const inner = text.slice(2, -3);
  return inner ? inner.split(',\n') : [];
}

function seqOfLine(l: string): number | undefined {
  try {
    const seq = (JSON.parse(l) as { seq?: unknown }).seq;
    return typeof seq === 'number' ? seq : undefined;
  } catch {
    return undefined;
  }
}

function fetchAfter(ledger: Ledger, afterSeq: number, upTo: number, limit = -1): RowText[] {
  return ledger.handle.prepare('SELECT seq, body, hash FROM records WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?').all(afterSeq, upTo, limit) as RowText[];
}

/** Files prepared beside their targets, renamed into place in order (segments, history.json, index). */
export interface HistoryPlan {
  renames: [tmp: string, file: string][];
  /** history.json and index.json as they were read: the plan holds only if neither changed since. */
  stamps: [file: string, stamp: string][];
}

function prepare(plan: HistoryPlan, file: string, text: string): void {
  const tmp = tempName(file);
  writeFileSync(tmp, text);
  plan.renames.push([tmp, file]);
}

/** An archived segment: its file, its text and its entry in the index. */
function segment(ledger: Ledger, lines: string[], first: number, last: number): { file: string; text: string; entry: SegmentEntry } {
  mkdirBounded(ledger.paths.historyArchive);
  const name = `segment-${String(first).padStart(9, '0')}-${String(last).padStart(9, '0')}.json`;
  const text = renderArray(lines);
  const sha256 = (require('node:crypto') as typeof import('node:crypto')).hash('sha256', text, 'hex');
  return { file: join(ledger.paths.historyArchive, name), text, entry: { file: `history/${name}`, first_seq: first, last_seq: last, count: lines.length, sha256 } };
}

/**
 * What bringing history.json up to the database head takes, prepared without
 * any lock: 'current' when nothing is to do, 'rebuild' when the files are
 * missing, unreadable or ahead of the database (a crash between the two).
 */
export function planHistory(ledger: Ledger): HistoryPlan | 'current' | 'rebuild' {
  const stamps: HistoryPlan['stamps'] = [ledger.paths.history, ledger.paths.historyIndex].map((f) => [f, stampOf(f)]);
  const index = readIndex(ledger);
  let lines = readCurrentLines(ledger.paths.history);
  const archivedLast = index?.segments.length ? index.segments[index.segments.length - 1].last_seq : 0;
  const lastInFile = lines === undefined ? undefined : lines.length ? seqOfLine(lines[lines.length - 1]) : archivedLast;
  const head = (ledger.handle.prepare('SELECT max(seq) AS s FROM records').get() as { s: number | null }).s ?? 0;
  if (lines === undefined || lastInFile === undefined || lastInFile > head) return 'rebuild';
  if (lastInFile === head) return 'current';
  const plan: HistoryPlan = { renames: [], stamps };
  const idx = index ?? { version: 1 as const, segment_size: SEGMENT_SIZE, segments: [] };
  let firstSeq = lines.length ? seqOfLine(lines[0])! : lastInFile + 1;
  let archived = false;
  for (const row of fetchAfter(ledger, lastInFile, head)) {
    if (lines.length === SEGMENT_SIZE) {
      const seg = segment(ledger, lines, firstSeq, row.seq - 1);
      prepare(plan, seg.file, seg.text);
      idx.segments.push(seg.entry);
      archived = true;
      lines = [];
      firstSeq = row.seq;
    }
    lines.push(line(row));
  }
  prepare(plan, ledger.paths.history, renderArray(lines));
  if (archived) prepare(plan, ledger.paths.historyIndex, indexText(idx));
  return plan;
}

/**
 * Puts a plan in place. Call it holding the ledger's write lock, so two
 * writers never interleave their renames; returns false (and removes the
 * prepared files) when another writer changed the view since the plan.
 */
export function applyHistory(plan: HistoryPlan): boolean {
  if (plan.stamps.some(([f, st]) => stampOf(f) !== st)) {
    discardHistory(plan);
    return false;
  }
  renameAll(plan);
  return true;
}

function renameAll(plan: HistoryPlan): void {
  for (const [tmp, file] of plan.renames) renameSync(tmp, file);
}

export function discardHistory(plan: HistoryPlan): void {
  for (const [tmp] of plan.renames) rmSync(tmp, { force: true });
}

/**
 * Brings history.json up to the database head. Call it while holding the
 * ledger's write lock: planned and renamed under the same lock, nothing can
 * have moved in between, so the stamps are not checked again.
 */
export function syncHistory(ledger: Ledger): string | undefined {
  const plan = planHistory(ledger);
  if (plan === 'rebuild') {
    const aside = setHistoryAside(ledger);
    rebuildHistory(ledger);
    return aside;
  }
  if (plan !== 'current') renameAll(plan);
  return undefined;
}

/**
 * A history that is unreadable or ahead of the database is evidence (of a
 * cut database, or of an edit): it is renamed aside with a timestamp, never
 * deleted, and the view is rebuilt beside it. Returns what was set aside.
 */
export function setHistoryAside(ledger: Ledger): string | undefined {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const moved: string[] = [];
  const hasSegments = (() => {
    try {
      return readdirSync(ledger.paths.historyArchive).some((f) => /^segment-\d+-\d+\.json$/.test(f) || f === 'index.json');
    } catch {
      return false;
    }
  })();
  for (const [from, present] of [[ledger.paths.history, statSync(ledger.paths.history, { throwIfNoEntry: false }) !== undefined], [ledger.paths.historyArchive, hasSegments]] as const) {
    if (!present) continue;
    const to = `${from}.aside-${stamp}`;
    renameSync(from, to);
    moved.push(to);
  }
  return moved.length ? `history set aside (unreadable, or ahead of the database: kept as evidence): ${moved.join(', ')}` : undefined;
}

function indexText(index: HistoryIndex): string {
  return JSON.stringify(index, null, 2) + '\n';
}

function writeIndex(ledger: Ledger, index: HistoryIndex): void {
  mkdirBounded(ledger.paths.historyArchive);
  atomicWrite(ledger.paths.historyIndex, indexText(index));
}

/** Regenerates history.json, the segments and the index from the database. */
export function rebuildHistory(ledger: Ledger): { records: number; segments: number } {
  mkdirBounded(ledger.paths.historyArchive);
  for (const f of readdirSync(ledger.paths.historyArchive)) {
    if (/^segment-\d+-\d+\.json$/.test(f)) unlinkSync(join(ledger.paths.historyArchive, f));
  }
  const index: HistoryIndex = { version: 1, segment_size: SEGMENT_SIZE, segments: [] };
  let after = 0;
  let total = 0;
  let pending: string[] = [];
  let firstSeq = 1;
  for (;;) {
    const rows = fetchAfter(ledger, after, Number.MAX_SAFE_INTEGER, 10_000);
    if (rows.length === 0) break;
    for (const row of rows) {
      if (pending.length === SEGMENT_SIZE) {
        const seg = segment(ledger, pending, firstSeq, row.seq - 1);
        atomicWrite(seg.file, seg.text);
        index.segments.push(seg.entry);
        pending = [];
      }
      if (pending.length === 0) firstSeq = row.seq;
      pending.push(line(row));
      after = row.seq;
      total++;
    }
  }
  atomicWrite(ledger.paths.history, renderArray(pending));
  writeIndex(ledger, index);
  return { records: total, segments: index.segments.length };
}
