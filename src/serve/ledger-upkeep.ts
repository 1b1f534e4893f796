// The upkeep thread of `loom serve`: the work a commit need not wait for.
// It folds the journal into the SQLite ledger, brings history.json up to the
// head and writes the chain checkpoints, so the committing thread never
// stalls behind them. Command hooks on the same project append to the same
// journal; this fold takes their records in too.
import { parentPort } from 'node:worker_threads';
import { KeyError, loadChainKey } from '../ledger/chain';
import { writeCheckpoint } from '../ledger/checkpoints';
import { LedgerError, type Head } from '../ledger/errors';
import { foldJournal } from '../ledger/fold';
import { compliancePaths } from '../ledger/paths';
import { Ledger } from '../ledger/store';
import { ledgerIdentityOf, sourceOf } from '../ledger/ledger-identity';
import { UpkeepShipper } from '../team/upkeep-shipper';

export const HISTORY_INTERVAL_MS = 200;

export type UpkeepRequest = { type: 'advanced'; projectDir: string; head: Head; checkpoint?: string } | { type: 'shutdown'; reason: string };
export type UpkeepReply = { type: 'stopped'; problems: string[] };

class ProjectUpkeep {
  private timer?: NodeJS.Timeout;
  private synced = 0;
  head?: Head;
  /** The last fold's failure, reported once per change. */
  problem?: string;

  constructor(readonly projectDir: string) {}

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
      return writeCheckpoint(compliancePaths(this.projectDir).checkpoints, this.projectDir, head, reason, loadChainKey(this.projectDir), process.env, ledgerIdentityOf(this.projectDir, undefined, (p) => sourceOf(Ledger.openReadOnly(p), true)));
    } catch (e) {
      return [e instanceof KeyError ? e.message : `checkpoint: ${(e as Error).message}`];
    }
  }

  /** Last fold and a checkpoint of the final head. */
  finish(reason: string): string[] {
    const folded = this.fold();
    const head = this.head && (!folded || this.head.seq >= folded.seq) ? this.head : folded;
    const problems = this.checkpoint(reason, head);
    if (this.problem) problems.push(this.problem);
    return problems;
  }
}

const projects = new Map<string, ProjectUpkeep>();
// With a team store configured (LOOM_TEAM_URL or team.url), each project is shipped from here too.
const shipper = new UpkeepShipper();
parentPort!.on('message', (m: UpkeepRequest) => {
  if (m.type === 'advanced') {
    let p = projects.get(m.projectDir);
    if (!p) projects.set(m.projectDir, (p = new ProjectUpkeep(m.projectDir)));
    p.advanced(m.head, m.checkpoint);
    shipper.nudge(m.projectDir);
  } else {
    const problems = [...projects.values()].flatMap((p) => p.finish(m.reason));
    void shipper.finish([...projects.keys()]).finally(() => parentPort!.postMessage({ type: 'stopped', problems } satisfies UpkeepReply));
  }
});
