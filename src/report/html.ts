// One self-contained HTML file for reviewers: no network (a CSP forbids
// it), inline CSS, SVG charts and a small script for the table filter.
// Every record field is agent-controlled text: it is escaped, and the table
// is filled with textContent, never innerHTML.
import { format, isSameDay } from 'date-fns';
import { alignTimelines, BUCKETS, type Collected, type RecordRow } from './collect';
import { ownValue } from '../util/own';

export function esc(s: unknown): string {
  return String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const COLORS: Record<string, string> = { deny: '#c0392b', ask: '#d68910', allow: '#1e8449', error: '#7d3c98', critical: '#922b21', high: '#c0392b', medium: '#d68910', low: '#2874a6', none: '#7f8c8d' };

function bars(title: string, entries: [string, number][], id: string): string {
  const rows = entries.slice(0, 20);
  const max = Math.max(1, ...rows.map(([, n]) => n));
  const h = 22;
  const width = 520;
  const label = 190;
  const body = rows
    .map(([k, n], i) => {
      const w = Math.max(2, Math.round(((width - label - 60) * n) / max));
      return `<g transform="translate(0,${i * h})"><text x="${label - 6}" y="15" text-anchor="end">${esc(k.length > 28 ? k.slice(0, 27) + '…' : k)}</text><rect class="bar" x="${label}" y="3" width="${w}" height="${h - 6}" fill="${ownValue(COLORS, k) ?? '#2874a6'}"><title>${esc(k)}: ${n}</title></rect><text x="${label + w + 6}" y="15">${n}</text></g>`;
    })
    .join('');
  return `<figure><figcaption>${esc(title)}</figcaption><svg id="${id}" class="chart" width="${width}" height="${Math.max(h, rows.length * h)}" role="img" aria-label="${esc(title)}">${body || '<text x="10" y="15">no records</text>'}</svg></figure>`;
}

/** Risk levels from worst to none; anything else after them. */
export const SEVERITY = ['critical', 'high', 'medium', 'low', 'none'];

export function bySeverity(m: Record<string, number>): [string, number][] {
  const rank = (k: string) => (SEVERITY.includes(k) ? SEVERITY.indexOf(k) : SEVERITY.length);
  return Object.entries(m).sort((a, b) => rank(a[0]) - rank(b[0]) || b[1] - a[1]);
}

/** Tick labels in the local time zone of the machine that renders the report (named in the caption, with the first day). */
function tickLabel(t: number, origin: number, end: number): string {
  return isSameDay(origin, end) ? format(t, 'HH:mm:ss') : format(t, 'MM-dd HH:mm');
}

function timeline(c: Collected): string {
  const sessions = [...c.sessions.entries()].sort((a, b) => a[1].first.localeCompare(b[1].first)).slice(0, 20);
  const cell = 11;
  const rowH = 20;
  const label = 230;
  const axisH = 34;
  const { widthMs, rows } = alignTimelines(sessions.map(([, s]) => s));
  const origin = Date.parse(c.firstTs);
  const body = sessions
    .map(([sid, s], i) => {
      const b = rows[i];
      const max = Math.max(1, ...b);
      const rects = b.map((n, k) => (n ? `<rect x="${label + k * cell}" y="${i * rowH + rowH - 4 - Math.round((n / max) * (rowH - 6))}" width="${cell - 1}" height="${Math.max(1, Math.round((n / max) * (rowH - 6)))}" fill="${s.denied ? '#c0392b' : '#2874a6'}"><title>${n} events from ${esc(format(origin + k * widthMs, 'yyyy-MM-dd HH:mm:ss'))}</title></rect>` : '')).join('');
      return `<text x="${label - 6}" y="${i * rowH + 14}" text-anchor="end">${esc(sid.slice(0, 24))} (${s.count}${s.denied ? `, ${s.denied} denied` : ''})</text>${rects}`;
    })
    .join('');
  const top = Math.max(rowH, sessions.length * rowH);
  let ticks = '';
  for (let k = 0; k <= BUCKETS && sessions.length && !Number.isNaN(origin); k += BUCKETS / 4) {
    const t = origin + k * widthMs;
    const x = label + k * cell;
    ticks += `<line x1="${x}" y1="${top}" x2="${x}" y2="${top + 5}" stroke="#555"/><text class="tick" x="${x}" y="${top + 18}" text-anchor="${k === 0 ? 'start' : k === BUCKETS ? 'end' : 'middle'}">${esc(tickLabel(t, origin, origin + BUCKETS * widthMs))}</text>`;
  }
  const axis = sessions.length ? `<line x1="${label}" y1="${top}" x2="${label + BUCKETS * cell}" y2="${top}" stroke="#555"/>${ticks}` : '';
  const zone = format(Date.now(), 'xxx');
  const step = widthMs >= 3600e3 ? `${+(widthMs / 3600e3).toFixed(2)} h` : widthMs >= 60e3 ? `${+(widthMs / 60e3).toFixed(2)} min` : `${widthMs / 1000} s`;
  return `<figure><figcaption>Events over time, per session (one axis from ${Number.isNaN(origin) ? 'the first record' : esc(format(origin, 'yyyy-MM-dd HH:mm:ss'))}, local time UTC${zone}; each column ${step}; red: the session had denials)</figcaption><svg id="chart-timeline" class="chart" width="${label + BUCKETS * cell + 20}" height="${top + axisH}" role="img" aria-label="timeline">${body || '<text x="10" y="15">no sessions</text>'}${axis}</svg></figure>`;
}

function table(rows: RecordRow[], cols: (keyof RecordRow)[], id: string): string {
  const head = cols.map((c) => `<th>${esc(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${cols.map((c) => `<td class="c-${esc(c)}">${esc(r[c])}</td>`).join('')}</tr>`).join('');
  return `<table id="${id}"><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export interface ReportMeta {
  project: string;
  generatedAt: string;
  filter: string;
}

export function renderReport(c: Collected, meta: ReportMeta): string {
  const v = c.verify;
  const status =
    v.status === 'intact'
      ? `<div class="status ok">Ledger intact: ${v.records} records verified from seq 1, chain ${esc(v.chain)}, head seq ${v.head?.seq ?? 0} <code>${esc(v.head?.hash ?? '')}</code>, ${v.checkpoints.count} checkpoint(s).</div>`
      : v.status === 'tampered'
        ? `<div class="status bad">Ledger TAMPERED at seq ${v.problem!.seq}: ${esc(v.problem!.kind)}: ${esc(v.problem!.detail)}. Figures below cover the ${v.records} records before it.</div>`
        : `<div class="status bad">Ledger could not be verified: ${esc(v.error)}</div>`;
  const sorted = (m: Record<string, number>) => Object.entries(m).sort((a, b) => b[1] - a[1]);
  const top = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, 20);
  const cols: (keyof RecordRow)[] = ['seq', 'ts', 'event', 'decision', 'approval', 'risk', 'user', 'host', 'harness', 'session_id', 'hook_id', 'summary', 'reason'];
  const askCols: (keyof RecordRow)[] = ['seq', 'ts', 'approval', 'user', 'host', 'harness', 'session_id', 'summary', 'reason'];
  const outcomes = c.asks.reduce<Record<string, number>>((m, a) => ((m[a.approval] = (m[a.approval] ?? 0) + 1), m), {});
  const data = JSON.stringify(c.recent).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>loom compliance report</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1300px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
.meta{color:#666;margin-bottom:12px}.status{padding:10px 14px;border-radius:6px;font-weight:600}.ok{background:#e9f7ef;color:#1e8449}.bad{background:#fdedec;color:#922b21}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:14px 0}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:120px}.card b{display:block;font-size:22px}
.grid{display:flex;flex-wrap:wrap;gap:24px}figure{margin:0}figcaption{font-weight:600;margin-bottom:4px}svg.chart text{font-size:12px;fill:#333}
table{border-collapse:collapse;width:100%;font-size:12px}th,td{border-bottom:1px solid #eee;padding:4px 6px;text-align:left;vertical-align:top}td.c-summary,td.c-reason{max-width:380px;word-break:break-word}
input{font:inherit;padding:4px 8px;width:320px}code{font-size:12px}
</style></head><body>
<h1>loom compliance report</h1>
<div class="meta">Project ${esc(meta.project)} · generated ${esc(meta.generatedAt)} · ${esc(meta.filter)}</div>
${status}
<div class="cards"><div class="card"><b id="n-records">${c.matched}</b>records in range</div><div class="card"><b>${c.byDecision.deny ?? 0}</b>denied</div><div class="card"><b>${c.byDecision.ask ?? 0}</b>asked</div><div class="card"><b>${(c.byRisk.high ?? 0) + (c.byRisk.critical ?? 0)}</b>high or critical</div><div class="card"><b id="n-redacted">${c.redactions}</b>secrets redacted</div><div class="card"><b>${c.sessions.size}</b>sessions</div></div>
<h2>Counts</h2>
<div class="grid">${bars('By event', sorted(c.byEvent), 'chart-events')}${bars('By decision', sorted(c.byDecision), 'chart-decisions')}${bars('By risk (worst first)', bySeverity(c.byRisk), 'chart-risk')}</div>
<h2>Timeline</h2>
${timeline(c)}
<h2>Most denied</h2>
<div class="grid">${bars('Denied commands', top(c.deniedCommands), 'chart-denied-commands')}${bars('Rules that denied', top(c.deniedRules), 'chart-denied-rules')}</div>
<h2>Asks and what became of them (latest ${c.asks.length})</h2>
<div class="grid">${bars('Asks by outcome', sorted(outcomes), 'chart-asks')}</div>
${table(c.asks, askCols, 'asks')}
<h2>High-risk events (latest ${c.highRisk.length})</h2>
${table(c.highRisk, cols, 'high-risk')}
<h2>Records (latest ${c.recent.length}; type to filter)</h2>
<input id="filter" type="search" placeholder="filter: deny, PreToolUse, a session id, a command…" aria-label="filter records"> <button id="export-csv" type="button">Export the filtered records as CSV</button>
<table id="records"><thead><tr>${cols.map((c2) => `<th>${esc(c2)}</th>`).join('')}</tr></thead><tbody></tbody></table>
<script type="application/json" id="records-data">${data}</script>
<script>
(function () {
  var cols = ${JSON.stringify(cols)};
  var rows = JSON.parse(document.getElementById('records-data').textContent);
  var body = document.querySelector('#records tbody');
  var input = document.getElementById('filter');
  function render() {
    var q = input.value.toLowerCase();
    while (body.firstChild) body.removeChild(body.firstChild);
    var shown = 0;
    for (var i = rows.length - 1; i >= 0; i--) {
      var r = rows[i];
      var text = cols.map(function (c) { return String(r[c]); }).join(' ').toLowerCase();
      if (q && text.indexOf(q) < 0) continue;
      var tr = document.createElement('tr');
      cols.forEach(function (c) { var td = document.createElement('td'); td.className = 'c-' + c; td.textContent = String(r[c]); tr.appendChild(td); });
      body.appendChild(tr);
      if (++shown >= 500) break;
    }
    body.setAttribute('data-shown', String(shown));
  }
  input.addEventListener('input', render);
  // CSV of every record the filter keeps (not only the 500 shown). A cell that a spreadsheet would run as a formula gets a leading quote.
  function cell(v) {
    var s = String(v);
    if (/^[=+\\-@\\t\\r]/.test(s)) s = "'" + s;
    return /[",\\r\\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
  }
  document.getElementById('export-csv').addEventListener('click', function () {
    var q = input.value.toLowerCase();
    var lines = [cols.join(',')];
    for (var i = 0; i < rows.length; i++) {
      var r = rows[i];
      var text = cols.map(function (c) { return String(r[c]); }).join(' ').toLowerCase();
      if (q && text.indexOf(q) < 0) continue;
      lines.push(cols.map(function (c) { return cell(r[c]); }).join(','));
    }
    var a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([lines.join('\\r\\n') + '\\r\\n'], { type: 'text/csv' }));
    a.download = 'loom-records' + (q ? '-filtered' : '') + '.csv';
    document.body.appendChild(a);
    a.click();
    a.remove();
  });
  render();
})();
</script>
</body></html>
`;
}
