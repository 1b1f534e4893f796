// The ledger worker thread of `loom serve`: it owns the database, appends
// each batch in one durable transaction and answers when the records are on
// disk, while the main thread goes on parsing requests and running guards.
import { parentPort } from 'node:worker_threads';
import type { RecordDraft } from '../ledger/store';
import { GroupCommitLedger } from './group-commit';

/** Drafts travel as one JSON string: cheaper to pass between threads than a deep structured clone. */
export type WorkerRequest = { type: 'append'; id: number; projectDir: string; drafts: string } | { type: 'shutdown'; reason: string };
export type WorkerReply = { type: 'appended'; id: number; problem?: string; headSeq: number } | { type: 'stopped'; problems: string[] };

const ledger = new GroupCommitLedger();
parentPort!.on('message', (m: WorkerRequest) => {
  if (m.type === 'append') {
    void ledger.append(m.projectDir, JSON.parse(m.drafts) as RecordDraft[]).then((problem) => parentPort!.postMessage({ type: 'appended', id: m.id, problem, headSeq: ledger.headSeq() } satisfies WorkerReply));
  } else {
    const problems = ledger.shutdown(m.reason);
    parentPort!.postMessage({ type: 'stopped', problems } satisfies WorkerReply);
  }
});
