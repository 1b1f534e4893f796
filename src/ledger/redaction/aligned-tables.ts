// Tables aligned by blanks (`column -t`, `aws iam list-…  --output table` without bars, a CLI's
// report): a header line of named columns two or more blanks apart, then rows whose cells start
// where the header's do. A column named for a secret (`Password`, `Secret access key`, `Token`)
// holds one in every row.
import { isPlaceholder, isSensitiveName } from './names';
import type { Span } from './text';
import { scan, work } from './work';

const ANCHOR = /passw|passphrase|secret|token|api[ _-]?key|private[ _-]?key|credential|\bpwd?\b|\bvalue\b/gi;
// A table of settings (`op item get … | column -t`: ITEM  FIELD  VALUE): the value of each row whose name cell names a secret.
const NAME_COLUMN = /^(?:field|name|key|label|parameter|setting|variable|var|secret|item)$/i;
const VALUE_COLUMN = /^(?:value|values|data|secret[ _-]?value|plaintext)$/i;
const CELL_NAME = /^[A-Za-z][A-Za-z0-9 _()./#-]{0,40}$/;
const RULE_LINE = /^[ \t]*-{2,}(?:[ \t]{2,}-{2,})*[ \t]*\r?$/;
// What a CLI shows instead of a value (vercel env ls: `Encrypted`; others: hidden, masked, sensitive).
const NO_VALUE = /^(?:-|n\/a|none|<none>|null|\*+|•+|\(hidden\)|\(sensitive\)|<sensitive>|true|false|encrypted|hidden|masked|sensitive|redacted|secret|set|unset|not set|\[hidden\]|\[masked\])$/i;
const MAX_ROWS = 200;
const MAX_LINE = 400;

/** Cells of a line split at runs of two or more blanks: [start, end) pairs. */
function cells(line: string): [number, number][] {
  const out: [number, number][] = [];
  let i = 0;
  const n = line.length;
  while (i < n && out.length < 32) {
    while (i < n && (line[i] === ' ' || line[i] === '\t')) i++;
    if (i >= n) break;
    const s = i;
    while (i < n && !(line[i] === '\t' || (line[i] === ' ' && (line[i + 1] === ' ' || line[i + 1] === '\t' || i + 1 >= n)))) i++;
    out.push([s, i]);
  }
  return out;
}

/** The cell of `line` that starts at column `s` (empty when none starts there). */
function cellAt(line: string, s: number): string {
  if (s >= line.length || line[s] === ' ' || (s > 0 && line[s - 1] !== ' ' && line[s - 1] !== '\t')) return '';
  const cell = cells(line.slice(s))[0];
  return cell ? line.slice(s + cell[0], s + cell[1]) : '';
}

export function findAlignedTables(text: string, spans: Span[]): void {
  if (!text.includes('  ')) return;
  ANCHOR.lastIndex = 0;
  let a: RegExpExecArray | null;
  while ((a = scan(ANCHOR, text))) {
    const ls = text.lastIndexOf('\n', a.index) + 1;
    let le = text.indexOf('\n', a.index);
    if (le === -1) le = text.length;
    ANCHOR.lastIndex = le + 1;
    if (le - ls > MAX_LINE) continue;
    const header = text.slice(ls, le).replace(/\r$/, '');
    work.reads += header.length;
    const cols = cells(header);
    // Column names are words: a cell with digits in a long run of letters (`ApiKey  REG_SZ  g5zC9XwN1zB5…`) is a value, and the line a row.
    if (cols.length < 2 || !cols.every(([s, e]) => CELL_NAME.test(header.slice(s, e)) && !(e - s > 12 && /\d/.test(header.slice(s, e)) && !/ /.test(header.slice(s, e))))) continue;
    // A row of a table whose header is above it (`gh secret list`: NAME  UPDATED, then NPM_TOKEN  2 days ago): its cells start where the line's above do.
    if (ls > 0) {
      const ps = text.lastIndexOf('\n', ls - 2) + 1;
      if (ls - 1 - ps <= MAX_LINE) {
        const above = text.slice(ps, ls - 1).replace(/\r$/, '');
        work.reads += above.length;
        const starts = cells(above).map(([s]) => s);
        if (starts.length >= 2 && cols.every(([s]) => starts.includes(s))) continue;
      }
    }
    const names = cols.map(([s, e]) => header.slice(s, e));
    const secret = names.map((n) => !VALUE_COLUMN.test(n) && isSensitiveName(n.replace(/[ ./#()-]+/g, '_')));
    const valueCol = names.findIndex((n) => VALUE_COLUMN.test(n));
    const nameCol = valueCol > 0 ? names.slice(0, valueCol).map((n, i) => (NAME_COLUMN.test(n) ? i : -1)).filter((i) => i >= 0).pop() ?? -1 : -1;
    if (!secret.some(Boolean) && nameCol < 0) continue;
    let at = le + 1;
    for (let row = 0; row < MAX_ROWS && at < text.length; row++) {
      let re = text.indexOf('\n', at);
      if (re === -1) re = text.length;
      const line = text.slice(at, re).replace(/\r$/, '');
      work.reads += line.length;
      if (line.trim() === '' || line.length > MAX_LINE * 4) break;
      if (!RULE_LINE.test(line)) {
        // A settings row: its name cell names a secret, so its value cell holds one.
        const keyed = nameCol >= 0 && isSensitiveName(cellAt(line, cols[nameCol][0]).replace(/[ ./#()-]+/g, '_'));
        for (let c = 0; c < cols.length; c++) {
          if (!secret[c] && !(keyed && c === valueCol)) continue;
          const s = cols[c][0];
          if (s >= line.length || line[s] === ' ' || (s > 0 && line[s - 1] !== ' ' && line[s - 1] !== '\t')) continue;
          const cell = cells(line.slice(s))[0];
          if (!cell) continue;
          const v = line.slice(s + cell[0], s + cell[1]);
          if (v.length < 4 || NO_VALUE.test(v) || isPlaceholder(v)) continue;
          spans.push({ start: at + s + cell[0], end: at + s + cell[1], rule: 'table-cell' });
        }
      }
      at = re + 1;
    }
    ANCHOR.lastIndex = Math.max(ANCHOR.lastIndex, at);
  }
}
