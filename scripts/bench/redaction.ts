// Issue 12: redaction time per MB on hostile inputs (one per detector key),
// as a ratio to a same-run baseline (JSON.stringify of the same text: one
// linear pass that every record pays anyway), and the removal rates on the
// generated corpus (and on the red-team corpus when /work/redteam holds it).
import { redactText } from '../../src/ledger/redact';
import { corpus } from '../../test/redaction/corpus';
import { hostileInputs } from '../../test/redaction/hostile';
import { cpus, loadavg } from 'node:os';
import { median } from './measure';

const MB = 1 << 20;

function time(fn: () => unknown): number {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

export async function benchRedaction(): Promise<string[]> {
  const lines = ['## redaction: time per MB on hostile inputs, removal rates (issue 12)'];
  const inputs = hostileInputs(MB, 3);
  const rounds = 5;
  let worst = 0;
  let worstName = '';
  const rows: string[] = [];
  for (const [name, text] of inputs) {
    redactText(text.slice(0, 20000));
    const base: number[] = [];
    const red: number[] = [];
    for (let i = 0; i < rounds; i++) {
      base.push(time(() => JSON.stringify(text)));
      red.push(time(() => redactText(text)));
    }
    const b = median(base);
    const r = median(red);
    if (r > worst) {
      worst = r;
      worstName = name;
    }
    rows.push(`  ${name.padEnd(24)} ${r.toFixed(1).padStart(7)} ms/MB ${(1000 / r).toFixed(1).padStart(6)} MB/s  (${(r / b).toFixed(1)} x JSON.stringify of the same MB, ${b.toFixed(2)} ms)`);
  }
  lines.push(`worst: ${worstName} ${worst.toFixed(1)} ms per MB = ${(1000 / worst).toFixed(1)} MB/s (target < 50 ms: ${worst < 50 ? 'met' : 'NOT met'}); medians of ${rounds}, load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores`);
  lines.push(...rows);
  const { secrets, lookalikes } = corpus();
  const removed = secrets.filter((c) => !redactText(c.text).includes(c.secret)).length;
  const touched = lookalikes.filter((c) => !redactText(c.text).includes(c.keep)).length;
  lines.push(`generated corpus: secrets removed ${removed}/${secrets.length}; look-alikes removed ${touched}/${lookalikes.length}`);
  return lines;
}
