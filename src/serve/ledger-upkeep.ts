// The upkeep thread of `loom serve`: the work a commit need not wait for.
// It folds the journal into the SQLite ledger, brings history.json up to the
// head and writes the chain checkpoints, so the committing thread never
// stalls behind them. Command hooks on the same project append to the same
// journal; this fold takes their records in too.
import { existsSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { KeyError, loadChainKey } from '../ledger/chain';
import { readCheckpoints, writeCheckpoint } from '../ledger/checkpoints';
import { LedgerError, type Head } from '../ledger/errors';
import { foldJournal } from '../ledger/fold';
import { compliancePaths } from '../ledger/paths';
import { corruptMessage, DatabaseCorruptError, isCorruptionCode, markCorrupt, quickCheck, readCorruptMark } from '../ledger/integrity';
import { Ledger } from '../ledger/store';
import { ledgerIdentityOf, sourceOf } from '../ledger/ledger-identity';
import { UpkeepShipper } from '../team/upkeep-shipper';

export const HISTORY_INTERVAL_MS = 200;
/** How often the database's pages are checked (PRAGMA quick_check); LOOM_INTEGRITY_CHECK_MS overrides. */
export const INTEGRITY_INTERVAL_MS = 10 * 60_000;
/** The check never takes more than 1/20 of the upkeep thread's time, however large the database. */
const INTEGRITY_MAX_SHARE = 20;

function integrityInterval(): number {
  const v = Number(process.env.LOOM_INTEGRITY_CHECK_MS);
  return Number.isFinite(v) && v >= 50 ? v : INTEGRITY_INTERVAL_MS;
}

export type UpkeepRequest = { type: 'advanced'; projectDir: string; head: Head; checkpoint?: string } | { type: 'catch-up'; projectDir: string } | { type: 'shutdown'; reason: string };
/** `written`: the checkpoints the shutdown wrote (none for a project whose head had not moved since its last one). */
export type UpkeepStopped = { type: 'stopped'; problems: string[]; written: { projectDir: string; seq: number }[] };
export type UpkeepReply = UpkeepStopped | UpkeepIntegrity;
/** A project's database was found corrupt (problem), or is sound again after loom recover (no problem). */
export type UpkeepIntegrity = { type: 'integrity'; projectDir: string; problem?: string; checks: number };

class ProjectUpkeep {
  private timer?: NodeJS.Timeout;
  private synced = 0;
  head?: Head;
  /** The last fold's failure, reported once per change. */
  problem?: string;
  /** Set while the database is known corrupt: folds stop, the journal keeps the records. */
  corrupt?: string;
  private integrityTimer?: NodeJS.Timeout;
  private checks = 0;
  private stopped = false;

  /** The seq of the newest checkpoint in the project: a shutdown writes one only when the head moved past it. */
  private checkpointed: number;

  constructor(readonly projectDir: string) {
    this.checkpointed = readCheckpoints(compliancePaths(projectDir).checkpoints).checkpoints.reduce((m, c) => Math.max(m, c.seq), -1);
    this.integrityTimer = setTimeout(() => this.checkIntegrity(), 0);
  }

  /**
   * PRAGMA quick_check on a read-only connection, off the commit path: at
   * start, then every LOOM_INTEGRITY_CHECK_MS (10 min), and never more often
   * than 20 times its own duration. Damage marks the file, which stops every
   * fold into it; the server keeps answering and recording to the journal.
   */
  checkIntegrity(): void {
    this.integrityTimer = undefined;
    if (this.stopped) return;
    const paths = compliancePaths(this.projectDir);
    const started = Date.now();
    if (!readCorruptMark(paths) && existsSync(paths.db)) {
      let l: Ledger | undefined;
      try {
        l = Ledger.openReadOnly(this.projectDir);
        const damage = quickCheck(l.handle);
        if (damage) markCorrupt(paths, damage, 'loom serve upkeep');
      } catch (e) {
        if (e instanceof DatabaseCorruptError || isCorruptionCode(e)) markCorrupt(paths, e instanceof DatabaseCorruptError ? e.detail : (e as Error).message, 'loom serve upkeep');
        // Anything else (locked, missing): not a finding about the pages; the next check tries again.
      } finally {
        l?.close();
      }
    }
    this.checks++;
    this.noteCorruption();
    const took = Date.now() - started;
    this.integrityTimer = setTimeout(() => this.checkIntegrity(), Math.max(integrityInterval(), took * INTEGRITY_MAX_SHARE));
  }

  /** Tells the server when the database turned corrupt or sound (healthz, metrics), once per change. */
  private noteCorruption(): void {
    const mark = readCorruptMark(compliancePaths(this.projectDir));
    const now = mark ? corruptMessage(compliancePaths(this.projectDir), mark) : undefined;
    if (now === this.corrupt) return;
    this.corrupt = now;
    if (now) process.stderr.write(`loom serve: ledger upkeep: ${now}\n`);
    parentPort!.postMessage({ type: 'integrity', projectDir: this.projectDir, problem: now, checks: this.checks } satisfies UpkeepReply);
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
      if (this.corrupt) this.noteCorruption();
      return r.head;
    } catch (e) {
      // The records are safe in the journal; the next fold retries.
      const problem = e instanceof LedgerError ? e.message : (e as Error).message;
      if (e instanceof DatabaseCorruptError) this.noteCorruption();
      else if (problem !== this.problem) process.stderr.write(`loom serve: ledger upkeep: ${problem}\n`);
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
    this.stopped = true;
    if (this.integrityTimer) clearTimeout(this.integrityTimer);
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
