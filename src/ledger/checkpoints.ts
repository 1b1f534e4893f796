// Checkpoints: the ledger head (seq, hash, count, ts) written outside the
// database, so a cut tail or a deleted database is detectable. Appended to
// .loom/compliance/checkpoints.jsonl and, with LOOM_CHECKPOINT_DIR, to a
// file there that the agent should not be able to write. With a ledger key
// each line carries an HMAC so a checkpoint cannot be forged either.
import { appendFileSync, closeSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { hmacSha256Hex, sha256Hex } from '../util/sha256';
import { canonicalJson } from './canonical';
import type { ChainKey } from './chain';
import type { Head } from './store';

export const DEFAULT_CHECKPOINT_EVERY = 100;

export interface Checkpoint {
  v: 1;
  seq: number;
  hash: string;
  count: number;
  ts: string;
  reason: string;
  key_id?: string;
  mac?: string;
}

export function externalCheckpointFile(projectDir: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = env.LOOM_CHECKPOINT_DIR;
  if (!dir) return undefined;
  let real = projectDir;
  try {
    real = realpathSync(projectDir);
  } catch {
    // keep the given path
  }
  // One file per project: its name plus a short hash of its real path.
  const id = sha256Hex(real).slice(0, 12);
  return join(resolve(dir), `${basename(real) || 'root'}-${id}.checkpoints.jsonl`);
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
export function writeCheckpoint(localFile: string, projectDir: string, head: Head, reason: string, key?: ChainKey, env: NodeJS.ProcessEnv = process.env): string[] {
  const base: Omit<Checkpoint, 'mac'> = { v: 1, seq: head.seq, hash: head.hash, count: head.count, ts: new Date().toISOString(), reason };
  if (key) base.key_id = key.id;
  const c: Checkpoint = key ? { ...base, mac: macOf(base, key) } : base;
  const text = JSON.stringify(c) + '\n';
  const problems: string[] = [];
  const targets = [localFile];
  const ext = externalCheckpointFile(projectDir, env);
  if (ext) targets.push(ext);
  for (const t of targets) {
    try {
      mkdirSync(resolve(t, '..'), { recursive: true });
      appendDurably(t, text);
    } catch (e) {
      problems.push(`checkpoint ${t}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
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
