// One streaming pass over the ledger (the same pass as verify) that keeps
// only what a report needs: counts, per-session time buckets, top denied
// commands and rules, high-risk records, a bounded table of recent records.
// Memory stays flat whatever the ledger's size.
import type { VerifyResult } from '../ledger/verify';
import { verifyLedger } from '../ledger/verify';

export interface ReportFilter {
  since?: string;
  until?: string;
  session?: string;
  /** Several sessions (evidence for a spec). */
  sessions?: Set<string>;
  /** Sessions left out (evidence for a branch: sessions that ran on another branch). */
  excludeSessions?: Set<string>;
  /**
   * Only records made on this git branch (evidence for a pull request). A
   * record names its branch (actor.branch); for older records, which do not,
   * `excludeSessions` (sessions whose SessionStart named another branch) decides.
   */
  branch?: string;
  /** Only records of this actor: its OS user, git email or the harness's user id. */
  user?: string;
}

/** What became of an action the guard asked about, from the records that followed it. */
export type Approval = 'approved, ran' | 'approved, failed' | 'refused' | 'no answer on record';

export interface RecordRow {
  seq: number;
  ts: string;
  event: string;
  hook_id: string;
  session_id: string;
  decision: string;
  risk: string;
  kind: string;
  summary: string;
  reason: string;
  redactions: number;
  /** Who acted (the harness's user id, git email or OS user), on which host, through which harness. */
  user: string;
  host: string;
  harness: string;
  /** The git branch the record was made on ('' when not recorded). */
  branch: string;
  /** For an ask: what became of it (empty for every other record). */
  approval: string;
}

/** A raw chain row, kept only for an evidence bundle. */
export type RawRow = [seq: number, hash: string, body: string];

export interface CollectOptions {
  onProgress?: (done: number, total: number) => void;
  /** Every verified row of the chain (not only the filtered ones), for a bundle that re-verifies from seq 1. */
  raw?: RawRow[];
}

export interface Collected {
  verify: VerifyResult;
  total: number;
  matched: number;
  byEvent: Record<string, number>;
  byDecision: Record<string, number>;
  byRisk: Record<string, number>;
  redactions: number;
  sessions: Map<string, SessionStats>;
  deniedCommands: Map<string, number>;
  deniedRules: Map<string, number>;
  highRisk: RecordRow[];
  recent: RecordRow[];
  handoffs: { seq: number; ts: string; session_id: string; path: string; spec: string }[];
  denials: RecordRow[];
  /** The latest asks, each with what became of it. */
  asks: RecordRow[];
  firstTs: string;
  lastTs: string;
  /** With a branch filter: the sessions whose records on another branch were left out. */
  otherBranchSessions: Set<string>;
}

/**
 * Events over time from the first record in range (one axis for every
 * session), in BUCKETS buckets whose width doubles as the range grows: widths
 * are 1 s times a power of two, so sessions re-bin exactly to the widest.
 */
export interface SessionStats {
  first: string;
  last: string;
  count: number;
  denied: number;
  harness: string;
  /** Who acted in the session (at most a few). */
  users: string[];
  buckets: number[];
  widthMs: number;
}

function widen(s: SessionStats): void {
  const merged = new Array(BUCKETS).fill(0);
  for (let k = 0; k < BUCKETS; k++) merged[k >> 1] += s.buckets[k];
  s.buckets = merged;
  s.widthMs *= 2;
}

function addToTimeline(s: SessionStats, ts: string, origin: string): void {
  const at = Date.parse(ts) - Date.parse(origin);
  let i = Math.floor(at / s.widthMs);
  while (i >= BUCKETS) {
    widen(s);
    i = Math.floor(at / s.widthMs);
  }
  s.buckets[Math.max(0, i)]++;
}

/** Every session's buckets at one width (the widest), so their columns line up on one time axis. */
export function alignTimelines(sessions: SessionStats[]): { widthMs: number; rows: number[][] } {
  const widthMs = Math.max(1000, ...sessions.map((s) => s.widthMs));
  const rows = sessions.map((s) => {
    const out = new Array(BUCKETS).fill(0);
    const f = widthMs / s.widthMs;
    s.buckets.forEach((n, k) => (out[Math.floor(k / f)] += n));
    return out;
  });
  return { widthMs, rows };
}

