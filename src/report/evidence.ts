// Markdown evidence for a pull request: sessions, decisions, denied actions
// with reasons, high-risk events, handoffs, and the verify result with the
// ledger head hash so a reviewer can re-verify later.
import type { Collected } from './collect';

const md = (s: unknown) => String(s ?? '').replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ').replace(/`/g, "'").slice(0, 240);

export function renderEvidence(c: Collected, project: string, spec?: string): string {
  const v = c.verify;
  const out: string[] = ['## loom compliance evidence', ''];
  if (v.status === 'intact') out.push(`**Ledger: intact.** ${v.records} records verified from seq 1 (chain \`${v.chain}\`); head seq ${v.head?.seq ?? 0}, hash \`${v.head?.hash ?? ''}\`; ${v.checkpoints.count} checkpoint(s).`);
  else if (v.status === 'tampered') out.push(`**Ledger: TAMPERED** at seq ${v.problem!.seq} (${v.problem!.kind}): ${md(v.problem!.detail)}`);
  else out.push(`**Ledger: could not be verified**: ${md(v.error)}`);
  out.push('', `Re-verify: \`loom verify --project-dir ${project}\` must report head seq ${v.head?.seq ?? 0} with hash \`${v.head?.hash ?? ''}\` (or a later head whose chain includes it).`, '');
  if (spec) out.push(`Scope: sessions that wrote handoffs for \`${spec}\`.`, '');
  out.push('### Summary', '', '| records | allowed | asked | denied | high or critical | secrets redacted | sessions |', '| --- | --- | --- | --- | --- | --- | --- |');
  out.push(`| ${c.matched} | ${c.byDecision.allow ?? 0} | ${c.byDecision.ask ?? 0} | ${c.byDecision.deny ?? 0} | ${(c.byRisk.high ?? 0) + (c.byRisk.critical ?? 0)} | ${c.redactions} | ${c.sessions.size} |`, '');
  out.push('### Sessions', '', '| session | harness | first | last | records | denied |', '| --- | --- | --- | --- | --- | --- |');
  for (const [sid, s] of [...c.sessions.entries()].slice(0, 50)) out.push(`| \`${md(sid)}\` | ${md(s.harness)} | ${s.first} | ${s.last} | ${s.count} | ${s.denied} |`);
  out.push('', '### Denied actions', '');
  if (!c.denials.length) out.push('None.');
  else {
    out.push('| seq | time | user | event | what | reason |', '| --- | --- | --- | --- | --- | --- |');
    for (const d of c.denials.slice(-50)) out.push(`| ${d.seq} | ${d.ts} | ${md(d.user)} | ${d.event} | \`${md(d.summary)}\` | ${md(d.reason)} |`);
  }
  out.push('', '### High-risk events', '');
  if (!c.highRisk.length) out.push('None.');
  else {
    out.push('| seq | time | event | risk | decision | what |', '| --- | --- | --- | --- | --- | --- |');
    for (const h of c.highRisk.slice(-50)) out.push(`| ${h.seq} | ${h.ts} | ${h.event} | ${h.risk} | ${h.decision} | \`${md(h.summary)}\` |`);
  }
  out.push('', '### Compaction handoffs', '');
  if (!c.handoffs.length) out.push('None.');
  else for (const h of c.handoffs) out.push(`- seq ${h.seq}, ${h.ts}, session \`${md(h.session_id)}\`: \`${md(h.path)}\``);
  out.push('');
  return out.join('\n');
}
