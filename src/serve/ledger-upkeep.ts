// The upkeep thread of `loom serve`: the work a commit need not wait for.
// It folds the journal into the SQLite ledger, brings history.json up to the
// head and writes the chain checkpoints, so the committing thread never
// stalls behind them. Command hooks on the same project append to the same
// journal; this fold takes their records in too.
import { parentPort } from 'node:worker_threads';
import { KeyError, loadChainKey } from '../ledger/chain';
import { readCheckpoints, writeCheckpoint } from '../ledger/checkpoints';
import { LedgerError, type Head } from '../ledger/errors';
import { foldJournal } from '../ledger/fold';
import { compliancePaths } from '../ledger/paths';
import { Ledger } from '../ledger/store';
import { ledgerIdentityOf, sourceOf } from '../ledger/ledger-identity';
import { UpkeepShipper } from '../team/upkeep-shipper';

export const HISTORY_INTERVAL_MS = 200;

export type UpkeepRequest = { type: 'advanced'; projectDir: string; head: Head; checkpoint?: string } | { type: 'catch-up'; projectDir: string } | { type: 'shutdown'; reason: string };
/** `written`: the checkpoints the shutdown wrote (none for a project whose head had not moved since its last one). */
export type UpkeepReply = { type: 'stopped'; problems: string[]; written: { projectDir: string; seq: number }[] };

class ProjectUpkeep {
  private timer?: NodeJS.Timeout;
  private synced = 0;
  head?: Head;
  /** The last fold's failure, reported once per change. */
  problem?: string;

  /** The seq of the newest checkpoint in the project: a shutdown writes one only when the head moved past it. */
  private checkpointed: number;

  constructor(readonly projectDir: string) {
    this.checkpointed = readCheckpoints(compliancePaths(projectDir).checkpoints).checkpoints.reduce((m, c) => Math.max(m, c.seq), -1);
  }

  advanced(head: Head, checkpoint: string | undefined): void {
    this.head = head;
    if (checkpoint) this.checkpoint(checkpoint);
    // Under load the journal is folded (and history.json rewritten) at most every HISTORY_INTERVAL_MS, not per commit.
    this.timer ??= setTimeout(() => this.fold(), HISTORY_INTERVAL_MS);
  }

  /** Folds the journal into the database and brings history.json up to date. */
  fold(): Head | undefined {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    try {
      const r = foldJournal(this.projectDir);
      const problem = [...r.problems, ...r.warnings].join('; ') || undefined;
      if (problem && problem !== this.problem) process.stderr.write(`loom serve: ledger upkeep: ${problem}\n`);
      this.problem = problem;
      if (r.head) this.synced = r.head.seq;
      return r.head;
    } catch (e) {
      // The records are safe in the journal; the next fold retries.
      const problem = e instanceof LedgerError ? e.message : (e as Error).message;
      if (problem !== this.problem) process.stderr.write(`loom serve: ledger upkeep: ${problem}\n`);
      this.problem = problem;
      if (this.head && this.head.seq > this.synced) this.timer = setTimeout(() => this.fold(), HISTORY_INTERVAL_MS * 5);
      return undefined;
    }
  }

  checkpoint(reason: string, head = this.head): string[] {
    if (!head) return [];
    try {
      const problems = writeCheckpoint(compliancePaths(this.projectDir).checkpoints, this.projectDir, head, reason, loadChainKey(this.projectDir), process.env, ledgerIdentityOf(this.projectDir, undefined, (p) => sourceOf(Ledger.openReadOnly(p), true)));
      this.checkpointed = Math.max(this.checkpointed, head.seq);
      return problems;
    } catch (e) {
      return [e instanceof KeyError ? e.message : `checkpoint: ${(e as Error).message}`];
    }
  }

  /** Last fold and, when the head moved since the newest checkpoint, a checkpoint of it. */
  finish(reason: string): { problems: string[]; written?: number } {
    const folded = this.fold();
    const head = this.head && (!folded || this.head.seq >= folded.seq) ? this.head : folded;
    const moved = head !== undefined && head.seq > this.checkpointed;
    const problems = moved ? this.checkpoint(reason, head) : [];
    if (this.problem) problems.push(this.problem);
    return { problems, written: moved && !problems.length ? head.seq : undefined };
  }
}

const projects = new Map<string, ProjectUpkeep>();
// With a team store configured (LOOM_TEAM_URL or team.url), each project is shipped from here too.
const shipper = new UpkeepShipper();
parentPort!.on('message', (m: UpkeepRequest) => {
  const upkeepOf = (projectDir: string) => {
    let p = projects.get(projectDir);
    if (!p) projects.set(projectDir, (p = new ProjectUpkeep(projectDir)));
    return p;
  };
  if (m.type === 'advanced') {
    upkeepOf(m.projectDir).advanced(m.head, m.checkpoint);
    shipper.nudge(m.projectDir);
  } else if (m.type === 'catch-up') {
    // At start: records the hooks (or a killed server) left in the journal reach the database and history.json now, not at the first request.
    const p = upkeepOf(m.projectDir);
    const head = p.fold();
    if (head && (!p.head || head.seq > p.head.seq)) p.head = head;
  } else {
    const results = [...projects.values()].map((p) => ({ projectDir: p.projectDir, ...p.finish(m.reason) }));
    const problems = results.flatMap((r) => r.problems);
    const written = results.flatMap((r) => (r.written === undefined ? [] : [{ projectDir: r.projectDir, seq: r.written }]));
    void shipper.finish([...projects.keys()]).finally(() => parentPort!.postMessage({ type: 'stopped', problems, written } satisfies UpkeepReply));
  }
});
