// Markdown evidence for a pull request: sessions, decisions, denied actions
// with reasons, high-risk events, handoffs, and the verify result with the
// ledger head hash so a reviewer can re-verify later.
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import type { Collected, RecordRow } from './collect';
import { clip } from '../util/clip';

/** The project as a reviewer names it from the repository's top folder: `.`, or the path below it. */
export function projectFromRepo(project: string): string {
  for (let d = project; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return relative(d, project).split(sep).join('/') || '.';
    if (dirname(d) === d) return '.';
  }
}

/** At most `max` characters, cut at a word boundary (never mid-word) with an ellipsis. */
export { clip };

const md = (s: unknown, max = 240) => clip(String(s ?? '').replace(/[\r\n]+/g, ' '), max).replace(/\|/g, '\\|').replace(/`/g, "'");

/** One line per distinct denied action (same event, command and reason), with how often and by whom. */
export function distinctDenials(rows: RecordRow[]): { row: RecordRow; times: number; last: string; users: Set<string> }[] {
  const out = new Map<string, { row: RecordRow; times: number; last: string; users: Set<string> }>();
  for (const r of rows) {
    const k = JSON.stringify([r.event, r.summary, r.reason]);
    const e = out.get(k);
    if (e) {
      e.times++;
      e.last = r.ts;
      if (r.user) e.users.add(r.user);
    } else out.set(k, { row: r, times: 1, last: r.ts, users: new Set(r.user ? [r.user] : []) });
  }
  return [...out.values()];
}

export interface EvidenceScope {
  spec?: string;
  /** The branch and the base it left, with the time it left (evidence for a pull request). */
  base?: { branch: string; base: string; since: string; otherBranches: number };
}

export function renderEvidence(c: Collected, project: string, scope: EvidenceScope | string = {}): string {
  const sc: EvidenceScope = typeof scope === 'string' ? { spec: scope } : scope;
  const spec = sc.spec;
  const v = c.verify;
  const out: string[] = ['## loom compliance evidence', ''];
  if (v.status === 'intact') out.push(`**Ledger: intact.** ${v.records} records verified from seq 1 (chain \`${v.chain}\`); head seq ${v.head?.seq ?? 0}, hash \`${v.head?.hash ?? ''}\`; ${v.checkpoints.count} checkpoint(s).`);
  else if (v.status === 'tampered') out.push(`**Ledger: TAMPERED** at seq ${v.problem!.seq} (${v.problem!.kind}): ${md(v.problem!.detail)}`);
  else out.push(`**Ledger: could not be verified**: ${md(v.error)}`);
  const where = projectFromRepo(project);
  out.push('', `Re-verify: from the repository's top folder, \`loom verify${where === '.' ? '' : ` --project-dir ${where}`}\` must report head seq ${v.head?.seq ?? 0} with hash \`${v.head?.hash ?? ''}\` (or a later head whose chain includes it).`, '');
  if (spec) out.push(`Scope: sessions that wrote handoffs for \`${spec}\`.`, '');
  if (sc.base) {
    if (sc.base.branch === 'HEAD') out.push(`Scope: every record since the commit where HEAD (detached, no branch) left \`${md(sc.base.base)}\` (${sc.base.since}).`, '');
    else out.push(`Scope: branch \`${md(sc.base.branch)}\` since it left \`${md(sc.base.base)}\` (${sc.base.since})${sc.base.otherBranches ? `; the records of ${sc.base.otherBranches} session(s) made on other branches left out` : ''}.`, '');
  }
  out.push('### Summary', '', '| records | allowed | asked | denied | high or critical | secrets redacted | sessions |', '| --- | --- | --- | --- | --- | --- | --- |');
  out.push(`| ${c.matched} | ${c.byDecision.allow ?? 0} | ${c.byDecision.ask ?? 0} | ${c.byDecision.deny ?? 0} | ${(c.byRisk.high ?? 0) + (c.byRisk.critical ?? 0)} | ${c.redactions} | ${c.sessions.size} |`, '');
  out.push('### Sessions', '', '| session | user | harness | first | last | records | denied |', '| --- | --- | --- | --- | --- | --- | --- |');
  for (const [sid, s] of [...c.sessions.entries()].slice(0, 50)) out.push(`| \`${md(sid)}\` | ${md(s.users.join(', '))} | ${md(s.harness)} | ${s.first} | ${s.last} | ${s.count} | ${s.denied} |`);
  out.push('', '### Denied actions', '');
  if (!c.denials.length) out.push('None.');
  else {
    // Each denied action once: an agent retrying the same command does not bury the others.
    const distinct = distinctDenials(c.denials);
    out.push('| first seq | first time | times | user | event | what | reason |', '| --- | --- | --- | --- | --- | --- | --- |');
    for (const d of distinct.slice(-50)) out.push(`| ${d.row.seq} | ${d.row.ts} | ${d.times} | ${md([...d.users].join(', '))} | ${d.row.event} | \`${md(d.row.summary)}\` | ${md(d.row.reason, 300)} |`);
    if (distinct.length > 50) out.push('', `(${distinct.length - 50} more distinct denied actions; see \`loom history --decision deny\`.)`);
  }
  out.push('', '### Asks', '');
  if (!c.asks.length) out.push('None.');
  else {
    out.push('| seq | time | user | what | outcome |', '| --- | --- | --- | --- | --- |');
    for (const a of c.asks.slice(-50)) out.push(`| ${a.seq} | ${a.ts} | ${md(a.user)} | \`${md(a.summary)}\` | ${a.approval} |`);
  }
  out.push('', '### High-risk events', '');
  if (!c.highRisk.length) out.push('None.');
  else {
    out.push('| seq | time | user | event | risk | decision | what |', '| --- | --- | --- | --- | --- | --- | --- |');
    for (const h of c.highRisk.slice(-50)) out.push(`| ${h.seq} | ${h.ts} | ${md(h.user)} | ${h.event} | ${h.risk} | ${h.decision} | \`${md(h.summary)}\` |`);
  }
  out.push('', '### Compaction handoffs', '');
  if (!c.handoffs.length) out.push('None.');
  else for (const h of c.handoffs) out.push(`- seq ${h.seq}, ${h.ts}, session \`${md(h.session_id)}\`: \`${md(h.path)}\``);
  out.push('');
  return out.join('\n');
}