/** The last `cap` items pushed, in order, without shifting arrays. */
export class Ring<T> {
  private items: T[] = [];
  private start = 0;
  constructor(private readonly cap: number) {}
  push(x: T): void {
    if (this.items.length < this.cap) this.items.push(x);
    else {
      this.items[this.start] = x;
      this.start = (this.start + 1) % this.cap;
    }
  }
  toArray(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }
}

export const MAX_TABLE = 2000;
export const MAX_HIGH_RISK = 300;
export const MAX_SESSIONS = 2000;
export const BUCKETS = 48;

function rowOf(r: Record<string, unknown>): RecordRow {
  const d = (r[r.kind as string] ?? {}) as Record<string, unknown>;
  const hook = (d.hook ?? {}) as Record<string, unknown>;
  const summary = String(d.input_summary ?? d.command ?? d.text ?? d.path ?? d.message ?? d.source ?? d.trigger ?? '').slice(0, 300);
  const reason = String(hook.reason ?? d.reason ?? d.error ?? '').slice(0, 300);
  const a = (d.actor ?? {}) as Record<string, unknown>;
  const user = String(a.client_user ?? a.email ?? a.user ?? '');
  return { seq: r.seq as number, ts: String(r.ts), event: String(r.event), hook_id: String(r.hook_id), session_id: String(r.session_id), decision: String(r.decision), risk: String(r.risk), kind: String(r.kind), summary, reason, redactions: Number(r.redactions ?? 0), user, host: String(a.host ?? ''), harness: String(r.harness ?? ''), branch: typeof a.branch === 'string' ? a.branch : '', approval: '' };
}

/** Asks waiting for the record that tells what became of them: by tool use id, else by the command's summary, per session. */
class PendingAsks {
  private byKey = new Map<string, RecordRow>();
  private static keys(r: Record<string, unknown>, d: Record<string, unknown>): string[] {
    const sid = String(r.session_id);
    const keys = [`s:${sid}:${String(d.input_summary ?? '')}`];
    if (typeof d.tool_use_id === 'string' && d.tool_use_id) keys.unshift(`t:${sid}:${d.tool_use_id}`);
    return keys;
  }
  add(r: Record<string, unknown>, d: Record<string, unknown>, row: RecordRow): void {
    row.approval = 'no answer on record';
    for (const k of PendingAsks.keys(r, d)) {
      this.byKey.delete(k);
      this.byKey.set(k, row);
    }
    // Bounded: the oldest unanswered asks stay "no answer on record".
    while (this.byKey.size > 2 * MAX_TABLE) this.byKey.delete(this.byKey.keys().next().value as string);
  }
  settle(r: Record<string, unknown>, d: Record<string, unknown>, outcome: Approval, byToolUseOnly = false): void {
    const keys = PendingAsks.keys(r, d).filter((k) => !byToolUseOnly || k.startsWith('t:'));
    for (const k of keys) {
      const row = this.byKey.get(k);
      if (!row) continue;
      row.approval = outcome;
      for (const other of [...this.byKey.entries()].filter(([, v]) => v === row)) this.byKey.delete(other[0]);
      return;
    }
  }
}

const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
const bumpMap = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

