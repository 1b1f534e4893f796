// The server's one ledger writer. Requests that arrive while a commit is
// running wait for the next one, which appends all of them to the journal
// in one locked write and one fdatasync (group commit): one fsync answers
// many requests, and no request is answered before its records are on disk.
// It goes through the same journal and lock as the command hooks, so hooks
// and the server on one project share one chain. Folding into SQLite,
// history.json and chain checkpoints are the upkeep thread's (onAdvance).
import { nanoid } from 'nanoid';
import type { RecordDraft } from '../contract/types';
import { KeyError, loadChainKey, type ChainKey } from '../ledger/chain';
import { crossesCheckpoint } from '../ledger/checkpoints';
import { LedgerError, type Head } from '../ledger/errors';
import { appendJournal, journalFile, unkeyedMessage } from '../ledger/journal';
import { compliancePaths } from '../ledger/paths';
import { checkpointEvery } from '../runner/record';

export const COMMIT_WINDOW_MS = 2;
/** At most this often (ms) the upkeep thread hears of a new head without a checkpoint due; it syncs history 200 ms after hearing. */
export const ADVANCE_EVERY_MS = 50;

/** Told after every commit: the new head, and the checkpoint reason when the batch crossed a checkpoint boundary. */
export type OnAdvance = (projectDir: string, head: Head, checkpoint: string | undefined) => void;

/** What a commit says about one request: a problem (its records are not stored) or a warning (stored, with something to say). */
export interface AppendAnswer {
  problem?: string;
  warning?: string;
}

interface Pending {
  drafts: RecordDraft[];
  /** The request's event can block: with a key configured, its records are refused on a plain ledger (as the hooks do). */
  canBlock: boolean;
  done: (a: AppendAnswer) => void;
}

class ProjectWriter {
  private queue: Pending[] = [];
  private scheduled = false;
  headSeq = 0;
  private lastCommit = -Infinity;

  constructor(
    readonly projectDir: string,
    private readonly onAdvance: OnAdvance,
  ) {}

  append(drafts: RecordDraft[], canBlock: boolean): Promise<AppendAnswer> {
    return new Promise((resolve) => {
      this.queue.push({ drafts, canBlock, done: resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        // Under load, wait out a short window after the last commit so the next one carries many
        // requests: one fsync per batch, not per request. Idle, commit at once.
        const since = performance.now() - this.lastCommit;
        if (since < COMMIT_WINDOW_MS) setTimeout(() => this.flush(), COMMIT_WINDOW_MS - since);
        else setImmediate(() => this.flush());
      }
    });
  }

  private key?: { key: ChainKey | undefined };

  flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0);
    if (!batch.length) return;
    let stored;
    let commit = batch;
    let warning: string | undefined;
    try {
      if (!this.key) {
        const key = loadChainKey(this.projectDir);
        this.key = { key };
      }
      const notes: { unkeyed?: string; witness?: string } = {};
      const append = (of: Pending[], unkeyed: 'refuse' | 'warn') => appendJournal(this.projectDir, of.flatMap((b) => b.drafts), this.key!.key, { bulkHashing: true, newId: nanoid, unkeyed, notes });
      try {
        // With a key configured, a plain ledger is a downgrade: refused for events that can block (nothing written), as the hooks do.
        stored = append(batch, batch.some((b) => b.canBlock) ? 'refuse' : 'warn');
      } catch (e) {
        if (!(e instanceof LedgerError && e.code === 'key' && e.message === unkeyedMessage(journalFile(compliancePaths(this.projectDir))))) throw e;
        for (const b of batch) if (b.canBlock) b.done({ problem: e.message });
        commit = batch.filter((b) => !b.canBlock);
        stored = commit.length ? append(commit, 'warn') : [];
      }
      warning = [notes.unkeyed, notes.witness].filter(Boolean).join('; ') || undefined;
    } catch (e) {
      const problem = e instanceof LedgerError || e instanceof KeyError ? e.message : (e as Error).message;
      this.key = undefined;
      for (const b of commit) b.done({ problem });
      return;
    }
    this.lastCommit = performance.now();
    // Committed and durable: answer now.
    for (const b of commit) b.done(warning ? { warning } : {});
    if (!stored.length) return;
    const last = stored[stored.length - 1];
    this.headSeq = last.seq;
    const every = checkpointEvery();
    const checkpoint = crossesCheckpoint(stored[0].seq - 1, last.seq, every) ? `every-${every}` : undefined;
    // The upkeep thread needs a checkpoint when one is due, and otherwise only a
    // nudge now and then (its history sync reads the head from the database);
    // the last head of a burst always follows within ADVANCE_EVERY_MS.
    this.latest = { seq: last.seq, hash: last.hash, count: last.seq, ts: last.record.ts };
    if (checkpoint || performance.now() - this.lastAdvance >= ADVANCE_EVERY_MS) this.advance(checkpoint);
    else this.advanceTimer ??= setTimeout(() => this.advance(undefined), ADVANCE_EVERY_MS);
  }

  private lastAdvance = -Infinity;
  private latest?: Head;
  private advanceTimer?: NodeJS.Timeout;

  private advance(checkpoint: string | undefined): void {
    if (this.advanceTimer) clearTimeout(this.advanceTimer);
    this.advanceTimer = undefined;
    this.lastAdvance = performance.now();
    if (this.latest) this.onAdvance(this.projectDir, this.latest, checkpoint);
  }

  close(): void {
    this.flush();
    if (this.advanceTimer) this.advance(undefined);
  }
}

/** Runs inside the ledger worker thread (ledger-worker.ts). */
export class GroupCommitLedger {
  private writers = new Map<string, ProjectWriter>();

  constructor(private readonly onAdvance: OnAdvance) {}

  private writer(projectDir: string): ProjectWriter {
    let w = this.writers.get(projectDir);
    if (!w) {
      w = new ProjectWriter(projectDir, this.onAdvance);
      this.writers.set(projectDir, w);
    }
    return w;
  }

  append(projectDir: string, drafts: RecordDraft[], canBlock: boolean): Promise<AppendAnswer> {
    if (drafts.length === 0) return Promise.resolve({});
    return this.writer(projectDir).append(drafts, canBlock);
  }

  headSeq(): number {
    let max = 0;
    for (const w of this.writers.values()) max = Math.max(max, w.headSeq);
    return max;
  }

  /** Commits what is queued and closes every ledger (the upkeep thread then writes the final checkpoints). */
  close(): void {
    for (const w of this.writers.values()) w.close();
  }
}
