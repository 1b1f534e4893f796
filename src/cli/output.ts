// Terminal helpers shared by commands: progress on a TTY, aligned tables.
export function isTty(stream: NodeJS.WriteStream = process.stderr): boolean {
  return Boolean(stream.isTTY);
}

/** A progress bar on stderr that draws only on a TTY, at most every 100 ms (and at the end). */
export function progressBar(label: string): ((done: number, total: number) => void) | undefined {
  if (!isTty()) return undefined;
  let lastPct = -1;
  let lastDraw = 0;
  return (done, total) => {
    const pct = total ? Math.floor((done / total) * 100) : 100;
    if (pct === lastPct) return;
    const now = Date.now();
    if (done < total && now - lastDraw < 100) return;
    lastDraw = now;
    lastPct = pct;
    const width = 30;
    const fill = Math.round((pct / 100) * width);
    process.stderr.write(`\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${pct}% (${done}/${total})`);
    if (done >= total) process.stderr.write('\n');
  };
}

/**
 * Colour for a person at a terminal, decided the way Node's own tty module
 * does: FORCE_COLOR wins when set (0 or false: never, anything else:
 * always, even piped), then NO_COLOR (no-color.org: any non-empty value)
 * and TERM=dumb switch it off; otherwise colour only when the stream is a
 * terminal, so piped output carries no escape codes.
 */
export function useColor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

const SGR = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;
export type Style = keyof typeof SGR;
export function paint(style: Style | undefined, text: string, on = useColor()): string {
  return on && style && text ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text;
}

/**
 * One meaning, one colour, in every command: what stopped or broke is red,
 * what needs a person is yellow, what is fine is green, what did nothing is dim.
 */
const TONES: Record<string, Style> = {
  deny: 'red', block: 'red', tampered: 'red', fail: 'red', problem: 'red', problems: 'red', error: 'red', critical: 'red', high: 'red', 'not wired': 'red',
  ask: 'yellow', medium: 'yellow', warning: 'yellow', warn: 'yellow', note: 'yellow', 'cannot-verify': 'yellow',
  allow: 'green', intact: 'green', ok: 'green', wired: 'green', wrote: 'green', added: 'green', removed: 'green',
  'already wired': 'dim', kept: 'dim', 'nothing to change': 'dim', 'nothing to remove': 'dim', 'already installed': 'dim', none: 'dim',
};

/** The word in the colour its meaning has everywhere (case and padding kept). */
export function tone(word: string, on = useColor()): string {
  return outside(word, TONES[word.trim().toLowerCase()], on);
}

// Padding stays outside the escape codes: a coloured cell ends where its word does.
const outside = (text: string, style: Style | undefined, on: boolean) => text.replace(/\S(?:.*\S)?/, (w) => paint(style, w, on));

/** The terminal's width when stdout is one (or COLUMNS), else no limit: a pipe gets whole lines. */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  const cols = Number(env.COLUMNS);
  if (Number.isInteger(cols) && cols >= 20) return cols;
  return stream.isTTY && stream.columns && stream.columns >= 20 ? stream.columns : Infinity;
}

export interface TableOptions {
  /** Columns whose cells take their tone(). */
  toned?: number[];
  /** Colour on or off (default: stdout's). */
  color?: boolean;
  /** A column's own readable minimum (default: its header, and at least MIN_CELL). */
  minWidths?: Record<number, number>;
  /** Columns left out, in this order, while the others cannot fit at their minimums. */
  drop?: number[];
}

/** No cell is cut below this many characters (its ellipsis included), nor below its header. */
export const MIN_CELL = 6;

/**
 * Aligned columns; each cell at most maxCell characters, and every line at
 * most `width` (the terminal's, by default; no limit when piped): while the
 * table is too wide the widest column gives up a character, each ending in
 * an ellipsis, and no column goes below its readable minimum; when even the
 * minimums do not fit, the `drop` columns go first. Colour goes on after
 * padding, so escape codes never shift a column.
 */
export function table(headers: string[], rows: string[][], maxCell = 60, width = terminalWidth(), opts: TableOptions = {}): string {
  const on = opts.color ?? useColor();
  const toned = new Set(opts.toned ?? []);
  const clip = (s: string, n: number) => (s.length > n ? s.slice(0, Math.max(0, n - 1)) + '…' : s);
  const cells = rows.map((r) => r.map((c) => clip(c.replace(/\s+/g, ' '), maxCell)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const minOf = (i: number) => Math.min(widths[i], opts.minWidths?.[i] ?? Math.max(MIN_CELL, headers[i].length));
  const total = (cols: number[], w: (i: number) => number) => cols.reduce((a, i) => a + w(i), 0) + 2 * Math.max(0, cols.length - 1);
  let cols = headers.map((_, i) => i);
  if (Number.isFinite(width)) {
    const drops = (opts.drop ?? []).filter((i) => i < headers.length);
    while (total(cols, minOf) > width && drops.length && cols.length > 1) {
      const gone = drops.shift()!;
      cols = cols.filter((i) => i !== gone);
    }
    // The widest column first, one character at a time, down to its minimum.
    for (let over = total(cols, (i) => widths[i]) - width; over > 0; over--) {
      let widest = -1;
      for (const i of cols) if (widths[i] > minOf(i) && (widest < 0 || widths[i] > widths[widest])) widest = i;
      if (widest < 0) break;
      widths[widest]--;
    }
  }
  // Still wider than the terminal at every column's minimum: one record per block, each field on its own line and
  // wrapped, so nothing wraps mid-row and no value is cut to a useless stub (finding A9).
  if (Number.isFinite(width) && total(cols, (i) => widths[i]) > width) return blocks(headers, rows, width, on);
  const last = cols[cols.length - 1];
  const fit = (c: string, i: number) => (i === last ? clip(c, widths[i]) : clip(c, widths[i]).padEnd(widths[i]));
  const fmt = (r: string[], style?: (c: string, i: number) => string) => cols.map((i) => (style ? style(fit(r[i] ?? '', i), i) : fit(r[i] ?? '', i))).join('  ');
  const head = fmt(headers, (c) => outside(c, 'bold', on));
  const body = cells.map((r) => fmt(r, (c, i) => (toned.has(i) ? tone(c, on) : c)));
  return [head, fmt(widths.map((w) => '-'.repeat(w))), ...body].join('\n') + '\n';
}

function blocks(headers: string[], rows: string[][], width: number, on: boolean): string {
  const hw = Math.max(...headers.map((h) => h.length));
  const room = Math.max(10, width - hw - 2);
  const out: string[] = [];
  for (const r of rows) {
    if (out.length) out.push('');
    headers.forEach((h, i) => {
      const v = (r[i] ?? '').replace(/\s+/g, ' ');
      const label = outside(h.padEnd(hw), 'bold', on);
      if (v.length <= room) return void out.push(`${label}  ${v}`);
      for (let at = 0; at < v.length; at += room) out.push(`${at === 0 ? label : ' '.repeat(hw)}  ${v.slice(at, at + room)}`);
    });
  }
  return out.join('\n') + '\n';
}
