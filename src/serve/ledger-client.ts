// The main thread's side of the ledger worker: append() resolves once the
// worker has committed the records (durably), with a problem string if not.
import { Worker } from 'node:worker_threads';
import type { RecordJob, WorkerReply, WorkerRequest } from './ledger-worker';

export class LedgerClient {
  private worker: Worker;
  private nextId = 1;
  private waiting = new Map<number, (problem: string | undefined) => void>();
  private head = 0;
  private stopped?: (problems: string[]) => void;

  constructor(workerFile: string) {
    this.worker = new Worker(workerFile);
    this.worker.on('message', (m: WorkerReply) => {
      if (m.type === 'appended') {
        this.head = Math.max(this.head, m.headSeq);
        for (const [id, problem] of m.done) {
          this.waiting.get(id)?.(problem);
          this.waiting.delete(id);
        }
      } else this.stopped?.(m.problems);
    });
    this.worker.on('error', (e) => {
      for (const done of this.waiting.values()) done(`ledger worker failed: ${e.message}`);
      this.waiting.clear();
    });
  }

  /** Resolves once the invocation's records are durable (or with the reason they are not). */
  record(job: RecordJob): Promise<string | undefined> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.worker.postMessage({ type: 'append', id, job: JSON.stringify(job) } satisfies WorkerRequest);
    });
  }

  headSeq(): number {
    return this.head;
  }

  shutdown(reason: string): Promise<string[]> {
    return new Promise((resolve) => {
      this.stopped = (problems) => {
        void this.worker.terminate();
        resolve(problems);
      };
      this.worker.postMessage({ type: 'shutdown', reason } satisfies WorkerRequest);
    });
  }
}
