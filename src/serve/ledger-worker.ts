// The ledger worker thread of `loom serve`: it owns the database, appends
// each batch in one durable transaction and answers when the records are on
// disk, while the main thread goes on parsing requests and running guards.
// It starts the upkeep thread (ledger-upkeep.ts) and tells it each new head.
import { join } from 'node:path';
import { parentPort, Worker } from 'node:worker_threads';
import { contractFor } from '../contract/events';
import type { Aggregate, HookDef } from '../contract/types';
import { buildDrafts } from '../runner/record';
import { GroupCommitLedger } from './group-commit';
import type { UpkeepIntegrity, UpkeepReply, UpkeepRequest, UpkeepStopped } from './ledger-upkeep';

/** What the worker needs to build an invocation's records (redaction, canonical body, hash happen here, off the request thread). */
export interface RecordJob {
  projectDir: string;
  sessionId: string;
  agg: Aggregate;
  harness: string;
  eventName: string;
  hooks: Pick<HookDef, 'id' | 'policy'>[];
  extra?: Record<string, unknown>;
  /** The team server's client (its ledger in the team store). */
  clientId?: string;
}

/** Jobs travel as one JSON string: cheaper to pass between threads than a deep structured clone. */
export type WorkerRequest = { type: 'append'; id: number; job: string } | { type: 'catch-up'; projectDir: string } | { type: 'shutdown'; reason: string };
/** One message answers every job of a commit: fewer wake-ups of the request thread under load. */
export type WorkerReply = { type: 'appended'; done: [id: number, problem: string | undefined, warning?: string][]; headSeq: number } | UpkeepStopped | UpkeepIntegrity;

// Bundled beside this file (dist/ledger-upkeep.js).
const upkeep = new Worker(join(__dirname, 'ledger-upkeep.js'));
// A corrupt database found by the upkeep goes on to the request thread (healthz, metrics).
upkeep.on('message', (r: UpkeepReply) => {
  if (r.type === 'integrity') parentPort!.postMessage(r satisfies WorkerReply);
});
const ledger = new GroupCommitLedger((projectDir, head, checkpoint) => upkeep.postMessage({ type: 'advanced', projectDir, head, checkpoint } satisfies UpkeepRequest));

// Jobs settled in the same turn (one commit) go back in one message.
let settled: [number, string | undefined, string?][] = [];
function answer(id: number, problem: string | undefined, warning?: string): void {
  if (settled.length === 0) queueMicrotask(() => {
    const done = settled;
    settled = [];
    parentPort!.postMessage({ type: 'appended', done, headSeq: ledger.headSeq() } satisfies WorkerReply);
  });
  settled.push(warning ? [id, problem, warning] : [id, problem]);
}

parentPort!.on('message', (m: WorkerRequest) => {
  if (m.type === 'append') {
    const job = JSON.parse(m.job) as RecordJob;
    let drafts;
    const contract = contractFor(job.eventName);
    try {
      drafts = buildDrafts({ projectDir: job.projectDir, payload: { session_id: job.sessionId }, agg: job.agg, harness: job.harness, eventName: job.eventName, contract, hooks: job.hooks as HookDef[], extra: job.extra });
    } catch (e) {
      answer(m.id, `cannot build the record: ${(e as Error).message}`);
      return;
    }
    // An event loom cannot name counts as one that can block (as in the runner).
    void ledger.append(job.projectDir, drafts, !contract || contract.canBlock).then((a) => answer(m.id, a.problem, a.warning));
  } else if (m.type === 'catch-up') {
    upkeep.postMessage(m satisfies UpkeepRequest);
  } else {
    // Every queued record committed first, so the final checkpoint covers them.
    ledger.close();
    upkeep.on('message', (r: UpkeepReply) => {
      if (r.type !== 'stopped') return;
      parentPort!.postMessage({ type: 'stopped', problems: r.problems, written: r.written } satisfies WorkerReply);
      void upkeep.terminate();
    });
    upkeep.postMessage({ type: 'shutdown', reason: m.reason } satisfies UpkeepRequest);
  }
});
