// Terminal helpers shared by commands: progress on a TTY, aligned tables.
export function isTty(stream: NodeJS.WriteStream = process.stderr): boolean {
  return Boolean(stream.isTTY);
}

/** A progress bar on stderr that draws only on a TTY and at most every 1%. */
export function progressBar(label: string): ((done: number, total: number) => void) | undefined {
  if (!isTty()) return undefined;
  let lastPct = -1;
  return (done, total) => {
    const pct = total ? Math.floor((done / total) * 100) : 100;
    if (pct === lastPct) return;
    lastPct = pct;
    const width = 30;
    const fill = Math.round((pct / 100) * width);
    process.stderr.write(`\r${label} [${'#'.repeat(fill)}${'.'.repeat(width - fill)}] ${pct}% (${done}/${total})`);
    if (done >= total) process.stderr.write('\n');
  };
}

export function table(headers: string[], rows: string[][], maxWidth = 60): string {
  const clip = (s: string) => (s.length > maxWidth ? s.slice(0, maxWidth - 1) + '…' : s);
  const cells = rows.map((r) => r.map((c) => clip(c.replace(/\s+/g, ' '))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]?.length ?? 0)));
  const fmt = (r: string[]) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ');
  return [fmt(headers), fmt(widths.map((w) => '-'.repeat(w))), ...cells.map(fmt)].join('\n') + '\n';
}
