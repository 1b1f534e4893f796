// The server's one ledger writer. Requests that arrive while a commit is
// running wait for the next one, which appends all of them in a single
// durable transaction (group commit): one fsync answers many requests, and
// no request is answered before its records are on disk.
import { KeyError, loadChainKey } from '../ledger/chain';
import { crossesCheckpoint, writeCheckpoint } from '../ledger/checkpoints';
import { syncHistory } from '../ledger/history-view';
import { Ledger, LedgerError, type RecordDraft } from '../ledger/store';
import { checkpointEvery } from '../runner/record';

interface Pending {
  drafts: RecordDraft[];
  done: (problem: string | undefined) => void;
}

class ProjectWriter {
  private ledger?: Ledger;
  private queue: Pending[] = [];
  private scheduled = false;
  headSeq = 0;

  constructor(readonly projectDir: string) {}

  append(drafts: RecordDraft[]): Promise<string | undefined> {
    return new Promise((resolve) => {
      this.queue.push({ drafts, done: resolve });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private open(): Ledger {
    this.ledger ??= Ledger.openForAppend(this.projectDir, loadChainKey(this.projectDir));
    return this.ledger;
  }

  flush(): void {
    this.scheduled = false;
    const batch = this.queue.splice(0);
    if (!batch.length) return;
    let problem: string | undefined;
    try {
      const ledger = this.open();
      const stored = ledger.append(batch.flatMap((b) => b.drafts));
      if (stored.length) this.headSeq = stored[stored.length - 1].seq;
      ledger.withWriteLock(() => {
        syncHistory(ledger);
        const every = checkpointEvery();
        if (stored.length && crossesCheckpoint(stored[0].seq - 1, this.headSeq, every)) {
          const p = writeCheckpoint(ledger.paths.checkpoints, this.projectDir, ledger.head(), `every-${every}`, loadChainKey(this.projectDir));
          if (p.length) problem = p.join('; ');
        }
      });
    } catch (e) {
      problem = e instanceof LedgerError || e instanceof KeyError ? e.message : (e as Error).message;
      this.ledger?.close();
      this.ledger = undefined;
    }
    for (const b of batch) b.done(problem);
  }

  checkpoint(reason: string): string[] {
    try {
      const ledger = this.open();
      return writeCheckpoint(ledger.paths.checkpoints, this.projectDir, ledger.head(), reason, loadChainKey(this.projectDir));
    } catch (e) {
      return [(e as Error).message];
    }
  }

  close(): void {
    this.flush();
    this.ledger?.close();
    this.ledger = undefined;
  }
}

export class GroupCommitLedger {
  private writers = new Map<string, ProjectWriter>();

  private writer(projectDir: string): ProjectWriter {
    let w = this.writers.get(projectDir);
    if (!w) {
      w = new ProjectWriter(projectDir);
      this.writers.set(projectDir, w);
    }
    return w;
  }

  append(projectDir: string, drafts: RecordDraft[]): Promise<string | undefined> {
    if (drafts.length === 0) return Promise.resolve(undefined);
    return this.writer(projectDir).append(drafts);
  }

  headSeq(): number {
    let max = 0;
    for (const w of this.writers.values()) max = Math.max(max, w.headSeq);
    return max;
  }

  /** Flushes what is queued, writes a checkpoint per ledger, closes them. */
  shutdown(reason: string): string[] {
    const problems: string[] = [];
    for (const w of this.writers.values()) {
      w.close();
      problems.push(...w.checkpoint(reason));
    }
    for (const w of this.writers.values()) w.close();
    return problems;
  }
}
