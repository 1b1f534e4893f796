// Checkpoints: the ledger head (seq, hash, count, ts) written outside the
// database, so a cut tail or a deleted database is detectable. Appended to
// .loom/compliance/checkpoints.jsonl and to a file outside every project:
// LOOM_CHECKPOINT_DIR, or by default the user's state folder
// ($XDG_STATE_HOME/loom/checkpoints, ~/.local/state/loom/checkpoints,
// ~/Library/Application Support/loom/checkpoints, %LOCALAPPDATA%\loom\checkpoints),
// one file per project real path. Each line names the chain mode and the
// ledger (its first record's hash), so a downgraded, deleted or restarted
// ledger is told apart. With a ledger key each line carries an HMAC so a
// checkpoint cannot be forged either.
import { writeDurably } from '../util/durable-write';
import { appendFileSync, closeSync, fstatSync, fsyncSync, openSync, readFileSync, readSync, readdirSync, realpathSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { hmacSha256Hex, sha256Hex } from '../util/sha256';
import { canonicalJson } from './canonical';
import type { ChainKey } from './chain';
import type { Head } from './store';
import { MkdirError, mkdirBounded } from '../util/bounded-mkdir';

export const DEFAULT_CHECKPOINT_EVERY = 100;

export interface Checkpoint {
  v: 1;
  seq: number;
  hash: string;
  count: number;
  ts: string;
  reason: string;
  /** The chain mode of the ledger when the line was written. */
  chain?: string;
  /** The ledger's identity: the first 16 hex of its seq 1 hash (a restarted ledger has another). */
  ledger?: string;
  key_id?: string;
  mac?: string;
}

/** What a checkpoint line says about the ledger besides its head. */
export interface LedgerIdentity {
  chain?: string;
  ledger?: string;
}

/** The folder outside every project where checkpoint copies go: LOOM_CHECKPOINT_DIR, else the platform's state folder. */
export function externalCheckpointDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  // A relative folder would be resolved from wherever a hook runs (inside the project, where the agent writes): ignored, as a
  // relative XDG_STATE_HOME is; loom doctor says so.
  if (env.LOOM_CHECKPOINT_DIR && isAbsolute(env.LOOM_CHECKPOINT_DIR)) return resolve(env.LOOM_CHECKPOINT_DIR);
  if (env.XDG_STATE_HOME && env.XDG_STATE_HOME.startsWith('/')) return join(env.XDG_STATE_HOME, 'loom', 'checkpoints');
  if (process.platform === 'win32') {
    const base = env.LOCALAPPDATA ?? (env.USERPROFILE ? join(env.USERPROFILE, 'AppData', 'Local') : undefined);
    return base ? join(base, 'loom', 'checkpoints') : undefined;
  }
  const home = env.HOME;
  if (!home || home === '/') return undefined;
  return process.platform === 'darwin' ? join(home, 'Library', 'Application Support', 'loom', 'checkpoints') : join(home, '.local', 'state', 'loom', 'checkpoints');
}

export function externalCheckpointFile(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = externalCheckpointDir(env);
  if (!dir) return undefined;
  let real = projectDir;
  try {
    real = realpathSync(projectDir);
  } catch {
    // keep the given path
  }
  // One file per project: its name plus a short hash of its real path.
  const id = sha256Hex(real).slice(0, 12);
  return join(dir, `${basename(real) || 'root'}-${id}.checkpoints.jsonl`);
}

function macOf(c: Omit<Checkpoint, 'mac'>, key: ChainKey): string {
  return hmacSha256Hex(key.key, canonicalJson(c));
}

