// PR evidence from the team store: `loom evidence --team --repo R --branch B`.
// The records of one repository and branch across every developer's ledger:
// each ledger re-verified from the store (chain, forks, gaps, alerts), the
// counts by decision, user and event (SQL), and the denials, as Markdown a
// pull request can carry.
import { clip } from '../report/evidence';
import type { PgClient } from './pg';
import { teamHistory, teamSummary, type TeamFilter } from './report';
import { verifyTeam, type LedgerVerdict } from './verify';

// Cut at a word (with an ellipsis), never inside one, before escaping: an escape is never split.
export const teamMd = (s: unknown): string => clip(String(s ?? '').replace(/[\r\n]+/g, ' '), 300).replace(/[|`<>]/g, (c) => `\\${c}`);

export interface TeamEvidence {
  text: string;
  intact: boolean;
  records: number;
}

export async function teamEvidence(client: PgClient, f: TeamFilter, storeName: string): Promise<TeamEvidence> {
  const s = await teamSummary(client, f);
  const ids = (await client.query<{ ledger_id: string }>(`SELECT DISTINCT ledger_id FROM loom.records WHERE repo = $1 AND ($2::text IS NULL OR branch = $2) ORDER BY ledger_id`, [f.repo, f.branch ?? null])).rows.map((r) => r.ledger_id);
  const verdicts: LedgerVerdict[] = [];
  for (const id of ids) verdicts.push(...(await verifyTeam(client, { ledger: id })).ledgers);
  const bad = verdicts.filter((v) => v.problems.length);
  const out: string[] = ['## loom compliance evidence (team store)', ''];
  out.push(`Scope: repository \`${teamMd(f.repo)}\`${f.branch ? `, branch \`${teamMd(f.branch)}\`` : ''}${f.since ? `, since ${f.since}` : ''}${f.until ? `, until ${f.until}` : ''}; store ${teamMd(storeName)}.`, '');
  if (!ids.length) out.push('**No records** for this repository and branch in the team store.', '');
  else if (!bad.length) out.push(`**Ledgers: intact.** ${verdicts.length} ledger(s) re-verified from the store (${verdicts.reduce((a, v) => a + v.records, 0)} records; chain, seq continuity, alerts).`, '');
  else out.push(`**Ledgers: PROBLEMS** in ${bad.length} of ${verdicts.length} ledger(s):`, '', ...bad.flatMap((v) => v.problems.slice(0, 10).map((p) => `- ledger \`${v.ledgerId}\` seq ${p.seq} (${p.kind}): ${teamMd(p.detail)}`)), '');
  out.push('| ledger | project | records | head seq | hashes checked |', '| --- | --- | --- | --- | --- |');
  for (const v of verdicts) out.push(`| \`${v.ledgerId}\` | ${teamMd(v.project)} | ${v.records} | ${v.headSeq} | ${v.hashesChecked ? 'yes' : 'no (keyed; set LOOM_LEDGER_KEY)'} |`);
  out.push('', `Re-verify: \`loom verify --team --ledger <id>\` for each ledger above.`, '');
  out.push('### Summary', '', '| records | allowed | asked | denied | high or critical | users | first | last |', '| --- | --- | --- | --- | --- | --- | --- | --- |');
  const dec = (k: string) => s.byDecision.find((c) => c.key === k)?.n ?? 0;
  const risk = (k: string) => s.byRisk.find((c) => c.key === k)?.n ?? 0;
  out.push(`| ${s.total} | ${dec('allow')} | ${dec('ask')} | ${s.denied} | ${risk('high') + risk('critical')} | ${s.byUser.length} | ${s.first ?? ''} | ${s.last ?? ''} |`, '');
  out.push('### By user', '', '| user | records | denied |', '| --- | --- | --- |', ...s.byUser.slice(0, 50).map((c) => `| ${teamMd(c.key)} | ${c.n} | ${c.denied} |`), '');
  out.push('### By event', '', '| event | records | denied |', '| --- | --- | --- |', ...s.byEvent.slice(0, 50).map((c) => `| ${teamMd(c.key)} | ${c.n} | ${c.denied} |`), '');
  const denials = await teamHistory(client, { ...f, decision: 'deny', limit: 50 });
  out.push(`### Denials (latest ${denials.length} of ${s.denied})`, '');
  if (denials.length) {
    out.push('| time | user | event | hook | risk | ledger seq |', '| --- | --- | --- | --- | --- | --- |');
    for (const d of denials) out.push(`| ${d.ts} | ${teamMd(d.actor_user)} | ${teamMd(d.event)} | ${teamMd(d.hook_id)} | ${teamMd(d.risk)} | \`${d.ledger_id}\` ${d.seq} |`);
  } else out.push('None.');
  out.push('');
  return { text: out.join('\n'), intact: ids.length > 0 && !bad.length, records: s.total };
}
