// Checks of verify that look past the chain itself, at the evidence kept
// about it: the chain mode a key demands (downgraded), and the checkpoint
// copies outside the project (ledger-missing, restarted). Kept apart from the
// chain walk in verify.ts so each can change without the other.
import type { ChainKey } from './chain';
import { externalCheckpointFile, readAppendWitness, readCheckpoints, type Checkpoint } from './checkpoints';

export interface Finding {
  seq: number;
  kind: 'downgraded' | 'ledger-missing' | 'restarted';
  detail: string;
}

/**
 * With a key configured, only a keyed chain verifies; and a ledger whose
 * checkpoints were written for a keyed chain may not turn plain, key or not.
 */
export function downgradeFinding(meta: Record<string, string>, key: ChainKey | undefined, checkpoints: Checkpoint[]): Finding | undefined {
  if (key && meta.chain === 'sha256') return { seq: 1, kind: 'downgraded', detail: 'a ledger key is configured but this ledger says it is plain SHA-256: an unkeyed chain can be rebuilt by anyone (start a new keyed ledger if the key is new)' };
  if (meta.chain === 'hmac-sha256' && !meta.key_id) return { seq: 1, kind: 'downgraded', detail: 'the ledger says it is keyed but records no key id' };
  const keyed = checkpoints.find((c) => c.chain === 'hmac-sha256');
  if (keyed && meta.chain !== 'hmac-sha256') return { seq: keyed.seq, kind: 'downgraded', detail: `checkpoint at seq ${keyed.seq} (${keyed.ts}) was written for a keyed chain; the ledger now says ${JSON.stringify(meta.chain)}` };
  return undefined;
}

/** No database, yet the state folder holds checkpoints of this project's ledger: it was deleted. */
export function missingLedgerFinding(projectDir: string, env: NodeJS.ProcessEnv): Finding | undefined {
  const file = externalCheckpointFile(projectDir, env);
  if (!file) return undefined;
  const last = readCheckpoints(file).checkpoints.filter((c) => c.seq > 0).pop();
  if (!last) {
    // A young ledger (no checkpoint yet) deleted: the append witness still saw its records.
    const w = readAppendWitness(projectDir, env);
    return w ? { seq: 1, kind: 'ledger-missing', detail: `the ledger database is gone, but the append witness ${w.file} saw its records up to seq ${w.seq} (last witnessed seq ${w.seq})` } : undefined;
  }
  return { seq: 1, kind: 'ledger-missing', detail: `the ledger database is gone, but ${file} holds its checkpoints (latest seq ${last.seq} at ${last.ts})` };
}

/** Checkpoints of another ledger of this project (not this one's first record): the ledger was deleted and started again. */
export function restartedFinding(ledgerId: string | undefined, external: Checkpoint[], file: string): Finding | undefined {
  const other = external.filter((c) => c.seq > 0 && c.ledger !== undefined && c.ledger !== ledgerId).pop();
  if (!other) return undefined;
  return { seq: 1, kind: 'restarted', detail: `${file} holds checkpoints of an earlier ledger of this project (ledger ${other.ledger}, seq ${other.seq} at ${other.ts}); this ledger ${ledgerId ? `(${ledgerId}) ` : ''}started again` };
}

/** Only the lines about this ledger take part in the head comparisons (lines written before ledger ids existed count as this one's). */
export function sameLedger(c: Checkpoint, ledgerId: string | undefined): boolean {
  return c.ledger === undefined || c.ledger === ledgerId;
}
