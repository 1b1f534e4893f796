// The main thread's side of the ledger worker: append() resolves once the
// worker has committed the records (durably), with a problem string if not.
import { Worker } from 'node:worker_threads';
import type { RecordJob, WorkerReply, WorkerRequest } from './ledger-worker';

/** What a shutdown did: problems, and the checkpoints it wrote (project and seq). */
export interface ShutdownResult {
  problems: string[];
  written: { projectDir: string; seq: number }[];
}

export class LedgerClient {
  private worker: Worker;
  private nextId = 1;
  private waiting = new Map<number, (problem: string | undefined, warning?: string) => void>();
  private head = 0;
  private stopped?: (r: ShutdownResult) => void;
  /** Projects whose database the upkeep found corrupt, with the one-line finding. */
  readonly corrupt = new Map<string, string>();

  constructor(workerFile: string) {
    this.worker = new Worker(workerFile);
    this.worker.on('message', (m: WorkerReply) => {
      if (m.type === 'appended') {
        this.head = Math.max(this.head, m.headSeq);
        for (const [id, problem, warning] of m.done) {
          this.waiting.get(id)?.(problem, warning);
          this.waiting.delete(id);
        }
      } else if (m.type === 'integrity') {
        if (m.problem) this.corrupt.set(m.projectDir, m.problem);
        else this.corrupt.delete(m.projectDir);
      } else this.stopped?.({ problems: m.problems, written: m.written });
    });
    this.worker.on('error', (e) => {
      for (const done of this.waiting.values()) done(`ledger worker failed: ${e.message}`);
      this.waiting.clear();
    });
  }

  /** Resolves once the invocation's records are durable (or with the reason they are not); `onWarning` hears what a stored record has to say (a plain ledger under a key). */
  record(job: RecordJob, onWarning?: (warning: string) => void): Promise<string | undefined> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, (problem, warning) => {
        if (warning) onWarning?.(warning);
        resolve(problem);
      });
      this.worker.postMessage({ type: 'append', id, job: JSON.stringify(job) } satisfies WorkerRequest);
    });
  }

  headSeq(): number {
    return this.head;
  }

  /** Folds what the journal holds for the project now (at start: a restart catches up without waiting for a request). */
  catchUp(projectDir: string): void {
    this.worker.postMessage({ type: 'catch-up', projectDir } satisfies WorkerRequest);
  }

  shutdown(reason: string): Promise<ShutdownResult> {
    return new Promise((resolve) => {
      this.stopped = (r) => {
        void this.worker.terminate();
        resolve(r);
      };
      this.worker.postMessage({ type: 'shutdown', reason } satisfies WorkerRequest);
    });
  }
}
