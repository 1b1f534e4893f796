// The team report: one self-contained HTML page (no script, no external
// resource) with per-user, per-repository and per-day breakdowns as bars.
import type { Count, TeamSummary } from './report';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function bars(title: string, rows: Count[], max = 30): string {
  const top = rows.slice(0, max);
  const most = Math.max(1, ...top.map((r) => r.n));
  const body = top
    .map((r) => `<tr><td>${esc(r.key)}</td><td class="n">${r.n.toLocaleString('en-US')}</td><td class="n">${r.denied.toLocaleString('en-US')}</td><td class="bar"><span style="width:${((r.n / most) * 100).toFixed(1)}%"></span><span class="deny" style="width:${((r.denied / most) * 100).toFixed(1)}%"></span></td></tr>`)
    .join('\n');
  const more = rows.length > max ? `<p class="more">${rows.length - max} more not shown</p>` : '';
  return `<section><h2>${esc(title)}</h2><table><thead><tr><th></th><th>records</th><th>denied</th><th></th></tr></thead><tbody>${body || '<tr><td colspan="4">none</td></tr>'}</tbody></table>${more}</section>`;
}

export function renderTeamReport(s: TeamSummary, meta: { store: string; filter: string; generatedAt: string }): string {
  const alerts = s.alerts.length ? s.alerts.map((a) => `<li class="alert">${esc(a.kind)}: ${a.n}</li>`).join('') : '<li>none</li>';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>loom team report</title>
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<style>body{font:14px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin-bottom:1em}td,th{padding:2px 8px;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}td.bar{width:320px;position:relative}td.bar span{display:block;height:10px;background:#4a7ebb}td.bar span.deny{background:#c0392b;margin-top:1px}.alert{color:#c0392b;font-weight:bold}section{display:inline-block;vertical-align:top;margin-right:2em}.more{color:#777}</style></head><body>
<h1>loom team report</h1>
<p>Store ${esc(meta.store)} · ${esc(meta.filter)} · generated ${esc(meta.generatedAt)}</p>
<p><b>${s.total.toLocaleString('en-US')}</b> records from <b>${s.ledgers}</b> ledgers, <b>${s.denied.toLocaleString('en-US')}</b> denied${s.first ? `, ${esc(s.first)} to ${esc(s.last ?? '')}` : ''}.</p>
<h2>Alerts (forks, gaps, rollbacks)</h2><ul>${alerts}</ul>
${bars('By user', s.byUser)}
${bars('By repository', s.byRepo)}
${bars('By day', s.byDay, 120)}
${bars('By decision', s.byDecision)}
${bars('By risk', s.byRisk)}
${bars('By event', s.byEvent)}
</body></html>
`;
}