function appendDurably(file: string, text: string): void {
  appendFileSync(file, text);
  const fd = openSync(file, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the head to every checkpoint location; returns the problems (empty when all succeeded). */
export function writeCheckpoint(localFile: string, projectDir: string, head: Head, reason: string, key?: ChainKey, env: NodeJS.ProcessEnv = process.env, identity: LedgerIdentity = {}): string[] {
  const base: Omit<Checkpoint, 'mac'> = { v: 1, seq: head.seq, hash: head.hash, count: head.count, ts: new Date().toISOString(), reason };
  if (identity.chain) base.chain = identity.chain;
  if (identity.ledger) base.ledger = identity.ledger;
  if (key) base.key_id = key.id;
  const c: Checkpoint = key ? { ...base, mac: macOf(base, key) } : base;
  const text = JSON.stringify(c) + '\n';
  const problems: string[] = [];
  const targets = [localFile];
  const ext = externalCheckpointFile(projectDir, env);
  if (ext) targets.push(ext);
  for (const t of targets) {
    try {
      // The state folder may not exist yet (the local one always does: the ledger is beside it).
      mkdirBounded(resolve(t, '..'), 0o700);
      appendDurably(t, text);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      problems.push(`checkpoint ${t}: ${code === 'ENOSPC' ? 'disk full' : e instanceof MkdirError ? e.message : code ?? (e as Error).message}`);
    }
  }
  return problems;
}

export interface CheckpointRead {
  file: string;
  checkpoints: Checkpoint[];
  problems: string[];
}

export function readCheckpoints(file: string): CheckpointRead {
  const out: CheckpointRead = { file, checkpoints: [], problems: [] };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') out.problems.push(`${file}: ${(e as NodeJS.ErrnoException).code}`);
    return out;
  }
  text.split('\n').forEach((l, i) => {
    if (!l.trim()) return;
    try {
      const c = JSON.parse(l) as Checkpoint;
      if (typeof c.seq !== 'number' || typeof c.hash !== 'string') throw new Error('missing seq or hash');
      out.checkpoints.push(c);
    } catch (e) {
      out.problems.push(`${file}:${i + 1}: unreadable checkpoint (${(e as Error).message})`);
    }
  });
  return out;
}

export function checkpointMacValid(c: Checkpoint, key: ChainKey): boolean {
  const { mac, ...rest } = c;
  return typeof mac === 'string' && mac === macOf(rest, key);
}

/** True when appending moved the head across a multiple of `every`. */
export function crossesCheckpoint(prevSeq: number, newSeq: number, every: number): boolean {
  return Math.floor(prevSeq / every) !== Math.floor(newSeq / every);
}

/** The head witness: the newest head seen at a fold or a SessionEnd, one small file beside the checkpoint copies. */
export interface HeadWitness {
  v: 1;
  seq: number;
  hash: string;
  ledger?: string;
  ts: string;
  reason: string;
}

/** One witness file per ledger of the project (a restarted ledger gets its own; the old one's stays as evidence). */
export function headWitnessFile(projectDir: string, ledger: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const cp = externalCheckpointFile(projectDir, env);
  return cp ? cp.replace(/\.checkpoints\.jsonl$/, `.${ledger && /^[0-9a-f]{1,64}$/.test(ledger) ? ledger : 'unknown'}.head.json`) : undefined;
}

function readWitnessFile(f: string): HeadWitness | undefined {
  try {
    const w = JSON.parse(readFileSync(f, 'utf8')) as HeadWitness;
    return typeof w.seq === 'number' && typeof w.hash === 'string' ? { ...w, file: f } as HeadWitness : undefined;
  } catch {
    return undefined;
  }
}

/** Every head witness of this project (one per ledger it has had). */
export function readHeadWitnesses(projectDir: string, env: NodeJS.ProcessEnv = process.env): (HeadWitness & { file: string })[] {
  const cp = externalCheckpointFile(projectDir, env);
  if (!cp) return [];
  const prefix = basename(cp).replace(/\.checkpoints\.jsonl$/, '.');
  let names: string[];
  try {
    names = readdirSync(dirname(cp));
  } catch {
    return [];
  }
  const out: (HeadWitness & { file: string })[] = [];
  for (const n of names) if (n.startsWith(prefix) && n.endsWith('.head.json')) {
    const w = readWitnessFile(join(dirname(cp), n));
    if (w) out.push(w as HeadWitness & { file: string });
  }
  return out;
}

/**
 * Writes the head witness (one small fsync'd file, replaced by rename) when the head moved past the
 * one it holds for this ledger. Never on the PreToolUse path: folds and SessionEnd call it. Returns a problem or undefined.
 */
export function writeHeadWitness(projectDir: string, head: { seq: number; hash: string }, ledger: string | undefined, reason: string, hashes: ChainHashes, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const f = headWitnessFile(projectDir, ledger, env);
  if (!f || head.seq <= 0) return undefined;
  const old = readWitnessFile(f);
  if (old && old.seq >= head.seq) return undefined;
  if (old) {
    // The old head is replaced only when the chain still holds it: otherwise it is the evidence of a rewrite, and
    // stays. A seq the caller cannot look up (SessionEnd reads only the journal) waits for the next fold.
    const chain = old.seq === head.seq ? head.hash : hashes([old.seq]).get(old.seq);
    if (chain === undefined) return undefined;
    if (chain !== old.hash) return `the head witness ${f} saw seq ${old.seq} with hash ${old.hash.slice(0, 12)}…, the chain now has ${chain.slice(0, 12)}… there: kept as evidence (run loom verify)`;
  }
  const w: HeadWitness = { v: 1, seq: head.seq, hash: head.hash, ts: new Date().toISOString(), reason, ...(ledger ? { ledger } : {}) };
  const tmp = `${f}.${process.pid}.tmp`;
  try {
    mkdirBounded(resolve(f, '..'), 0o700);
    writeDurably(tmp, JSON.stringify(w) + '\n');
    renameSync(tmp, f);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return `head witness ${f}: ${code === 'ENOSPC' ? 'disk full' : e instanceof MkdirError ? e.message : code ?? (e as Error).message}`;
  }
}

/**
 * The append witness: one line `<seq> <hash>` per append, written by every
 * writer under the journal lock (so the lines are in chain order) to one file
 * per project in the state folder, beside the checkpoint copies. It covers the
 * records after the last fold or SessionEnd, which the head witness does not:
 * a tail cut there (records and their journal lines) leaves the ledger behind
 * the witness's last line, and verify says tail-cut naming that seq. One
 * O_APPEND write, no fsync: the threat is tampering, not power loss (after a
 * power loss the witness can name one append whose journal line never reached
 * the disk; that append was never answered). Folds compact it to its last line.
 */
export function appendWitnessFile(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const key = `${projectDir}\0${env.LOOM_CHECKPOINT_DIR ?? ''}\0${env.XDG_STATE_HOME ?? ''}\0${env.HOME ?? ''}`;
  const hit = witnessFiles.get(key);
  if (hit !== undefined) return hit || undefined;
  const cp = externalCheckpointFile(projectDir, env);
  const f = cp ? cp.replace(/\.checkpoints\.jsonl$/, '.appends.log') : '';
  if (witnessFiles.size > 1000) witnessFiles.clear();
  witnessFiles.set(key, f);
  return f || undefined;
}
const witnessFiles = new Map<string, string>();

/** Appends `<seq> <hash>` for the new head (caller holds the journal lock). Returns a problem, never throws. */
export function witnessAppend(projectDir: string, seq: number, hash: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  let f: string | undefined;
  try {
    f = appendWitnessFile(projectDir, env);
    if (!f) return undefined;
    const line = `${seq} ${hash}\n`;
    let fd: number;
    try {
      fd = openSync(f, 'a', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      mkdirBounded(dirname(f), 0o700);
      fd = openSync(f, 'a', 0o600);
    }
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return `append witness ${f ?? 'in the state folder'}: ${code === 'ENOSPC' || code === 'EDQUOT' ? 'disk full' : e instanceof MkdirError ? e.message : code ?? (e as Error).message} (the record is durable; a cut of it would not be detectable)`;
  }
}

export interface AppendWitness {
  file: string;
  seq: number;
  hash: string;
}

/** The chain's hash at each asked seq, where the caller can tell (a seq it cannot tell is absent). */
export type ChainHashes = (seqs: number[]) => Map<number, string>;

/** Reading more than this from the end of the append witness is never needed: folds keep it near 64 KiB. */
const WITNESS_READ_MAX = 4 * 1024 * 1024;

/** Every complete line of the append witness, oldest first (the last 4 MiB at most), or undefined when there is none. */
export function readAppendWitnessLines(projectDir: string, env: NodeJS.ProcessEnv = process.env): { file: string; lines: { seq: number; hash: string }[] } | undefined {
  const f = appendWitnessFile(projectDir, env);
  if (!f) return undefined;
  let fd: number;
  try {
    fd = openSync(f, 'r');
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - WITNESS_READ_MAX);
    const buf = Buffer.alloc(size - start);
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    const text = buf.toString('latin1', 0, got).split('\n');
    // A line without its LF (a write that never completed) is skipped; so is the first when the read began mid-file.
    text.pop();
    if (start > 0) text.shift();
    const lines: { seq: number; hash: string }[] = [];
    for (const l of text) {
      const m = /^([1-9]\d{0,15}) ([0-9a-f]{64})$/.exec(l);
      if (m) lines.push({ seq: Number(m[1]), hash: m[2] });
    }
    return { file: f, lines };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The last line of the append witness, or undefined when there is none (or it holds no complete line). */
export function readAppendWitness(projectDir: string, env: NodeJS.ProcessEnv = process.env): AppendWitness | undefined {
  const w = readAppendWitnessLines(projectDir, env);
  const last = w?.lines[w.lines.length - 1];
  return w && last ? { file: w.file, seq: last.seq, hash: last.hash } : undefined;
}

/**
 * The witness lines the chain disagrees with: a seq appended with a hash the chain no longer has there (the
 * chain was edited and re-hashed, or cut back and appended again). Oldest first.
 */
export function witnessDisagreements(lines: { seq: number; hash: string }[], hashes: ChainHashes): { seq: number; hash: string; chain: string; again: boolean }[] {
  if (!lines.length) return [];
  const have = hashes([...new Set(lines.map((l) => l.seq))]);
  const lastAt = new Map<string, number>();
  lines.forEach((l, i) => lastAt.set(`${l.seq} ${l.hash}`, i));
  const out: { seq: number; hash: string; chain: string; again: boolean }[] = [];
  lines.forEach((l, i) => {
    const chain = have.get(l.seq);
    if (chain === undefined || chain === l.hash) return;
    out.push({ ...l, chain, again: (lastAt.get(`${l.seq} ${chain}`) ?? -1) > i });
  });
  return out;
}

/** One line for a witness disagreement, as verify and the fold say it. */
export function describeDisagreement(file: string, d: { seq: number; hash: string; chain: string; again: boolean }): string {
  const why = d.again
    ? 'the seq was appended twice: the chain was cut back and appended again (or the machine lost power before the first append reached the disk)'
    : 'the chain was edited and re-hashed, or rebuilt, after it';
  return `the append witness ${file} saw seq ${d.seq} appended with hash ${d.hash.slice(0, 12)}…, the chain now has ${d.chain.slice(0, 12)}… there: ${why}`;
}

/** Lines of disagreement a compacted witness keeps as evidence (the first ones: where the chain was first changed). */
const KEPT_DISAGREEMENTS = 64;

/**
 * Keeps the append witness short: past 64 KiB it is replaced by its last line (caller holds the journal lock).
 * Every line is checked against the chain first: a line the chain disagrees with is evidence that the chain
 * was changed after it was appended, and it is kept (the first 64), so loom's own housekeeping never erases
 * the only trace of a rewrite. Returns problems (the disagreements kept, a failed write), never throws.
 */
export function compactAppendWitness(projectDir: string, hashes: ChainHashes, env: NodeJS.ProcessEnv = process.env): string[] {
  const f = appendWitnessFile(projectDir, env);
  if (!f) return [];
  try {
    let size: number;
    try {
      const fd = openSync(f, 'r');
      try {
        size = fstatSync(fd).size;
      } finally {
        closeSync(fd);
      }
    } catch {
      return [];
    }
    if (size <= 64 * 1024) return [];
    const w = readAppendWitnessLines(projectDir, env);
    const last = w?.lines[w.lines.length - 1];
    if (!w || !last) return [];
    const kept = witnessDisagreements(w.lines.slice(0, -1), hashes).slice(0, KEPT_DISAGREEMENTS);
    const tmp = `${f}.${process.pid}.tmp`;
    writeDurably(tmp, [...kept, last].map((l) => `${l.seq} ${l.hash}\n`).join(''));
    renameSync(tmp, f);
    return kept.length ? [`${describeDisagreement(f, kept[0])}; kept as evidence (run loom verify)`] : [];
  } catch (e) {
    return [`append witness ${f}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message} while compacting it`];
  }
}
