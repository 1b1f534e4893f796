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
}

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
  firstTs: string;
  lastTs: string;
}

/** Events over a session's own time span, in BUCKETS buckets whose width doubles as the session grows. */
export interface SessionStats {
  first: string;
  last: string;
  count: number;
  denied: number;
  harness: string;
  buckets: number[];
  widthMs: number;
}

function addToTimeline(s: SessionStats, ts: string): void {
  let i = Math.floor((Date.parse(ts) - Date.parse(s.first)) / s.widthMs);
  while (i >= BUCKETS) {
    const merged = new Array(BUCKETS).fill(0);
    for (let k = 0; k < BUCKETS; k++) merged[k >> 1] += s.buckets[k];
    s.buckets = merged;
    s.widthMs *= 2;
    i = Math.floor((Date.parse(ts) - Date.parse(s.first)) / s.widthMs);
  }
  s.buckets[Math.max(0, i)]++;
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
  return { seq: r.seq as number, ts: String(r.ts), event: String(r.event), hook_id: String(r.hook_id), session_id: String(r.session_id), decision: String(r.decision), risk: String(r.risk), kind: String(r.kind), summary, reason, redactions: Number(r.redactions ?? 0), user, host: String(a.host ?? ''), harness: String(r.harness ?? '') };
}

const bump = (m: Record<string, number>, k: string) => (m[k] = (m[k] ?? 0) + 1);
const bumpMap = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

export function collect(projectDir: string, f: ReportFilter, onProgress?: (done: number, total: number) => void): Collected {
  const c: Omit<Collected, 'verify'> = {
    total: 0, matched: 0, byEvent: {}, byDecision: {}, byRisk: {}, redactions: 0, sessions: new Map(), deniedCommands: new Map(), deniedRules: new Map(), highRisk: [], recent: [], handoffs: [], denials: [], firstTs: '', lastTs: '',
  };
  const denials = new Ring<RecordRow>(MAX_TABLE);
  const highRisk = new Ring<RecordRow>(MAX_HIGH_RISK);
  const recent = new Ring<RecordRow>(MAX_TABLE);
  const verify = verifyLedger(projectDir, {
    onProgress,
    onRecord: (r) => {
      c.total++;
      const ts = String(r.ts);
      if ((f.since && ts < f.since) || (f.until && ts > f.until) || (f.session && r.session_id !== f.session) || (f.sessions && !f.sessions.has(String(r.session_id)))) return;
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
        s = { first: ts, last: ts, count: 0, denied: 0, harness: String(r.harness), buckets: new Array(BUCKETS).fill(0), widthMs: 1000 };
        c.sessions.set(sid, s);
      }
      if (s) {
        s.last = ts;
        s.count++;
        if (r.decision === 'deny') s.denied++;
        addToTimeline(s, ts);
      }
      const d = (r[r.kind as string] ?? {}) as Record<string, unknown>;
      if (r.decision === 'deny') {
        const row = rowOf(r);
        if (r.event === 'PreToolUse' || r.event === 'PermissionRequest') bumpMap(c.deniedCommands, row.summary.slice(0, 160));
        const rules = Array.isArray(d.rules) ? (d.rules as { rule: string; action: string }[]).filter((x) => x.action === 'deny').map((x) => x.rule) : [];
        for (const rule of rules.length ? rules : [row.reason.split(':')[0] || r.hook_id]) bumpMap(c.deniedRules, String(rule));
        denials.push(row);
      }
      if (r.risk === 'high' || r.risk === 'critical') {
        highRisk.push(rowOf(r));
      }
      if (r.kind === 'compaction' && typeof d.handoff_path === 'string') c.handoffs.push({ seq: r.seq as number, ts, session_id: sid, path: d.handoff_path, spec: String(d.spec ?? '') });
      recent.push(rowOf(r));
    },
  });
  return { verify, ...c, denials: denials.toArray(), highRisk: highRisk.toArray(), recent: recent.toArray() };
}
