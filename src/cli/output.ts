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
 * Colour only for a person at a terminal: never when piped, never with
 * NO_COLOR set (no-color.org) or TERM=dumb.
 */
export function useColor(stream: { isTTY?: boolean } = process.stdout, env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

const SGR = { red: 31, green: 32, yellow: 33, bold: 1, dim: 2 } as const;
export function paint(style: keyof typeof SGR, text: string, on = useColor()): string {
  return on ? `\x1b[${SGR[style]}m${text}\x1b[0m` : text;
}

/** The terminal's width when stdout is one (or COLUMNS), else no limit: a pipe gets whole lines. */
export function terminalWidth(stream: { isTTY?: boolean; columns?: number } = process.stdout, env: NodeJS.ProcessEnv = process.env): number {
  const cols = Number(env.COLUMNS);
  if (Number.isInteger(cols) && cols >= 20) return cols;
  return stream.isTTY && stream.columns && stream.columns >= 20 ? stream.columns : Infinity;
}

/**
 * Aligned columns; each cell at most maxCell characters, and the last
 * column cut so every line fits `width` (the terminal's, by default).
 */
export function table(headers: string[], rows: string[][], maxCell = 60, width = terminalWidth()): string {
  const clip = (s: string, n: number) => (s.length > n ? s.slice(0, Math.max(0, n - 1)) + '…' : s);
  const cells = rows.map((r) => r.map((c) => clip(c.replace(/\s+/g, ' '), maxCell)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const lead = widths.slice(0, -1).reduce((a, w) => a + w + 2, 0);
  const lastMax = Number.isFinite(width) ? Math.max(8, width - lead) : Infinity;
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? clip(c, lastMax) : c.padEnd(widths[i]))).join('  ');
  return [fmt(headers), fmt(widths.map((w) => '-'.repeat(w))), ...cells.map(fmt)].join('\n') + '\n';
}