export function collect(projectDir: string, f: ReportFilter, opts: CollectOptions | ((done: number, total: number) => void) = {}): Collected {
  const o: CollectOptions = typeof opts === 'function' ? { onProgress: opts } : opts;
  const c: Omit<Collected, 'verify'> = {
    total: 0, matched: 0, byEvent: {}, byDecision: {}, byRisk: {}, redactions: 0, sessions: new Map(), deniedCommands: new Map(), deniedRules: new Map(), highRisk: [], recent: [], handoffs: [], denials: [], asks: [], firstTs: '', lastTs: '', otherBranchSessions: new Set(),
  };
  const denials = new Ring<RecordRow>(MAX_TABLE);
  const highRisk = new Ring<RecordRow>(MAX_HIGH_RISK);
  const recent = new Ring<RecordRow>(MAX_TABLE);
  const asks = new Ring<RecordRow>(MAX_TABLE);
  const pending = new PendingAsks();
  const verify = verifyLedger(projectDir, {
    onProgress: o.onProgress,
    onRecord: (r, hash, body) => {
      c.total++;
      if (o.raw && body !== undefined) o.raw.push([r.seq as number, hash, body]);
      const ts = String(r.ts);
      const sidOf = String(r.session_id);
      if ((f.since && ts < f.since) || (f.until && ts > f.until) || (f.session && r.session_id !== f.session) || (f.sessions && !f.sessions.has(sidOf))) return;
      const d = (r[r.kind as string] ?? {}) as Record<string, unknown>;
      if (f.user !== undefined) {
        const a = (d.actor ?? {}) as Record<string, unknown>;
        if (a.user !== f.user && a.email !== f.user && a.client_user !== f.user) return;
      }
      const row = rowOf(r);
      if (f.branch !== undefined) {
        // The record's own branch decides; a record from before branches were recorded goes by its session's start.
        if (row.branch ? row.branch !== f.branch : f.excludeSessions?.has(sidOf)) {
          if (c.otherBranchSessions.size < MAX_SESSIONS) c.otherBranchSessions.add(sidOf);
          return;
        }
      } else if (f.excludeSessions?.has(sidOf)) return;
      c.matched++;
      if (!c.firstTs) c.firstTs = ts;
      c.lastTs = ts;
      bump(c.byEvent, String(r.event));
      bump(c.byDecision, String(r.decision));
      bump(c.byRisk, String(r.risk));
      c.redactions += Number(r.redactions ?? 0);
      const sid = String(r.session_id || '(none)');
      let s = c.sessions.get(sid);
      if (!s && c.sessions.size < MAX_SESSIONS) {
        s = { first: ts, last: ts, count: 0, denied: 0, harness: String(r.harness), users: [], buckets: new Array(BUCKETS).fill(0), widthMs: 1000 };
        // Start at the width the others reached, so a late session does not re-bin from 1 s.
        for (const other of c.sessions.values()) while (s.widthMs < other.widthMs) s.widthMs *= 2;
        c.sessions.set(sid, s);
      }
      if (s) {
        s.last = ts;
        s.count++;
        if (r.decision === 'deny') s.denied++;
        if (row.user && s.users.length < 3 && !s.users.includes(row.user)) s.users.push(row.user);
        addToTimeline(s, ts, c.firstTs);
      }
      if (r.decision === 'ask' && r.event === 'PreToolUse') {
        pending.add(r, d, row);
        asks.push(row);
      } else if (r.event === 'PostToolUse') pending.settle(r, d, 'approved, ran');
      else if (r.event === 'PostToolUseFailure') pending.settle(r, d, 'approved, failed');
      else if (r.event === 'PermissionDenied' || (r.event === 'PermissionRequest' && (r.decision === 'deny' || r.decision === 'denied'))) pending.settle(r, d, 'refused');
      if (r.decision === 'deny') {
        if (r.event === 'PreToolUse' || r.event === 'PermissionRequest') bumpMap(c.deniedCommands, row.summary.slice(0, 160));
        const rules = Array.isArray(d.rules) ? (d.rules as { rule: string; action: string }[]).filter((x) => x.action === 'deny').map((x) => x.rule) : [];
        for (const rule of rules.length ? rules : [row.reason.split(':')[0] || r.hook_id]) bumpMap(c.deniedRules, String(rule));
        denials.push(row);
      }
      if (r.risk === 'high' || r.risk === 'critical') {
        highRisk.push(row);
      }
      if (r.kind === 'compaction' && typeof d.handoff_path === 'string') c.handoffs.push({ seq: r.seq as number, ts, session_id: sid, path: d.handoff_path, spec: String(d.spec ?? '') });
      recent.push(row);
    },
  });
  return { verify, ...c, denials: denials.toArray(), highRisk: highRisk.toArray(), recent: recent.toArray(), asks: asks.toArray() };
}
